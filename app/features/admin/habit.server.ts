// The daily habit's admin figures, two columns of loadAnalytics' one statement:
//
// - Retention of weekly sign-up cohorts. A cohort is the users whose sign-up (users.created_at) falls in one
//   Monday-to-Sunday São Paulo week; the last 8 weeks, this one included. "Retained at DN" = the user has at least
//   one activity (a row of `activities`) on the São Paulo day exactly N days after their sign-up day (sign-up day =
//   day 0). The share is retained / eligible, where eligible = the cohort's users whose day N has ended (sign-up day
//   + N before today), so a figure never moves while its day is still running; no eligible user → no figure.
// - The distribution of current streaks over all users, by streakToday's rule (a streak whose missed days the
//   held freezes cannot cover counts as 0), in the buckets of STREAK_BUCKETS.
import { sql } from "drizzle-orm";
import { addDays, saoPauloDay } from "~/server/activity.server";
import { jsonValue } from "~/server/db.server";

export const COHORT_WEEKS = 8;
export const RETENTION_DAYS = [1, 7, 30] as const;

export const STREAK_BUCKETS = [
  { label: "0", min: 0, max: 0 },
  { label: "1–2", min: 1, max: 2 },
  { label: "3–6", min: 3, max: 6 },
  { label: "7–13", min: 7, max: 13 },
  { label: "14–29", min: 14, max: 29 },
  { label: "30+", min: 30, max: null },
] as const;

export type Retention = { eligible: number; retained: number };
export type Cohort = { week: string; size: number; d1: Retention; d7: Retention; d30: Retention };
export type HabitAnalytics = { cohorts: Cohort[]; streakBuckets: { label: string; count: number }[] };

/** The Monday (YYYY-MM-DD) of the São Paulo week of `day`. */
const mondayOf = (day: string) => addDays(day, -((new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7));

/** The first Monday of the cohorts' weeks (the last COHORT_WEEKS, this one included). */
const firstWeekOf = (now: Date) => addDays(mondayOf(saoPauloDay(now)), -7 * (COHORT_WEEKS - 1));

/** The two columns, `cohorts` (weeks with sign-ups) and `streak_buckets`, for a select over no table. */
export function habitColumns(now: Date) {
  const today = saoPauloDay(now);
  const retention = RETENTION_DAYS.map(
    (n) => sql`json_build_array(
        count(*) filter (where s.day + ${n}::int < ${today}::date)::int,
        count(*) filter (where s.day + ${n}::int < ${today}::date
          and exists (select 1 from activities a where a.user_id = s.id and a.day = s.day + ${n}::int))::int) as d${sql.raw(String(n))}`,
  );
  const buckets = STREAK_BUCKETS.map(
    (b) => sql`count(*) filter (where st.streak >= ${b.min}::int${b.max === null ? sql`` : sql` and st.streak <= ${b.max}::int`})::int`,
  );
  return sql`
      (select coalesce(json_agg(c order by c.week), '[]'::json) from (
        select to_char(s.week, 'YYYY-MM-DD') as week, count(*)::int as size, ${sql.join(retention, sql`, `)}
        from (select u.id, d.day, d.day - (extract(isodow from d.day)::int - 1) as week
              from users u cross join lateral (select (u.created_at at time zone 'America/Sao_Paulo')::date as day) d
              where u.created_at >= (${firstWeekOf(now)}::date::timestamp at time zone 'America/Sao_Paulo')
                and u.created_at <= ${now}::timestamptz) s
        group by s.week) c) as cohorts,
      (select json_build_array(${sql.join(buckets, sql`, `)})
        from (select case -- streakToday: kept while the held freezes cover the missed days, else 0
                when u.last_active_day is null then 0
                when u.last_active_day >= ${today}::date then u.current_streak
                when ${today}::date - u.last_active_day - 1 <= u.streak_freezes then u.current_streak
                else 0 end as streak
              from users u) st) as streak_buckets`;
}

type CohortRow = { week: string; size: number; d1: [number, number]; d7: [number, number]; d30: [number, number] };

/** The columns of habitColumns(now), read: every one of the 8 weeks (empty ones as 0) and every bucket. */
export function readHabit(row: Record<string, unknown>, now: Date): HabitAnalytics {
  const found = new Map(jsonValue<CohortRow[]>(row.cohorts).map((c) => [c.week, c]));
  const counts = jsonValue<number[]>(row.streak_buckets);
  const retention = ([eligible, retained]: [number, number] = [0, 0]): Retention => ({ eligible, retained });
  const firstWeek = firstWeekOf(now);
  return {
    cohorts: Array.from({ length: COHORT_WEEKS }, (_, i) => {
      const week = addDays(firstWeek, 7 * i);
      const c = found.get(week);
      return { week, size: c?.size ?? 0, d1: retention(c?.d1), d7: retention(c?.d7), d30: retention(c?.d30) };
    }),
    streakBuckets: STREAK_BUCKETS.map((b, i) => ({ label: b.label, count: counts[i] ?? 0 })),
  };
}
