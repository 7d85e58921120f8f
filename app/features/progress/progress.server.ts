// /progresso's data: the learner's last 4 weeks (28 São Paulo days ending today) and their totals, in one statement
// over activities and streak_events — the streak shown is streakToday's, the same rule as the home page.
import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { addDays, MAX_FREEZES, saoPauloDay, streakToday, type StreakView } from "~/server/activity.server";
import { requireUser } from "~/server/auth.server";
import { jsonValue, rowsOf, type DbOrTx } from "~/server/db.server";
import { ACTIVITY_KINDS, type ActivityKind } from "~/server/schema";

export const PROGRESS_DAYS = 28;

export type ProgressDay = {
  /** YYYY-MM-DD, São Paulo. */
  day: string;
  points: number;
  /** Finished activities that day (a day counts for the streak with at least one). */
  activities: number;
  /** A freeze was spent on this missed day (a streak_events row). */
  frozen: boolean;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
};

export type Progress = {
  today: string;
  dailyGoal: number;
  /** The last 28 days, oldest first, today last; days without activity included (0 points). */
  days: ProgressDay[];
  /** The same days in Monday-first weeks, as indexes into `days` (null: before the first day or after today). */
  calendar: (number | null)[][];
  /** Every activity kind, in ACTIVITY_KINDS order, since the learner began. */
  totals: { kind: ActivityKind; count: number; points: number }[];
  streak: StreakView;
  maxFreezes: number;
};

type Row = {
  current_streak: number;
  longest_streak: number;
  streak_freezes: number;
  last_active_day: string | null;
  daily_goal: number;
  per_day: unknown;
  frozen: unknown;
  per_kind: unknown;
};

export async function loadProgress(db: DbOrTx, userId: string, now = new Date()): Promise<Progress> {
  const today = saoPauloDay(now);
  const from = addDays(today, -(PROGRESS_DAYS - 1));
  const result = await db.execute(sql`
    select u.current_streak, u.longest_streak, u.streak_freezes, u.last_active_day::text as last_active_day, u.daily_goal,
      (select coalesce(json_object_agg(d.day, json_build_array(d.points, d.n)), '{}'::json)
         from (select day::text as day, sum(points)::int as points, count(*)::int as n from activities
               where user_id = u.id and day between ${from}::date and ${today}::date group by day) d) as per_day,
      (select coalesce(json_agg(e.day::text), '[]'::json) from streak_events e
         where e.user_id = u.id and e.kind = 'frozen' and e.day between ${from}::date and ${today}::date) as frozen,
      (select coalesce(json_object_agg(k.kind, json_build_array(k.n, k.points)), '{}'::json)
         from (select kind, count(*)::int as n, sum(points)::int as points from activities where user_id = u.id group by kind) k) as per_kind
    from users u where u.id = ${userId}`);
  const row = rowsOf<Row>(result)[0];
  if (!row) throw new Error(`[progress] no user ${userId}`);
  const perDay = jsonValue<Record<string, [number, number]>>(row.per_day);
  const frozen = new Set(jsonValue<string[]>(row.frozen));
  const perKind = jsonValue<Record<string, [number, number]>>(row.per_kind);
  const days = Array.from({ length: PROGRESS_DAYS }, (_, i) => {
    const day = addDays(from, i);
    const [points, activities] = perDay[day] ?? [0, 0];
    return { day, points, activities, frozen: frozen.has(day), weekday: (new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7 };
  });
  const calendar: (number | null)[][] = [];
  for (let i = -days[0]!.weekday; i < PROGRESS_DAYS; i += 7) {
    calendar.push(Array.from({ length: 7 }, (_, j) => (i + j >= 0 && i + j < PROGRESS_DAYS ? i + j : null)));
  }
  const totals = ACTIVITY_KINDS.map((kind) => {
    const [count, points] = perKind[kind] ?? [0, 0];
    return { kind, count, points };
  });
  const streak = streakToday(
    {
      currentStreak: Number(row.current_streak),
      longestStreak: Number(row.longest_streak),
      streakFreezes: Number(row.streak_freezes),
      lastActiveDay: row.last_active_day,
    },
    today,
  );
  return { today, dailyGoal: Number(row.daily_goal), days, calendar, totals, streak, maxFreezes: MAX_FREEZES };
}

/** The loader of /progresso: signed-in learners (anonymous → sign-in). */
export async function loadProgressPage({ request, context }: { request: Request; context: AppLoadContext }) {
  const user = await requireUser(request, context);
  return loadProgress(context.db, user.id);
}
