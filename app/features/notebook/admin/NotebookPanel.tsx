// "Meu caderno" in the admin analytics: new entries per learner this week, the share dismissed as wrong per kind
// and the share mastered within 30 days (definitions in analytics.server.ts). The admin console's routes pass it in.
import { KIND_LABELS } from "../texts";
import type { NotebookAnalytics } from "./analytics.server";

const number = (n: number, digits = 0) => n.toLocaleString("pt-BR", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const share = (part: number, whole: number) => (whole === 0 ? "—" : `${Math.round((part / whole) * 100)}%`);
const muted = "text-slate-600 dark:text-slate-400";

export function NotebookPanel({ data }: { data: NotebookAnalytics }) {
  const perLearner = data.learners7Days === 0 ? 0 : data.entries7Days / data.learners7Days;
  return (
    <section aria-labelledby="admin-notebook-title" className="mt-8">
      <h3 id="admin-notebook-title" className="font-semibold">
        Meu caderno
      </h3>
      <dl className="mt-2 grid gap-3 sm:grid-cols-2">
        <div className="rounded-xl border border-slate-200 p-3 dark:border-night-700">
          <dt className={`text-sm ${muted}`}>Correções por aluno (7 dias)</dt>
          <dd className="mt-1 text-2xl font-bold tabular-nums">{number(perLearner, 1)}</dd>
          <dd className={`text-xs ${muted}`}>
            {number(data.entries7Days)} correções, {number(data.learners7Days)} alunos
          </dd>
        </div>
        <div className="rounded-xl border border-slate-200 p-3 dark:border-night-700">
          <dt className={`text-sm ${muted}`}>Dominadas em até 30 dias</dt>
          <dd className="mt-1 text-2xl font-bold tabular-nums">{share(data.mastered30.mastered, data.mastered30.eligible)}</dd>
          <dd className={`text-xs ${muted}`}>
            {number(data.mastered30.mastered)} de {number(data.mastered30.eligible)} anotadas há 30 dias ou mais
          </dd>
        </div>
      </dl>
      <table className="mt-3 w-full text-sm">
        <caption className={`text-left ${muted}`}>Marcadas como “Essa correção está errada” (30 dias)</caption>
        <thead>
          <tr className="text-left">
            <th className="py-1 font-medium">Tipo</th>
            <th className="py-1 text-right font-medium">Anotadas</th>
            <th className="py-1 text-right font-medium">Erradas</th>
          </tr>
        </thead>
        <tbody>
          {data.dismissedByKind.map((row) => (
            <tr key={row.kind} className="border-t border-slate-200 dark:border-night-700">
              <td className="py-1">{KIND_LABELS[row.kind]}</td>
              <td className="py-1 text-right tabular-nums">{number(row.total)}</td>
              <td className="py-1 text-right tabular-nums">{share(row.dismissed, row.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
