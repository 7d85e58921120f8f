// The daily habit's rules, with the clock moved by hand: São Paulo days, points once per action, the streak growing,
// frozen over a missed day, broken past the freezes, freezes earned every 7 days (at most 2), every change a row.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, recordActivity, saoPauloDay, streakToday } from "~/server/activity.server";
import type { Database } from "~/server/db.server";
import { streakEvents, users } from "~/server/schema";
import { createTestDb } from "./harness";

let db: Database;
beforeAll(async () => {
  ({ db } = await createTestDb());
});

let n = 0;
async function newLearner() {
  const [user] = await db
    .insert(users)
    .values({ name: "Hábito", email: `habit${++n}@example.com` })
    .returning();
  return user!.id;
}
/** Noon in São Paulo (15:00 UTC) of `day`. */
const noon = (day: string) => new Date(`${day}T15:00:00Z`);
const stateOf = async (userId: string) => (await db.select().from(users).where(eq(users.id, userId)))[0]!;
const eventsOf = async (userId: string) =>
  (await db.select().from(streakEvents).where(eq(streakEvents.userId, userId)).orderBy(streakEvents.day, streakEvents.id)).map(
    (e) => `${e.day} ${e.kind} ${e.streakAfter}/${e.freezesAfter}`,
  );
let refs = 0;
const lessonOn = (userId: string, day: string) =>
  recordActivity(db, { userId, kind: "lesson_completed", ref: `lesson-${++refs}`, at: noon(day) });

describe("São Paulo days", () => {
  it("puts 23:59:59 and 00:00:00 in São Paulo on different days (UTC−3, no daylight saving)", () => {
    expect(saoPauloDay(new Date("2026-03-10T02:59:59Z"))).toBe("2026-03-09");
    expect(saoPauloDay(new Date("2026-03-10T03:00:00Z"))).toBe("2026-03-10");
    // November, when Brazil used to move its clocks: still UTC−3.
    expect(saoPauloDay(new Date("2026-11-08T02:59:59Z"))).toBe("2026-11-07");
    expect(saoPauloDay(new Date("2026-11-08T03:00:00Z"))).toBe("2026-11-08");
  });

  it("records the activity on its São Paulo day: a streak of 2 across that midnight", async () => {
    const userId = await newLearner();
    const late = await recordActivity(db, { userId, kind: "flashcard_game", ref: "g1", at: new Date("2026-03-10T02:59:59Z") });
    const early = await recordActivity(db, { userId, kind: "flashcard_game", ref: "g2", at: new Date("2026-03-10T03:00:00Z") });
    expect(late).toMatchObject({ recorded: true, day: "2026-03-09", points: 5, streak: { outcome: "extended", streak: 1 } });
    expect(early).toMatchObject({ recorded: true, day: "2026-03-10", streak: { outcome: "extended", streak: 2 } });
  });
});

describe("points", () => {
  it("counts the same action once, whatever repeats it; a second action of the day adds points, not streak", async () => {
    const userId = await newLearner();
    const at = noon("2026-04-01");
    expect(await recordActivity(db, { userId, kind: "pronunciation_attempt", ref: "a1", points: 5, at })).toMatchObject({
      recorded: true,
      points: 5,
      streak: { streak: 1 },
    });
    expect(await recordActivity(db, { userId, kind: "pronunciation_attempt", ref: "a1", points: 5, at })).toEqual({ recorded: false });
    expect(await recordActivity(db, { userId, kind: "chat_exchange", ref: "m1", at })).toMatchObject({
      recorded: true,
      points: 1,
      streak: null,
    });
    const [{ total }] = (await db.execute(sql`select sum(points)::int as total from activities where user_id = ${userId}`)).rows as {
      total: number;
    }[];
    expect(total).toBe(6);
  });

  it("two completions of one action at once are one activity; two first activities at once move the streak once", async () => {
    const userId = await newLearner();
    const at = noon("2026-04-02");
    const same = await Promise.all([1, 2, 3].map(() => recordActivity(db, { userId, kind: "lesson_completed", ref: "L1", at })));
    expect(same.filter((r) => r.recorded)).toHaveLength(1);
    const other = await newLearner();
    await Promise.all(["x", "y", "z"].map((ref) => recordActivity(db, { userId: other, kind: "review_game", ref, at })));
    expect((await stateOf(other)).currentStreak).toBe(1);
    expect(await eventsOf(other)).toEqual(["2026-04-02 extended 1/0"]);
  });
});

describe("the streak", () => {
  it("grows a day at a time, earns a freeze at 7 and 14 days, holds at most 2", async () => {
    const userId = await newLearner();
    for (let d = 0; d < 21; d++) await lessonOn(userId, addDays("2026-05-01", d));
    const state = await stateOf(userId);
    expect([state.currentStreak, state.longestStreak, state.streakFreezes]).toEqual([21, 21, 2]);
    const earned = (await eventsOf(userId)).filter((e) => e.includes("freeze_earned"));
    expect(earned).toEqual(["2026-05-07 freeze_earned 7/1", "2026-05-14 freeze_earned 14/2"]); // not at 21: 2 held
  });

  it("spends a freeze on a missed day (the streak goes on), only for that day and never twice", async () => {
    const userId = await newLearner();
    for (let d = 0; d < 7; d++) await lessonOn(userId, addDays("2026-06-01", d)); // 7 days: 1 freeze
    await lessonOn(userId, "2026-06-09"); // 06-08 missed
    let state = await stateOf(userId);
    expect([state.currentStreak, state.streakFreezes]).toEqual([8, 0]);
    await lessonOn(userId, "2026-06-09"); // the same day again: nothing more
    state = await stateOf(userId);
    expect([state.currentStreak, state.streakFreezes]).toEqual([8, 0]);
    expect((await eventsOf(userId)).slice(-3)).toEqual(["2026-06-07 freeze_earned 7/1", "2026-06-08 frozen 7/0", "2026-06-09 extended 8/0"]);
  });

  it("breaks when the missed days outnumber the freezes: honest 0 before, a new streak of 1 after, the longest kept", async () => {
    const userId = await newLearner();
    for (let d = 0; d < 7; d++) await lessonOn(userId, addDays("2026-07-01", d)); // 1 freeze
    const state = await stateOf(userId);
    // Two days missed (07-08, 07-09): today, 07-10, before any activity
    expect(streakToday(state, "2026-07-10")).toMatchObject({ current: 0, longest: 7, broken: true });
    // One missed day is covered by the freeze the learner holds:
    expect(streakToday(state, "2026-07-09")).toMatchObject({ current: 7, freezes: 0, freezesPending: 1, broken: false });
    await lessonOn(userId, "2026-07-10");
    const after = await stateOf(userId);
    expect([after.currentStreak, after.longestStreak, after.streakFreezes]).toEqual([1, 7, 1]);
    expect((await eventsOf(userId)).slice(-2)).toEqual(["2026-07-10 broken 0/1", "2026-07-10 extended 1/1"]);
  });

  it("can be recomputed from its events", async () => {
    const userId = await newLearner();
    const days = ["2026-08-01", "2026-08-02", "2026-08-04", "2026-08-05", "2026-08-06", "2026-08-07", "2026-08-08", "2026-08-09"];
    for (const day of days) await lessonOn(userId, day);
    const events = await eventsOf(userId);
    const last = events.filter((e) => / (extended|broken|frozen) /.test(e)).at(-1)!;
    const state = await stateOf(userId);
    expect(last).toBe(`2026-08-09 extended ${state.currentStreak}/${state.streakFreezes}`);
    expect(events).toContain("2026-08-04 broken 0/0"); // 08-03 missed with no freeze yet
  });
});
