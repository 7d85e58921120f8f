// The home page: a greeting, "Hoje" (today's plan, the points against the daily goal, the streak) and the
// three feature cards. The goal is offered here once, after the learner's first activity.
import { data, useActionData, useLoaderData, useRouteLoaderData } from "react-router";
import { dailyGoalSchema, refuseSubmission, saveHabitChoice } from "~/features/account";
import { DailyGoalForm } from "~/features/account/ui/daily-goal-forms";
import { SHELL_ROUTE_ID, firstName, type ShellData } from "~/features/shell/types";
import { ChatArt, FlixArt, LabsArt } from "~/features/shell/ui/art";
import { FeatureCardGrid, type FeatureCardProps } from "~/features/shell/ui/FeatureCard";
import { todayForHome } from "~/features/today";
import { TodayPlan } from "~/features/today/ui/TodayPlan";
import type { RouteHandle } from "~/lib/access";
import { DAILY_GOALS } from "~/server/activity.server";
import { requireUser } from "~/server/auth.server";
import { getFlags } from "~/server/flags.server";
import { parseForm } from "~/server/request.server";
import type { Route } from "./+types/_index";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Início — Nika" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const flags = await getFlags(context);
  const today = await todayForHome(context, user, flags);
  return data({ today, goals: DAILY_GOALS }, { headers: { "Cache-Control": "private, no-store" } });
}

/** The goal offered on this page (the same choice as /config/app); back here with a toast. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const submission = await parseForm(request, dailyGoalSchema);
  if (submission.status !== "success") return refuseSubmission(submission);
  return saveHabitChoice(context, user.id, submission.value, "/");
}

const HOME_CARDS: readonly FeatureCardProps[] = [
  {
    to: "/chat-with-nika",
    title: "Chat with Nika",
    description: "Converse com a Nika e pratique inglês do seu jeito.",
    gradient: "from-indigo-500 to-violet-600",
    art: <ChatArt />,
  },
  {
    to: "/courses",
    title: "Teacher FLIX",
    description: "Cursos em vídeo com aulas passo a passo.",
    gradient: "from-rose-500 to-orange-500",
    art: <FlixArt />,
  },
  {
    to: "/labs",
    title: "Labs",
    description: "Flashcards, pronúncia e teste de nível em fase beta.",
    gradient: "from-emerald-500 to-teal-600",
    art: <LabsArt />,
  },
];

export default function Home() {
  const shell = useRouteLoaderData<ShellData>(SHELL_ROUTE_ID);
  const { today, goals } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const name = shell ? firstName(shell.user.name) : "";
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{name ? `Olá, ${name}!` : "Olá!"}</h1>
      <p className="mt-1 text-slate-600 dark:text-slate-300">O que vamos praticar hoje?</p>
      <TodayPlan today={today}>
        {today.offerGoal ? (
          <div className="mt-4 rounded-xl bg-indigo-50 p-3 dark:bg-indigo-400/10" data-testid="goal-offer">
            <p className="mb-2 text-sm font-medium">
              Você já começou a praticar! Escolha quantos pontos por dia quer fazer (dá para mudar depois em Configurações → App).
            </p>
            <DailyGoalForm
              id="meta-inicio"
              goals={goals}
              current={today.goal}
              legend="Escolha sua meta diária"
              error={refused?.result.error?.goal?.[0] ?? refused?.result.error?.[""]?.[0]}
            />
          </div>
        ) : null}
      </TodayPlan>
      <FeatureCardGrid cards={HOME_CARDS} />
    </div>
  );
}
