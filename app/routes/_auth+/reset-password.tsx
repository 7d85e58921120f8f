import { data, redirect, Link, useActionData, useLoaderData } from "react-router";
import { SubmitButton } from "~/components/button";
import { ConformForm, Field, useSchemaForm } from "~/components/forms";
import { NoticeBox } from "~/components/notice";
import { isResetTokenValid, resetPassword } from "~/features/auth/accounts.server";
import { answerUnexpected, FAILURE_MESSAGES } from "~/features/auth/failure.server";
import { PASSWORD_MIN, resetPasswordSchema } from "~/features/auth/schemas";
import { AuthCard, DelayedRedirect, linkClass } from "~/features/auth/ui/parts";
import type { RouteHandle } from "~/lib/access";
import { destroySession } from "~/server/auth.server";
import { parseForm } from "~/server/request.server";
import type { Route } from "./+types/reset-password";

export const handle: RouteHandle = { access: "public" };

const INVALID_LINK = "Link de redefinição de senha inválido ou expirado. Solicite um novo link de redefinição.";
const REDIRECT_DELAY_S = 2;

export const meta: Route.MetaFunction = () => [{ title: "Redefinir senha — Nika" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  if (params.get("done") === "1") return { state: "success" as const, token: "" };
  const token = params.get("token") ?? "";
  if (!token || !(await isResetTokenValid(context, token))) {
    return data({ state: "error" as const, token: "" }, { status: 400 });
  }
  return { state: "ready" as const, token };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, resetPasswordSchema);
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword"] }) }, { status: 400 });
  }
  const reply = (status: number, message: string) =>
    data({ result: submission.reply({ hideFields: ["password", "confirmPassword"], formErrors: [message] }) }, { status });
  let changed;
  try {
    changed = await resetPassword(context, submission.value.token, submission.value.password);
  } catch (error) {
    return answerUnexpected(error, { request, context }, () => reply(500, FAILURE_MESSAGES.resetPassword));
  }
  if (!changed) return reply(400, INVALID_LINK);
  // Every session of the user is gone (including this browser's): clear the cookie too.
  return redirect("/reset-password?done=1", { headers: { "Set-Cookie": (await destroySession(context, request)).setCookie } });
}

export default function ResetPassword() {
  const { state, token } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(resetPasswordSchema, actionData?.result);

  if (state === "success") {
    return (
      <AuthCard title="Senha redefinida!">
        <DelayedRedirect to="/signin" seconds={REDIRECT_DELAY_S} />
        <NoticeBox notice={{ tone: "success", title: "Sua senha foi alterada com sucesso.", description: "Redirecionando para o login..." }} />
        <Link className={linkClass} to="/signin">
          Ir para o login
        </Link>
      </AuthCard>
    );
  }
  if (state === "error") {
    return (
      <AuthCard title="Redefinir senha">
        <NoticeBox notice={{ tone: "error", title: INVALID_LINK }} />
        <Link className={linkClass} to="/forgot-password">
          Solicitar novo link
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Criar nova senha" subtitle="Use pelo menos 8 caracteres, com letras e números.">
      {form.errors?.[0] ? <NoticeBox notice={{ tone: "error", title: form.errors[0] }} /> : null}
      <ConformForm form={form}>
        <input type="hidden" name="token" value={token} />
        <Field meta={fields.password} label="Nova senha" type="password" autoComplete="new-password" minLength={PASSWORD_MIN} />
        <Field meta={fields.confirmPassword} label="Confirmar nova senha" type="password" autoComplete="new-password" minLength={PASSWORD_MIN} />
        <SubmitButton size="lg" className="w-full" pendingText="Salvando...">
          Redefinir senha
        </SubmitButton>
      </ConformForm>
    </AuthCard>
  );
}
