// /progresso: the learner's last 4 weeks — points per day (a server-rendered SVG, its figures also as a table), the
// streak calendar and the totals per activity kind. Nothing here needs the browser's JavaScript; the loader lays the
// days out (weekdays, calendar weeks) and they are only cut here, so hydration reads the same.
import { cn } from "~/components/cn";
import { CheckIcon, createIcon } from "~/components/icons";
import type { ActivityKind } from "~/server/schema";
import type { Progress, ProgressDay } from "../progress.server";

export const KIND_LABELS: Record<ActivityKind, string> = {
  lesson_completed: "Aulas concluídas",
  flashcard_game: "Jogos de flashcards",
  review_game: "Revisões",
  pronunciation_attempt: "Tentativas de pronúncia",
  chat_exchange: "Trocas no chat",
  level_test: "Testes de nível",
  live_minute: "Minutos ao vivo",
};

const SnowflakeIcon = createIcon(<path d="M12 2v20M4.9 6.5l14.2 11M4.9 17.5l14.2-11M9.5 3.5 12 6l2.5-2.5M9.5 20.5 12 18l2.5 2.5" />, {
  size: 16,
  strokeWidth: 2,
});

const WEEKDAYS = [
  ["seg", "segunda-feira"],
  ["ter", "terça-feira"],
  ["qua", "quarta-feira"],
  ["qui", "quinta-feira"],
  ["sex", "sexta-feira"],
  ["sáb", "sábado"],
  ["dom", "domingo"],
] as const;

const number = (n: number) => n.toLocaleString("pt-BR");
const plural = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;
/** "27/11" */
const dayMonth = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
const longDay = (d: ProgressDay) => `${WEEKDAYS[d.weekday]![1]}, ${dayMonth(d.day)}`;

export function ProgressPage({ data }: { data: Progress }) {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Progresso</h1>
      <p className="mt-1 text-slate-600 dark:text-slate-300">Seus pontos, sua ofensiva e tudo o que você já praticou.</p>
      <div className="mt-6 space-y-8">
        <StreakSummary streak={data.streak} maxFreezes={data.maxFreezes} />
        <PointsChart days={data.days} goal={data.dailyGoal} />
        <StreakCalendar days={data.days} calendar={data.calendar} />
        <Totals totals={data.totals} />
      </div>
    </div>
  );
}

const card = "rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 dark:bg-night-900 dark:ring-night-700";
const muted = "text-slate-600 dark:text-slate-300";

function StreakSummary({ streak, maxFreezes }: { streak: Progress["streak"]; maxFreezes: number }) {
  let note: string | null = null;
  if (streak.broken) note = "Sua ofensiva foi interrompida. Pratique hoje para começar uma nova.";
  else if (streak.freezesPending > 0)
    note = `${plural(streak.freezesPending, "dia sem prática será coberto", "dias sem prática serão cobertos")} por proteção quando você praticar hoje.`;
  else if (!streak.activeToday && streak.current > 0) note = "Pratique hoje para manter sua ofensiva.";
  return (
    <section aria-labelledby="progress-streak-title" className={card}>
      <h2 id="progress-streak-title" className="text-lg font-semibold">
        Ofensiva
      </h2>
      <dl className="mt-3 grid grid-cols-3 gap-3">
        <Stat label="Atual" value={plural(streak.current, "dia", "dias")} />
        <Stat label="Maior ofensiva" value={plural(streak.longest, "dia", "dias")} />
        <Stat label="Protetores de ofensiva" value={`${number(streak.freezes)} de ${maxFreezes}`} />
      </dl>
      {note ? <p className={cn("mt-3 text-sm", muted)}>{note}</p> : null}
    </section>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className={cn("text-sm", muted)}>{label}</dt>
      <dd className="mt-0.5 text-xl font-bold tabular-nums sm:text-2xl">{value}</dd>
    </div>
  );
}

/** The chart's vertical scale: the highest bar or the goal, rounded up to a multiple of 10. */
const scaleOf = (days: ProgressDay[], goal: number) => Math.max(10, Math.ceil(Math.max(goal, ...days.map((d) => d.points)) / 10) * 10);

function PointsChart({ days, goal }: { days: ProgressDay[]; goal: number }) {
  const max = scaleOf(days, goal);
  const total = days.reduce((sum, d) => sum + d.points, 0);
  const active = days.filter((d) => d.activities > 0).length;
  const best = days.reduce((a, b) => (b.points > a.points ? b : a), days[0]!);
  const today = days[days.length - 1]!;
  const summary =
    `${plural(total, "ponto", "pontos")} em ${days.length} dias, ${plural(active, "dia", "dias")} com atividade` +
    (best.points > 0 ? `; melhor dia ${dayMonth(best.day)}, com ${plural(best.points, "ponto", "pontos")}` : "") +
    `; hoje, ${plural(today.points, "ponto", "pontos")}. Meta diária: ${plural(goal, "ponto", "pontos")}.`;
  const slot = 10;
  const y = (points: number) => 100 - (points / max) * 100;
  const xLabels = [0, 7, 14, 21];
  return (
    <section aria-labelledby="progress-chart-title" className={card}>
      <h2 id="progress-chart-title" className="text-lg font-semibold">
        Pontos por dia
      </h2>
      <p className={cn("mt-1 text-sm", muted)}>
        Últimas 4 semanas: {plural(total, "ponto", "pontos")}, {plural(active, "dia", "dias")} com atividade.
      </p>
      <div className="mt-5 flex gap-2">
        <div aria-hidden className={cn("relative h-44 w-8 shrink-0 text-right text-xs tabular-nums", muted)}>
          <span className="absolute right-0 top-0 -translate-y-1/2">{max}</span>
          <span className="absolute right-0 top-1/2 -translate-y-1/2">{max / 2}</span>
          <span className="absolute bottom-0 right-0 translate-y-1/2">0</span>
        </div>
        <div className="min-w-0 flex-1">
          <svg
            viewBox={`0 0 ${days.length * slot} 100`}
            preserveAspectRatio="none"
            className="block h-44 w-full overflow-visible"
            role="img"
            aria-labelledby="progress-chart-svg-title progress-chart-svg-desc"
          >
            <title id="progress-chart-svg-title">Pontos por dia nas últimas 4 semanas</title>
            <desc id="progress-chart-svg-desc">{summary}</desc>
            <g className="stroke-slate-200 dark:stroke-night-700" strokeWidth="1">
              {[0, 50, 100].map((gy) => (
                <line key={gy} x1="0" x2={days.length * slot} y1={gy} y2={gy} vectorEffect="non-scaling-stroke" />
              ))}
            </g>
            <g className="fill-indigo-600 dark:fill-indigo-400">
              {days.map((d, i) =>
                d.points > 0 ? (
                  <rect key={d.day} x={i * slot + 1.5} width={slot - 3} y={y(d.points)} height={100 - y(d.points)} rx="1">
                    <title>{`${dayMonth(d.day)}: ${plural(d.points, "ponto", "pontos")}`}</title>
                  </rect>
                ) : null,
              )}
            </g>
            <line
              x1="0"
              x2={days.length * slot}
              y1={y(goal)}
              y2={y(goal)}
              className="stroke-emerald-700 dark:stroke-emerald-300"
              strokeWidth="2"
              strokeDasharray="6 4"
              vectorEffect="non-scaling-stroke"
            />
          </svg>
          <div aria-hidden className={cn("relative mt-1 h-4 text-xs", muted)}>
            {xLabels.map((i) => (
              <span
                key={i}
                className={cn("absolute whitespace-nowrap", i > 0 && "-translate-x-1/2")}
                style={i > 0 ? { left: `${((i + 0.5) / days.length) * 100}%` } : { left: 0 }}
              >
                {dayMonth(days[i]!.day)}
              </span>
            ))}
            <span className="absolute right-0 whitespace-nowrap">hoje</span>
          </div>
        </div>
      </div>
      <p className={cn("mt-3 flex items-center gap-2 text-sm", muted)}>
        <svg aria-hidden width="24" height="4" className="stroke-emerald-700 dark:stroke-emerald-300">
          <line x1="0" x2="24" y1="2" y2="2" strokeWidth="2" strokeDasharray="6 4" />
        </svg>
        Meta diária: {plural(goal, "ponto", "pontos")}
      </p>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-medium text-indigo-700 dark:text-indigo-300">Ver os pontos em tabela</summary>
        <table className="mt-2 w-full text-sm">
          <caption className="sr-only">Pontos por dia nas últimas 4 semanas</caption>
          <thead>
            <tr className={cn("text-left", muted)}>
              <th scope="col" className="py-1 font-medium">
                Dia
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Pontos
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((d, i) => (
              <tr key={d.day} className="border-t border-slate-200 dark:border-night-700">
                <th scope="row" className="py-1 text-left font-normal">
                  {i === days.length - 1 ? `hoje (${longDay(d)})` : longDay(d)}
                </th>
                <td className="py-1 text-right tabular-nums">{number(d.points)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

const stateOf = (d: ProgressDay) => (d.activities > 0 ? "active" : d.frozen ? "frozen" : "none");

const STATE_TEXT = { active: "com atividade", frozen: "protegido (proteção usada)", none: "sem atividade" } as const;
const STATE_CLASS = {
  active: "bg-indigo-600 text-white dark:bg-indigo-400 dark:text-night-950",
  frozen: "bg-sky-100 text-sky-900 ring-1 ring-sky-600 dark:bg-sky-400/20 dark:text-sky-100 dark:ring-sky-300",
  none: "text-slate-600 dark:text-slate-300",
} as const;

function StreakCalendar({ days, calendar }: { days: ProgressDay[]; calendar: Progress["calendar"] }) {
  const today = days.length - 1;
  return (
    <section aria-labelledby="progress-calendar-title" className={card}>
      <h2 id="progress-calendar-title" className="text-lg font-semibold">
        Calendário da ofensiva
      </h2>
      <table className="mt-3 w-full max-w-md table-fixed text-center text-sm">
        <caption className="sr-only">Dias com atividade e dias protegidos nas últimas 4 semanas</caption>
        <thead>
          <tr className={muted}>
            {WEEKDAYS.map(([short, long]) => (
              <th key={short} scope="col" className="pb-1 text-xs font-medium">
                <span aria-hidden>{short}</span>
                <span className="sr-only">{long}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {calendar.map((week) => (
            <tr key={week.find((i) => i !== null)}>
              {week.map((index, column) => {
                if (index === null) return <td key={`blank-${column}`} />;
                const d = days[index]!;
                const state = stateOf(d);
                return (
                  <td key={d.day} className="p-0.5" data-day={d.day} data-state={state} aria-current={index === today ? "date" : undefined}>
                    <span
                      className={cn(
                        "mx-auto flex size-9 flex-col items-center justify-center rounded-full text-xs font-semibold tabular-nums",
                        STATE_CLASS[state],
                        index === today && "outline-2 outline-offset-2 outline-amber-600 dark:outline-amber-300",
                      )}
                    >
                      <span aria-hidden>{Number(d.day.slice(8, 10))}</span>
                      {state === "frozen" ? <SnowflakeIcon size={10} /> : null}
                      <span className="sr-only">
                        {index === today ? `hoje, ${dayMonth(d.day)}` : dayMonth(d.day)}: {STATE_TEXT[state]}
                      </span>
                    </span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <ul className={cn("mt-3 flex flex-wrap gap-x-4 gap-y-2 text-sm", muted)}>
        <li className="flex items-center gap-1.5">
          <span aria-hidden className={cn("flex size-4 items-center justify-center rounded-full", STATE_CLASS.active)}>
            <CheckIcon size={10} />
          </span>
          Com atividade
        </li>
        <li className="flex items-center gap-1.5">
          <span aria-hidden className={cn("flex size-4 items-center justify-center rounded-full", STATE_CLASS.frozen)}>
            <SnowflakeIcon size={10} />
          </span>
          Protegido: um protetor de ofensiva cobriu o dia
        </li>
        <li className="flex items-center gap-1.5">
          <span aria-hidden className="size-4 rounded-full outline-2 outline-amber-600 dark:outline-amber-300" />
          Hoje
        </li>
      </ul>
    </section>
  );
}

function Totals({ totals }: { totals: Progress["totals"] }) {
  const points = totals.reduce((sum, t) => sum + t.points, 0);
  return (
    <section aria-labelledby="progress-totals-title" className={card}>
      <h2 id="progress-totals-title" className="text-lg font-semibold">
        Desde o início
      </h2>
      <p className={cn("mt-1 text-sm", muted)}>{plural(points, "ponto", "pontos")} no total.</p>
      <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {totals.map((t) => (
          <div key={t.kind} className="rounded-xl border border-slate-200 p-3 dark:border-night-700">
            <dt className={cn("text-sm", muted)}>{KIND_LABELS[t.kind]}</dt>
            <dd className="mt-1 text-xl font-bold tabular-nums">{number(t.count)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
