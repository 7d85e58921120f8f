// /config/senha (tab Senha): password change (spec §5, §8). Server-enforced: the rules of the form, the
// current password (limited like sign-in), and the other sessions of the user ended on success.
import { data, useActionData, useLocation } from "react-router";
import { changePassword } from "~/features/account";
import {
  PASSWORD_CHANGE_MESSAGES as M,
  passwordChangeSchema,
  rateLimitedDescription,
  type PasswordChangeActionData,
  type PasswordChangeCode,
} from "~/features/account/password-schema";
import { PasswordChangeForm } from "~/features/account/ui/password-form";
import type { RouteHandle } from "~/lib/access";
import { getSessionUser, requireUser } from "~/server/auth.server";
import { minutesLeft } from "~/server/rate-limit.server";
import { parseForm } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/config.senha";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Senha — Configurações — Nika" }];

const PATH = "/config/senha";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  // §8: a change posted after the session ended says so on the sign-in page.
  if (!(await getSessionUser(request, context))) {
    throw await redirectWithToast(context.cloudflare.env, `/signin?redirectTo=${encodeURIComponent(PATH)}`, {
      type: "error",
      title: M.sessionExpired,
    });
  }
  const user = await requireUser(request, context); // blocked → /blocked
  const submission = await parseForm(request, passwordChangeSchema);
  const hidden = ["currentPassword", "newPassword", "confirmPassword"];
  const reply = (code: PasswordChangeCode, status: number, formErrors?: string[]) =>
    data<PasswordChangeActionData>({ result: submission.reply({ hideFields: hidden, formErrors }), code }, { status });
  if (submission.status !== "success") return reply("invalid_input", 400);

  try {
    const result = await changePassword(context, user, submission.value);
    if (result.status === "rate_limited") {
      return reply("rate_limited", 429, [M.rateLimitedTitle, rateLimitedDescription(minutesLeft(result.retryAfterMs))]);
    }
    if (result.status === "wrong_password") return reply("wrong_password", 400, [M.failedTitle, M.wrongCurrent]);
  } catch (error) {
    console.error(error);
    return reply("unexpected", 500, [M.unexpected]);
  }
  return redirectWithToast(context.cloudflare.env, PATH, { type: "success", title: M.success, description: M.successDescription });
}

export default function ConfigPassword() {
  // A new form after each answer (the success redirect included), so no typed password stays in a field.
  const { key } = useLocation();
  return <PasswordChangeForm key={key} actionData={useActionData<typeof action>()} />;
}
