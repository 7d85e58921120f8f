// "Meu caderno"'s admin figures, columns of the admin console's one analytics statement (as the habit's):
// - new entries per learner over the last 7 days: entries created / learners who got at least one;
// - the share dismissed as a wrong correction, per kind, of the entries created in the last 30 days (false positives
//   are this feature's risk);
// - the share mastered within 30 days of being noted, of the entries noted at least 30 days ago.
import { sql } from "drizzle-orm";
import { jsonValue } from "~/server/db.server";
import { NOTEBOOK_KINDS, type NotebookKind } from "../tables";

const DAY_MS = 24 * 60 * 60_000;

export type NotebookAnalytics = {
  entries7Days: number;
  learners7Days: number;
  dismissedByKind: { kind: NotebookKind; total: number; dismissed: number }[];
  mastered30: { eligible: number; mastered: number };
};

/** The columns `notebook_week`, `notebook_dismissed` and `notebook_mastered`, for a select over no table. */
export function notebookColumns(now: Date) {
  const d7 = new Date(now.getTime() - 7 * DAY_MS);
  const d30 = new Date(now.getTime() - 30 * DAY_MS);
  return sql`
      (select json_build_array(count(*)::int, count(distinct user_id)::int)
        from notebook_entries where created_at >= ${d7}) as notebook_week,
      (select coalesce(json_agg(json_build_array(kind, total, dismissed)), '[]'::json)
        from (select kind, count(*)::int as total, count(*) filter (where dismissed_at is not null)::int as dismissed
              from notebook_entries where created_at >= ${d30} group by kind) k) as notebook_dismissed,
      (select json_build_array(count(*)::int,
                count(*) filter (where mastered_at is not null and mastered_at <= created_at + interval '30 days')::int)
        from notebook_entries where created_at <= ${d30} and dismissed_at is null) as notebook_mastered`;
}

/** The columns of notebookColumns, read: every kind (none noted as 0). */
export function readNotebookAnalytics(row: Record<string, unknown>): NotebookAnalytics {
  const [entries7Days = 0, learners7Days = 0] = jsonValue<number[]>(row.notebook_week);
  const byKind = new Map(
    jsonValue<[NotebookKind, number, number][]>(row.notebook_dismissed).map(([kind, total, dismissed]) => [kind, { total, dismissed }]),
  );
  const [eligible = 0, mastered = 0] = jsonValue<number[]>(row.notebook_mastered);
  return {
    entries7Days,
    learners7Days,
    dismissedByKind: NOTEBOOK_KINDS.map((kind) => ({ kind, total: byKind.get(kind)?.total ?? 0, dismissed: byKind.get(kind)?.dismissed ?? 0 })),
    mastered30: { eligible, mastered },
  };
}
