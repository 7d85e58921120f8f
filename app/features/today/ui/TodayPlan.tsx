// "Hoje" on the home page: today's points against the goal (an SVG ring drawn on the server), the streak with its
// protectors, and the plan's items, each a link ticked once done today. No client code of its own: links only.
import { Link } from "react-router";
import { cn } from "~/components/cn";
import type { PlanItem, TodayData } from "../plan.server";

const RADIUS = 34;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** Today's points against the goal: a ring, the figures written inside, and one sentence for screen readers. */
export function GoalRing({ points, goal }: { points: number; goal: number }) {
  const share = goal > 0 ? Math.min(1, points / goal) : 0;
  const reached = points >= goal;
  return (
    <svg
      viewBox="0 0 80 80"
      width="96"
      height="96"
      role="img"
      aria-label={`Hoje: ${points} de ${goal} pontos${reached ? ", meta cumprida" : ""}`}
      className="shrink-0"
      data-testid="goal-ring"
    >
      <circle cx="40" cy="40" r={RADIUS} fill="none" strokeWidth="8" className="stroke-slate-200 dark:stroke-night-700" />
      <circle
        cx="40"
        cy="40"
        r={RADIUS}
        fill="none"
        strokeWidth="8"
        strokeLinecap="round"
        strokeDasharray={`${(share * CIRCUMFERENCE).toFixed(2)} ${CIRCUMFERENCE.toFixed(2)}`}
        transform="rotate(-90 40 40)"
        className={reached ? "stroke-emerald-600 dark:stroke-emerald-400" : "stroke-indigo-600 dark:stroke-indigo-400"}
      />
      <text x="40" y="38" textAnchor="middle" className="fill-slate-900 text-[18px] font-bold dark:fill-white">
        {points}
      </text>
      <text x="40" y="54" textAnchor="middle" className="fill-slate-600 text-[10px] dark:fill-slate-300">
        de {goal}
      </text>
    </svg>
  );
}

function streakSentence(streak: TodayData["streak"]) {
  if (streak.broken) return `Sua ofensiva terminou. Recorde: ${streak.longest} ${streak.longest === 1 ? "dia" : "dias"}.`;
  if (streak.current === 0) return "Pratique hoje para começar uma ofensiva.";
  const days = `${streak.current} ${streak.current === 1 ? "dia" : "dias"}`;
  return streak.activeToday ? `Ofensiva de ${days}. Você já praticou hoje!` : `Ofensiva de ${days}. Pratique hoje para mantê-la.`;
}

function PlanRow({ item }: { item: PlanItem }) {
  return (
    <li>
      <Link
        to={item.to}
        prefetch="none"
        className="flex items-center gap-3 rounded-xl border border-slate-200 px-3 py-2.5 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-night-700 dark:hover:bg-night-800"
        data-testid={`plan-${item.key}`}
        data-done={item.done || undefined}
      >
        <span
          aria-hidden
          className={cn(
            "flex size-6 shrink-0 items-center justify-center rounded-full border-2 text-sm font-bold",
            item.done
              ? "border-emerald-600 bg-emerald-600 text-white dark:border-emerald-400 dark:bg-emerald-400 dark:text-night-950"
              : "border-slate-300 dark:border-night-600",
          )}
        >
          {item.done ? "✓" : ""}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block font-medium">{item.title}</span>
          <span className="block truncate text-sm text-slate-700 dark:text-slate-300">{item.detail}</span>
        </span>
        <span className={cn("text-xs font-medium", item.done ? "text-emerald-700 dark:text-emerald-300" : "sr-only")}>
          {item.done ? "Feito hoje" : "A fazer"}
        </span>
      </Link>
    </li>
  );
}

export function TodayPlan({ today, children }: { today: TodayData; children?: React.ReactNode }) {
  const { streak } = today;
  return (
    <section aria-labelledby="hoje-titulo" className="mt-6 rounded-2xl border border-slate-200 p-4 sm:p-6 dark:border-night-700">
      <h2 id="hoje-titulo" className="text-lg font-semibold">
        Hoje
      </h2>
      <div className="mt-3 flex items-center gap-4">
        <GoalRing points={today.points} goal={today.goal} />
        <div className="text-sm">
          <p className="font-medium">
            {today.points >= today.goal ? "Meta diária cumprida!" : `Faltam ${today.goal - today.points} pontos para a sua meta diária.`}
          </p>
          <p className="mt-1 text-slate-700 dark:text-slate-300" data-testid="streak">
            {streakSentence(streak)}
          </p>
          <p className="mt-1 text-slate-700 dark:text-slate-300" data-testid="streak-freezes">
            {streak.freezes === 1 ? "1 protetor de ofensiva" : `${streak.freezes} protetores de ofensiva`}
            {streak.freezesPending > 0
              ? ` (${streak.freezesPending} em uso para ${streak.freezesPending === 1 ? "o dia perdido" : "os dias perdidos"})`
              : ""}
          </p>
        </div>
      </div>
      {children}
      {today.items.length > 0 ? (
        <ol className="mt-4 space-y-2" aria-label="Plano de hoje">
          {today.items.map((item) => (
            <PlanRow key={item.key} item={item} />
          ))}
        </ol>
      ) : null}
    </section>
  );
}
