// /progresso and the habit's admin analytics, through their loaders with the clock fixed (Wednesday 18 March 2026,
// noon in São Paulo) and rows at chosen dates: the chart's 28 days and the totals, the calendar's frozen days, the
// sign-up cohorts' retention (a small example computed by hand), the current streaks' buckets, and who may see what.
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Progress } from "~/features/progress/progress.server";
import { ProgressPage } from "~/features/progress/ui/ProgressPage";
import * as root from "~/root";
import * as appLayout from "~/routes/_app+/_layout";
import * as adminIndex from "~/routes/_app+/admin._index";
import * as progresso from "~/routes/_app+/progresso";
import { addDays, recordActivity, streakToday } from "~/server/activity.server";
import { createSession, getSessionUser } from "~/server/auth.server";
import { creditPeriod } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { activities, userRoles, users, type ActivityKind } from "~/server/schema";
import { args, call, contextFor, CookieJar, createTestDb, request } from "./harness";

const NOW = new Date("2026-03-18T15:00:00Z"); // Wednesday, 12:00 in São Paulo
const TODAY = "2026-03-18";

beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: NOW });
});
afterAll(() => {
  vi.useRealTimers();
});

let n = 0;
/** A user signed up at `createdAt`, with a session: id and cookie jar. */
async function signUp(db: Database, createdAt: Date, options: { admin?: boolean } = {}) {
  const [user] = await db
    .insert(users)
    .values({
      name: `Pessoa ${++n}`,
      email: `progress-${n}@example.com`,
      createdAt,
      creditsPeriod: creditPeriod(NOW),
      emailConfirmedAt: createdAt,
    })
    .returning();
  if (options.admin) await db.insert(userRoles).values({ userId: user!.id, role: "admin" });
  const jar = new CookieJar();
  jar.absorb(new Headers({ "Set-Cookie": await createSession(contextFor(db), user!.id, request("/")) }));
  return { id: user!.id, jar };
}

/** Noon in São Paulo of `day`. */
const noon = (day: string) => new Date(`${day}T15:00:00Z`);

describe("/progresso", () => {
  let test: Awaited<ReturnType<typeof createTestDb>>;
  let learner: Awaited<ReturnType<typeof signUp>>;
  let refs = 0;
  const act = (kind: ActivityKind, day: string, points?: number) =>
    recordActivity(test.db, { userId: learner.id, kind, ref: `r${++refs}`, at: noon(day), points });
  const load = (jar: CookieJar, context = contextFor(test.db)) =>
    call<Progress>(() => progresso.loader(args(request("/progresso", { jar }), context)));

  beforeAll(async () => {
    test = await createTestDb();
    learner = await signUp(test.db, new Date("2026-01-05T12:00:00Z"));
    await act("lesson_completed", "2026-02-18"); // the day before the 28: in the totals only
    await act("flashcard_game", "2026-02-19"); // the first of the 28 days
    for (let d = 0; d < 7; d++) await act("lesson_completed", addDays("2026-03-01", d)); // 7 days: a freeze earned
    await act("review_game", "2026-03-09"); // 03-08 missed: the freeze covers it
    await act("pronunciation_attempt", "2026-03-10", 5); // a new best: 2 + 3
    for (let d = 0; d < 8; d++) await act("chat_exchange", addDays("2026-03-10", d)); // through 03-17
  });
  afterAll(async () => {
    await test.client.close();
  });

  it("shows the 28 São Paulo days ending today, zero days included, and the totals per kind since the start", async () => {
    const { status, data } = await load(learner.jar);
    expect(status).toBe(200);
    expect(data.today).toBe(TODAY);
    expect(data.days).toHaveLength(28);
    expect(data.days[0]).toMatchObject({ day: "2026-02-19", points: 5, activities: 1 });
    expect(data.days.at(-1)).toMatchObject({ day: TODAY, points: 0, activities: 0 });
    const points = Object.fromEntries(data.days.map((d) => [d.day, d.points]));
    expect(points["2026-02-20"]).toBe(0);
    expect(points["2026-03-01"]).toBe(10);
    expect(points["2026-03-08"]).toBe(0);
    expect(points["2026-03-10"]).toBe(6); // the attempt (5) and a chat exchange (1)
    expect(data.days.reduce((sum, d) => sum + d.points, 0)).toBe(5 + 70 + 5 + 5 + 8);
    expect(data.totals).toEqual([
      { kind: "lesson_completed", count: 8, points: 80 },
      { kind: "flashcard_game", count: 1, points: 5 },
      { kind: "review_game", count: 1, points: 5 },
      { kind: "pronunciation_attempt", count: 1, points: 5 },
      { kind: "chat_exchange", count: 8, points: 8 },
      { kind: "level_test", count: 0, points: 0 },
      { kind: "live_minute", count: 0, points: 0 },
    ]);
    expect(data.dailyGoal).toBe(20);
  });

  it("marks the frozen days of streak_events on the calendar, laid out in Monday-first weeks, and the streak of today", async () => {
    const { data } = await load(learner.jar);
    expect(data.days.filter((d) => d.frozen).map((d) => d.day)).toEqual(["2026-03-08"]);
    // 19 Feb 2026 is a Thursday: three blank cells, then the 28 days; today (a Wednesday) ends the last week early.
    expect(data.calendar).toHaveLength(5);
    expect(data.calendar[0]).toEqual([null, null, null, 0, 1, 2, 3]);
    expect(data.calendar[4]).toEqual([25, 26, 27, null, null, null, null]);
    expect(data.days[27]!.weekday).toBe(2);
    // 03-01 … 03-17 with 03-08 frozen (kept, not counted): 16 days; a second freeze earned at 14, one held.
    expect(data.streak).toMatchObject({ current: 16, longest: 16, freezes: 1, activeToday: false, broken: false });
  });

  it("renders an SVG with its title and description, and the same 28 days as a table", async () => {
    const { data } = await load(learner.jar);
    const html = renderToStaticMarkup(createElement(ProgressPage, { data }));
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-labelledby="progress-chart-svg-title progress-chart-svg-desc"/);
    expect(html).toContain('<title id="progress-chart-svg-title">Pontos por dia nas últimas 4 semanas</title>');
    expect(html).toMatch(/<desc id="progress-chart-svg-desc">93 pontos em 28 dias, 17 dias com atividade;/);
    const table = /<table[^>]*><caption class="sr-only">Pontos por dia[\s\S]*?<\/table>/.exec(html)![0];
    expect(table.match(/<tr class="border-t/g)).toHaveLength(28);
    expect(table).toContain("hoje (quarta-feira, 18/03)");
    expect(html).toMatch(/data-day="2026-03-08" data-state="frozen"/);
    expect(html).toMatch(/data-day="2026-03-18" data-state="none" aria-current="date"/);
    for (const label of [
      "Aulas concluídas",
      "Jogos de flashcards",
      "Revisões",
      "Tentativas de pronúncia",
      "Trocas no chat",
      "Testes de nível",
      "Minutos ao vivo",
    ])
      expect(html).toContain(label);
  });

  it("counts today's points once today's activity is recorded", async () => {
    await act("level_test", TODAY);
    const { data } = await load(learner.jar);
    expect(data.days.at(-1)).toMatchObject({ day: TODAY, points: 10, activities: 1 });
    expect(data.streak).toMatchObject({ current: 17, activeToday: true });
  });

  it("sends an anonymous visitor to sign in", async () => {
    const { status, location } = await load(new CookieJar());
    expect(status).toBe(302);
    expect(location).toBe("/signin?redirectTo=%2Fprogresso");
  });

  it("answers in 3 statements: the session, the flags (the shell) and the page's one", async () => {
    const context = contextFor(test.db);
    const jar = learner.jar;
    await getSessionUser(request("/progresso", { jar }), contextFor(test.db)); // the session's hourly touch is not per request
    const before = test.queryCount();
    await Promise.all([
      call(() => root.loader(args(request("/progresso", { jar }), context))),
      call(() => appLayout.loader(args(request("/progresso", { jar }), context))),
      call(() => progresso.loader(args(request("/progresso", { jar }), context))),
    ]);
    const statements = test.queryCount() - before;
    expect(statements).toBeLessThanOrEqual(3);
    console.info(`/progresso: ${statements} statements`);
  });
});

describe("admin analytics: cohorts and streaks", () => {
  let test: Awaited<ReturnType<typeof createTestDb>>;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let learner: Awaited<ReturnType<typeof signUp>>;
  const activity = (userId: string, day: string) =>
    test.db.insert(activities).values({ userId, kind: "chat_exchange", ref: `${userId}-${day}`, day, points: 1 });
  const streak = (userId: string, currentStreak: number, lastActiveDay: string, streakFreezes = 0) =>
    test.db.update(users).set({ currentStreak, longestStreak: currentStreak, lastActiveDay, streakFreezes }).where(eq(users.id, userId));
  const loadAdmin = (jar: CookieJar) =>
    call<Awaited<ReturnType<typeof adminIndex.loader>>>(() => adminIndex.loader(args(request("/admin", { jar }), contextFor(test.db))));

  beforeAll(async () => {
    test = await createTestDb();
    admin = await signUp(test.db, new Date("2025-12-01T12:00:00Z"), { admin: true }); // before the 8 weeks
    // The week of Monday 9 February:
    const a1 = await signUp(test.db, new Date("2026-02-09T13:00:00Z"));
    await activity(a1.id, "2026-02-10"); // D1
    await activity(a1.id, "2026-03-11"); // D30 (9 Feb + 30 days)
    const a2 = await signUp(test.db, new Date("2026-02-16T02:30:00Z")); // Sunday 15 Feb, 23:30 in São Paulo
    await activity(a2.id, "2026-02-16"); // D1
    await activity(a2.id, "2026-03-17"); // D30, and yesterday: its day has ended
    const a3 = await signUp(test.db, new Date("2026-02-11T15:00:00Z"));
    await activity(a3.id, "2026-02-11"); // the sign-up day itself: D0, not D1
    await activity(a3.id, "2026-02-18"); // D7
    await activity(a3.id, "2026-02-19"); // D8: counts for nothing
    // The week of Monday 9 March: Sunday 15 March, 23:59:59 in São Paulo.
    const b0 = await signUp(test.db, new Date("2026-03-16T02:59:59Z"));
    // This week (Monday 16 March):
    const b1 = await signUp(test.db, new Date("2026-03-16T12:00:00Z"));
    await activity(b1.id, "2026-03-17"); // D1
    learner = await signUp(test.db, new Date("2026-03-17T12:00:00Z"));
    await activity(learner.id, TODAY); // D1, but today has not ended: not yet counted

    // Current streaks, today 18 March:
    await streak(a1.id, 5, TODAY); // 3–6
    await streak(a2.id, 2, "2026-03-17"); // 1–2
    await streak(a3.id, 10, "2026-03-16", 1); // one missed day, one freeze: 10 → 7–13
    await streak(b0.id, 40, "2026-03-15", 1); // two missed days, one freeze: broken → 0
    await streak(b1.id, 14, "2026-03-17"); // 14–29
    await streak(learner.id, 30, TODAY); // 30+
  });
  afterAll(async () => {
    await test.client.close();
  });

  it("computes each weekly cohort's D1, D7 and D30 over the users whose day has ended", async () => {
    const { status, data } = await loadAdmin(admin.jar);
    expect(status).toBe(200);
    const cohorts = data.analytics!.habit.cohorts;
    expect(cohorts.map((c) => c.week)).toEqual([
      "2026-01-26",
      "2026-02-02",
      "2026-02-09",
      "2026-02-16",
      "2026-02-23",
      "2026-03-02",
      "2026-03-09",
      "2026-03-16",
    ]);
    const none = { eligible: 0, retained: 0 };
    expect(cohorts[0]).toEqual({ week: "2026-01-26", size: 0, d1: none, d7: none, d30: none });
    expect(cohorts[2]).toEqual({
      week: "2026-02-09",
      size: 3,
      d1: { eligible: 3, retained: 2 },
      d7: { eligible: 3, retained: 1 },
      d30: { eligible: 3, retained: 2 },
    });
    expect(cohorts[3]!.size).toBe(0); // a2 signed up on Monday 16 Feb in UTC, Sunday in São Paulo
    expect(cohorts[6]).toEqual({ week: "2026-03-09", size: 1, d1: { eligible: 1, retained: 0 }, d7: none, d30: none });
    expect(cohorts[7]).toEqual({ week: "2026-03-16", size: 2, d1: { eligible: 1, retained: 1 }, d7: none, d30: none });
  });

  it("buckets current streaks by streakToday's rule (one that freezes cannot bridge is 0)", async () => {
    const { data } = await loadAdmin(admin.jar);
    const buckets = data.analytics!.habit.streakBuckets;
    expect(buckets).toEqual([
      { label: "0", count: 2 }, // the admin (never active) and b0 (broken)
      { label: "1–2", count: 1 },
      { label: "3–6", count: 1 },
      { label: "7–13", count: 1 },
      { label: "14–29", count: 1 },
      { label: "30+", count: 1 },
    ]);
    // The same counts from streakToday itself, user by user.
    const all = await test.db.select().from(users);
    const current = all.map((u) => streakToday(u, TODAY).current);
    const bucketOf = (s: number) => (s === 0 ? 0 : s <= 2 ? 1 : s <= 6 ? 2 : s <= 13 ? 3 : s <= 29 ? 4 : 5);
    expect(buckets.map((_, i) => current.filter((s) => bucketOf(s) === i).length)).toEqual(buckets.map((b) => b.count));
  });

  it("is not shown to a learner (sent to /) nor to an anonymous visitor (sent to sign in)", async () => {
    const asLearner = await loadAdmin(learner.jar);
    expect([asLearner.status, asLearner.location]).toEqual([302, "/"]);
    expect(JSON.stringify(asLearner.data ?? "")).not.toContain("cohorts");
    const anonymous = await loadAdmin(new CookieJar());
    expect([anonymous.status, anonymous.location]).toEqual([302, "/signin?redirectTo=%2Fadmin"]);
  });
});
