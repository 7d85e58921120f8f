// /config/app (tab App): install the app, the avatar (stored on users.avatar, shown in the sidebar and
// next to comments), the daily goal and the "Lembrete diário" opt-in, and the theme toggle (spec §2, §4, §9).
import { useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { dailyGoalSchema, refuseSubmission, reminderSchema, saveAvatar, saveHabitChoice } from "~/features/account";
import { AVATAR_MESSAGES, avatarSchema } from "~/features/account/avatars-schema";
import { AppInstall } from "~/features/account/ui/app-install";
import { AvatarPicker } from "~/features/account/ui/avatars-form";
import { DailyGoalForm, ReminderForm } from "~/features/account/ui/daily-goal-forms";
import { ThemeToggle } from "~/features/shell/ui/ThemeToggle";
import type { RouteHandle } from "~/lib/access";
import { DAILY_GOALS } from "~/server/activity.server";
import { requireUser } from "~/server/auth.server";
import { parseForm } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/config.app";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "App — Configurações — Nika" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return { avatar: user.avatar, dailyGoal: user.dailyGoal, goals: DAILY_GOALS, reminderOptIn: user.reminderOptIn };
}

const appSchema = z.discriminatedUnion("intent", [avatarSchema, dailyGoalSchema, reminderSchema]);

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const submission = await parseForm(request, appSchema);
  if (submission.status !== "success") return refuseSubmission(submission);
  const input = submission.value;
  if (input.intent !== "avatar") return saveHabitChoice(context, user.id, input, "/config/app");
  await saveAvatar(context, user.id, input.avatar);
  return redirectWithToast(context.cloudflare.env, "/config/app", { type: "success", title: AVATAR_MESSAGES.saved });
}

export default function ConfigApp() {
  const { avatar, dailyGoal, goals, reminderOptIn } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refusedFor = (intent: string) => (actionData?.intent === intent ? actionData : undefined);
  return (
    <div className="space-y-10">
      <AppInstall />
      <AvatarPicker current={avatar} actionData={refusedFor("avatar")} />
      <section aria-labelledby="meta-titulo">
        <h2 id="meta-titulo" className="mb-2 text-lg font-semibold">
          Meta diária
        </h2>
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
          Quantos pontos por dia você quer fazer. Cada aula, jogo, revisão, pronúncia e conversa vale pontos.
        </p>
        <DailyGoalForm
          goals={goals}
          current={dailyGoal}
          legend="Escolha sua meta diária"
          error={refusedFor("daily_goal")?.result.error?.goal?.[0]}
        />
      </section>
      <ReminderForm optIn={reminderOptIn} error={refusedFor("reminder")?.result.error?.reminder?.[0]} />
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
