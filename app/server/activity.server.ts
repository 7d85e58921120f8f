// The daily habit's one module: every finished learning action is recorded here, on the server, with
// its points and its São Paulo day — never posted by the browser — and the streak ("ofensiva") moves with the
// first activity of each day. Both happen in ONE statement: the same action recorded twice (two tabs, a retried
// request) is one row (unique learner + kind + ref), and of two first-activities at once only one moves the streak
// (the UPDATE re-checks `last_active_day` under the row lock).
//
// Streak rules (decision 0022): a day counts when it has at least one finished activity. Coming back the day after
// extends the streak; after missed days, a freeze is spent on each missed day if the learner holds enough (the
// streak goes on), otherwise the streak breaks (freezes are kept) and today starts a new one. A freeze is earned at
// each 7-day milestone, at most 2 held. Every change is a streak_events row.
import { sql } from "drizzle-orm";
import { saoPauloParts } from "~/lib/dates";
import { rowsOf, type DbOrTx } from "./db.server";
import type { ActivityKind } from "./schema";

/** Points per finished action (a pronunciation attempt that beats the learner's best earns the bonus on top). */
export const ACTIVITY_POINTS: Record<ActivityKind, number> = {
  lesson_completed: 10,
  flashcard_game: 5,
  review_game: 5,
  pronunciation_attempt: 2,
  chat_exchange: 1,
  level_test: 10,
  live_minute: 2,
};
export const NEW_BEST_BONUS = 3;

export const DAILY_GOALS = [
  { points: 10, label: "Leve" },
  { points: 20, label: "Regular" },
  { points: 30, label: "Sério" },
  { points: 50, label: "Intenso" },
] as const;
export const DEFAULT_DAILY_GOAL = 20;
export const FREEZE_EVERY_DAYS = 7;
export const MAX_FREEZES = 2;

/** The São Paulo calendar day of `at`, as YYYY-MM-DD (UTC−3 all year: Brazil has had no daylight saving since 2019). */
export function saoPauloDay(at: Date): string {
  const { year, month, day } = saoPauloParts(at);
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * The first instant an action reported late (an offline game's claimed time) may still be credited to: the start of
 * the São Paulo day before `now`'s. São Paulo has kept UTC−3 all year since 2019.
 */
export function earliestCreditableAt(now: Date): Date {
  return new Date(`${addDays(saoPauloDay(now), -1)}T00:00:00-03:00`);
}

/** `day` (YYYY-MM-DD) moved by `days`. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export type StreakChange = { outcome: "extended" | "frozen" | "broken"; streak: number; freezes: number; freezeEarned: boolean };
export type RecordedActivity = { recorded: false } | { recorded: true; day: string; points: number; streak: StreakChange | null };

/**
 * Records a finished action. Returns whether it was new (false: this action was already counted) and, on the day's
 * first activity, how the streak moved. `at` is when it finished (tests move the clock with it).
 */
export async function recordActivity(
  db: DbOrTx,
  input: { userId: string; kind: ActivityKind; ref: string; points?: number; at?: Date },
): Promise<RecordedActivity> {
  const at = input.at ?? new Date();
  const day = saoPauloDay(at);
  const points = input.points ?? ACTIVITY_POINTS[input.kind];
  // `before` is the learner as this statement's snapshot saw them; the UPDATE reads the row again under its lock, so
  // of two first-activities at once the second finds `last_active_day` = today and changes nothing (and writes no
  // events, which are inserted only for the row the UPDATE returned).
  const result = await db.execute(sql`
    with inserted as (
      insert into activities (user_id, kind, ref, day, points, created_at)
      values (${input.userId}, ${input.kind}, ${input.ref}, ${day}::date, ${points}, ${at})
      on conflict (user_id, kind, ref) do nothing
      returning user_id, day, points
    ), before as (
      select u.id, u.last_active_day, u.current_streak, u.streak_freezes,
        (i.day - u.last_active_day - 1) as missed
      from users u join inserted i on i.user_id = u.id
    ), moved as (
      update users u set
        current_streak = case
          when u.last_active_day is not null and i.day - u.last_active_day - 1 <= u.streak_freezes then u.current_streak + 1
          else 1 end,
        streak_freezes = case
          when u.last_active_day is not null and i.day - u.last_active_day - 1 <= u.streak_freezes then
            least(${MAX_FREEZES}, u.streak_freezes - (i.day - u.last_active_day - 1)
              + case when (u.current_streak + 1) % ${FREEZE_EVERY_DAYS} = 0 then 1 else 0 end)
          else u.streak_freezes end,
        longest_streak = greatest(u.longest_streak, case
          when u.last_active_day is not null and i.day - u.last_active_day - 1 <= u.streak_freezes then u.current_streak + 1
          else 1 end),
        last_active_day = i.day,
        updated_at = now()
      from inserted i
      where u.id = i.user_id and (u.last_active_day is null or u.last_active_day < i.day)
      returning u.id, u.current_streak, u.streak_freezes, i.day
    ), outcome as (
      select m.id, m.day, m.current_streak, m.streak_freezes, b.missed, b.streak_freezes as freezes_before, c.outcome,
        (m.current_streak % ${FREEZE_EVERY_DAYS} = 0 and b.streak_freezes - c.spent < ${MAX_FREEZES}) as freeze_earned
      from moved m join before b on b.id = m.id
      cross join lateral (
        select case when b.last_active_day is null or b.missed = 0 then 'extended'
                    when b.missed <= b.streak_freezes then 'frozen'
                    else 'broken' end as outcome,
               case when b.missed between 1 and b.streak_freezes then b.missed else 0 end as spent
      ) c
    ), events as (
      insert into streak_events (user_id, day, kind, streak_after, freezes_after)
      -- one "frozen" per missed day, each spending one freeze; then today: broken (a new streak starts) or extended
      select o.id, o.day - (o.missed - g.n + 1)::int, 'frozen', o.current_streak - 1, o.freezes_before - g.n
      from outcome o cross join lateral generate_series(1, o.missed) as g(n) where o.outcome = 'frozen'
      union all
      select o.id, o.day, 'broken', 0, o.streak_freezes from outcome o where o.outcome = 'broken'
      union all
      select o.id, o.day, 'extended', o.current_streak, o.streak_freezes - o.freeze_earned::int from outcome o
      union all
      select o.id, o.day, 'freeze_earned', o.current_streak, o.streak_freezes from outcome o where o.freeze_earned
      on conflict (user_id, day, kind) do nothing
    )
    select i.day::text as day, i.points, o.outcome, o.current_streak, o.streak_freezes, o.freeze_earned
    from inserted i left join outcome o on true`);
  const [row] = rowsOf<{
    day: string;
    points: number;
    outcome: StreakChange["outcome"] | null;
    current_streak: number | null;
    streak_freezes: number | null;
    freeze_earned: boolean | null;
  }>(result);
  if (!row) return { recorded: false };
  const streak: StreakChange | null = row.outcome
    ? { outcome: row.outcome, streak: Number(row.current_streak), freezes: Number(row.streak_freezes), freezeEarned: Boolean(row.freeze_earned) }
    : null;
  return { recorded: true, day: row.day, points: Number(row.points), streak };
}

/**
 * recordActivity for an action that has already succeeded: a failure here is logged and never fails the learner's
 * request (the action is done; its point is what is lost).
 */
export async function recordActivitySafely(db: DbOrTx, input: Parameters<typeof recordActivity>[1]): Promise<RecordedActivity> {
  try {
    return await recordActivity(db, input);
  } catch (error) {
    console.error("[activity] could not record", input.kind, input.ref, error);
    return { recorded: false };
  }
}

export type StreakView = {
  /** The streak as it stands today: kept by freezes over missed days, 0 once it cannot be bridged. */
  current: number;
  longest: number;
  /** Freezes left after those today's streak needs for days already missed. */
  freezes: number;
  /** Missed days that freezes will cover (spent when the learner comes back). */
  freezesPending: number;
  activeToday: boolean;
  /** The streak broke (honestly shown: current 0, the longest kept). */
  broken: boolean;
};

/** What the learner's streak is today, from the stored state (events are written when the learner comes back). */
export function streakToday(
  state: { currentStreak: number; longestStreak: number; streakFreezes: number; lastActiveDay: string | null },
  today: string,
): StreakView {
  const { currentStreak, longestStreak, streakFreezes, lastActiveDay } = state;
  if (!lastActiveDay)
    return { current: 0, longest: longestStreak, freezes: streakFreezes, freezesPending: 0, activeToday: false, broken: false };
  if (lastActiveDay >= today) {
    return { current: currentStreak, longest: longestStreak, freezes: streakFreezes, freezesPending: 0, activeToday: true, broken: false };
  }
  const missed = daysBetween(lastActiveDay, today) - 1;
  if (missed <= streakFreezes) {
    return {
      current: currentStreak,
      longest: longestStreak,
      freezes: streakFreezes - missed,
      freezesPending: missed,
      activeToday: false,
      broken: false,
    };
  }
  return { current: 0, longest: longestStreak, freezes: streakFreezes, freezesPending: 0, activeToday: false, broken: currentStreak > 0 };
}

/** Whole days from `from` to `to` (YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);
}
