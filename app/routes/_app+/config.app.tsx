// /config/app (tab App): install the app, the avatar (stored on users.avatar, shown in the sidebar and
// next to comments) and the theme toggle (spec §2, §4, §9).
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AppInstall } from "~/features/account/app-install";
import { AvatarPicker } from "~/features/account/avatars-form";
import { AVATAR_MESSAGES, avatarSchema, type AvatarActionData } from "~/features/account/avatars-schema";
import { saveAvatar } from "~/features/account/avatars.server";
import { ThemeToggle } from "~/features/shell/ThemeToggle";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { parseForm } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";

export const handle: RouteHandle = { access: "user" };

export const meta: MetaFunction = () => [{ title: "App — Configurações — Nika" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return { avatar: user.avatar };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const submission = await parseForm(request, avatarSchema);
  if (submission.status !== "success") {
    return data<AvatarActionData>({ result: submission.reply(), code: "invalid_avatar" }, { status: 400 });
  }
  await saveAvatar(context, user.id, submission.value.avatar);
  return redirectWithToast(context.cloudflare.env, "/config/app", { type: "success", title: AVATAR_MESSAGES.saved });
}

export default function ConfigApp() {
  const { avatar } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-10">
      <AppInstall />
      <AvatarPicker current={avatar} actionData={useActionData<typeof action>()} />
      <section aria-labelledby="tema-titulo">
        <h2 id="tema-titulo" className="mb-2 text-lg font-semibold">
          Tema
        </h2>
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
          Escolha entre o tema claro e o escuro. A escolha fica salva neste dispositivo.
        </p>
        <ThemeToggle showLabel className="border border-slate-300 px-3 dark:border-night-700" />
      </section>
    </div>
  );
}
