// The daily habit's figures in the admin analytics: weekly sign-up cohorts' retention at D1, D7 and D30 and the
// distribution of current streaks, as server-rendered tables (definitions in habit.server.ts).
import type { HabitAnalytics, Retention } from "../habit.server";

const number = (n: number) => n.toLocaleString("pt-BR");
/** "27/11" from YYYY-MM-DD */
const dayMonth = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
const sunday = (monday: string) => {
  const date = new Date(`${monday}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 6);
  return date.toISOString().slice(0, 10);
};

const th = "py-1 font-medium";
const muted = "text-slate-600 dark:text-slate-400";

function RetentionCell({ value }: { value: Retention }) {
  if (value.eligible === 0)
    return (
      <td className="py-1 text-right">
        <span aria-hidden>—</span>
        <span className="sr-only">ainda sem dados</span>
      </td>
    );
  return (
    <td className="py-1 text-right tabular-nums">
      {Math.round((value.retained / value.eligible) * 100)}%{" "}
      <span className={`block text-xs ${muted}`}>
        ({number(value.retained)} de {number(value.eligible)})
      </span>
    </td>
  );
}

export function HabitPanel({ habit }: { habit: HabitAnalytics }) {
  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-[2fr_1fr]">
      <div>
        <h3 className="font-semibold">Retenção por semana de cadastro</h3>
        <table className="mt-2 w-full text-sm" data-testid="cohort-retention">
          <thead>
            <tr className={`text-left ${muted}`}>
              <th scope="col" className={th}>
                Semana
              </th>
              <th scope="col" className={`${th} text-right`}>
                Cadastros
              </th>
              <th scope="col" className={`${th} text-right`}>
                D1
              </th>
              <th scope="col" className={`${th} text-right`}>
                D7
              </th>
              <th scope="col" className={`${th} text-right`}>
                D30
              </th>
            </tr>
          </thead>
          <tbody>
            {habit.cohorts.map((c) => (
              <tr key={c.week} className="border-t border-slate-200 dark:border-night-700">
                <th scope="row" className="py-1 text-left font-normal whitespace-nowrap">
                  {dayMonth(c.week)}–{dayMonth(sunday(c.week))}
                </th>
                <td className="py-1 text-right tabular-nums">{number(c.size)}</td>
                <RetentionCell value={c.d1} />
                <RetentionCell value={c.d7} />
                <RetentionCell value={c.d30} />
              </tr>
            ))}
          </tbody>
        </table>
        <p className={`mt-2 text-sm ${muted}`}>
          Dn: parte de quem se cadastrou na semana que teve alguma atividade no n-ésimo dia após o cadastro (horário de São Paulo), contando só
          quem já passou desse dia.
        </p>
      </div>
      <div>
        <h3 className="font-semibold">Ofensivas atuais</h3>
        <table className="mt-2 w-full text-sm" data-testid="streak-buckets">
          <thead>
            <tr className={`text-left ${muted}`}>
              <th scope="col" className={th}>
                Dias seguidos
              </th>
              <th scope="col" className={`${th} text-right`}>
                Usuários
              </th>
            </tr>
          </thead>
          <tbody>
            {habit.streakBuckets.map((b) => (
              <tr key={b.label} className="border-t border-slate-200 dark:border-night-700">
                <th scope="row" className="py-1 text-left font-normal">
                  {b.label}
                </th>
                <td className="py-1 text-right tabular-nums">{number(b.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className={`mt-2 text-sm ${muted}`}>Uma ofensiva que as proteções não cobrem mais conta como 0.</p>
      </div>
    </div>
  );
}
