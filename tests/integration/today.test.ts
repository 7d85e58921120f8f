// "Hoje" on the home page through its routes (issue 37): the plan follows due cards, lesson progress, the weakest
// pronunciation word, the level test and today's activities; the goal is offered once after the first activity and
// chosen on / or /config/app (validated: nothing else is stored); the whole page costs a fixed number of statements.
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { lessons, modules, userLessonProgress } from "~/features/courses/tables";
import { flashcardCards, flashcardMemory } from "~/features/flashcards/tables";
import { pronunciationAttempts } from "~/features/pronunciation/tables";
import type { TodayData } from "~/features/today/plan.server";
import * as root from "~/root";
import * as home from "~/routes/_app+/_index";
import * as appLayout from "~/routes/_app+/_layout";
import * as configApp from "~/routes/_app+/config.app";
import * as lessonRoute from "~/routes/_app+/courses+/lessons.$lessonId";
import { addDays, recordActivity, saoPauloDay } from "~/server/activity.server";
import { forgetUserSessions, SESSION_STALE_MS } from "~/server/auth.server";
import type { Database } from "~/server/db.server";
import { forgetFlags } from "~/server/flags.server";
import { appConfig, users } from "~/server/schema";
import { args, call, contextFor, CookieJar, createTestDb, insertLearner, request, toastOf, type AdminReply, type TestLearner } from "./harness";

let db: Database;
let queryCount: () => number;
let resetQueryCount: () => void;
/** The course: module A (3 lessons) and module B (2 lessons), before any other module of this database. */
let course: { a: string[]; b: string[]; moduleA: string; moduleB: string };

beforeAll(async () => {
  ({ db, queryCount, resetQueryCount } = await createTestDb());
  const [a, b] = await db
    .insert(modules)
    .values([
      { title: "Módulo A", orderIndex: -20 },
      { title: "Módulo B", orderIndex: -10 },
    ])
    .returning();
  const lessonsOf = async (moduleId: string, titles: string[]) =>
    (
      await db
        .insert(lessons)
        .values(titles.map((title, orderIndex) => ({ moduleId, title, orderIndex })))
        .returning()
    ).map((l) => l.id);
  course = { a: await lessonsOf(a!.id, ["A1", "A2", "A3"]), b: await lessonsOf(b!.id, ["B1", "B2"]), moduleA: a!.id, moduleB: b!.id };
});

afterEach(async () => {
  vi.useRealTimers();
  await db
    .update(appConfig)
    .set({ configValue: true })
    .where(sql`${appConfig.configKey} like 'feature_%'`);
});

const homePage = async (learner: TestLearner) => {
  const page = await call<{ today: TodayData }>(() => home.loader(args(request("/", { jar: learner.jar }), contextFor(db))));
  expect(page.status).toBe(200);
  return page.data.today;
};
const itemsOf = async (learner: TestLearner) =>
  (await homePage(learner)).items.map((item) => `${item.key}${item.done ? " ✓" : ""}: ${item.title} — ${item.detail} → ${item.to}`);
const today = () => saoPauloDay(new Date());
const complete = (userId: string, lessonId: string, completedAt = new Date()) =>
  db.insert(userLessonProgress).values({ userId, lessonId, completed: true, completedAt });
const postHome = (jar: CookieJar, form: Record<string, string>) =>
  call<AdminReply>(() => home.action(args(request("/", { jar, form }), contextFor(db))));
const postConfig = (jar: CookieJar, form: Record<string, string>) =>
  call<AdminReply>(() => configApp.action(args(request("/config/app", { jar, form }), contextFor(db))));
const habitOf = async (id: string) =>
  (
    await db
      .select({ goal: users.dailyGoal, chosenAt: users.dailyGoalChosenAt, reminder: users.reminderOptIn })
      .from(users)
      .where(eq(users.id, id))
  )[0]!;

describe("the plan", () => {
  it("for a new learner: the course's first lesson, the first pronunciation level and the level test; no goal offer", async () => {
    const learner = await insertLearner(db);
    expect(await itemsOf(learner)).toEqual([
      `lesson: Comece o curso — A1 · Módulo A → /courses/lessons/${course.a[0]}`,
      "pronunciation: Pronúncia · nível 1 — Seu próximo nível → /pronunciation-game/1",
      "chat: Descubra seu nível — Teste de Nível de Inglês → /english-level-test",
    ]);
    const page = await homePage(learner);
    expect(page).toMatchObject({ points: 0, goal: 20, offerGoal: false, streak: { current: 0, activeToday: false, broken: false } });
  });

  it("offers Revisão first, with the count, while FSRS cards are due (or were missed), and not once they are not", async () => {
    const learner = await insertLearner(db);
    const cards = await db.select({ id: flashcardCards.id }).from(flashcardCards).limit(3);
    expect(cards).toHaveLength(3);
    const memory = (cardId: string, due: Date, lastMissed = false) => ({
      userId: learner.id,
      cardId,
      due,
      stability: 1,
      difficulty: 5,
      elapsedDays: 0,
      scheduledDays: 1,
      reps: 1,
      lapses: 0,
      state: 2,
      lastMissed,
    });
    const hourAgo = new Date(Date.now() - 3_600_000);
    const tomorrow = new Date(Date.now() + 86_400_000);
    await db
      .insert(flashcardMemory)
      .values([memory(cards[0]!.id, hourAgo), memory(cards[1]!.id, tomorrow, true), memory(cards[2]!.id, tomorrow)]);
    const items = await itemsOf(learner);
    expect(items[0]).toBe("review: Revisão — 2 cartões para revisar → /flashcard-v2");
    expect(items).toHaveLength(4);

    await db.update(flashcardMemory).set({ due: tomorrow, lastMissed: false }).where(eq(flashcardMemory.userId, learner.id));
    expect((await itemsOf(learner)).map((item) => item.split(":")[0])).toEqual(["lesson", "pronunciation", "chat"]);
  });

  it("follows the course in progress: the next lesson after the last completed, then the next module, then earlier gaps", async () => {
    const learner = await insertLearner(db);
    const lessonItem = async () => (await itemsOf(learner)).find((item) => item.startsWith("lesson"));
    await complete(learner.id, course.a[0]!, new Date(Date.now() - 60_000));
    expect(await lessonItem()).toBe(`lesson: Próxima aula — A2 · Módulo A → /courses/lessons/${course.a[1]}`);
    // Jumping ahead to module B: the plan follows the learner there, and comes back for A's gaps at the end.
    await complete(learner.id, course.b[0]!);
    expect(await lessonItem()).toBe(`lesson: Próxima aula — B2 · Módulo B → /courses/lessons/${course.b[1]}`);
    await complete(learner.id, course.b[1]!, new Date(Date.now() + 1000));
    expect(await lessonItem()).toBe(`lesson: Próxima aula — A2 · Módulo A → /courses/lessons/${course.a[1]}`);
    // An unavailable module is never offered: with B done and A closed, there is no lesson to offer.
    await db.update(modules).set({ available: "no" }).where(eq(modules.id, course.moduleA));
    expect(await lessonItem()).toBeUndefined();
    await db.update(modules).set({ available: "yes" }).where(eq(modules.id, course.moduleA));
  });

  it("sends pronunciation to the level holding the weakest recent word, else the level after the last one scored", async () => {
    const learner = await insertLearner(db);
    const attempt = (level: number, words: { word: string; accuracyScore: number; errorType?: "None" | "Mispronunciation" | "Insertion" }[]) =>
      db.insert(pronunciationAttempts).values({
        userId: learner.id,
        level,
        status: "scored",
        sentence: "x",
        overallScore: 80,
        scorer: "test",
        words: words.map((w) => ({ errorType: "None", ...w })),
      });
    const pronunciation = async () => (await itemsOf(learner)).find((item) => item.startsWith("pronunciation"));
    await attempt(3, [{ word: "good", accuracyScore: 95 }]);
    expect(await pronunciation()).toBe("pronunciation: Pronúncia · nível 4 — Seu próximo nível → /pronunciation-game/4");
    await attempt(5, [
      { word: "think", accuracyScore: 40, errorType: "Mispronunciation" },
      { word: "extra", accuracyScore: 0, errorType: "Insertion" },
      { word: "the", accuracyScore: 96 },
    ]);
    await attempt(6, [{ word: "world", accuracyScore: 62 }]);
    expect(await pronunciation()).toBe("pronunciation: Pronúncia · nível 5 — Treine a palavra “think” → /pronunciation-game/5");
    // A better attempt at level 5 is now what counts there: the weakest word moves to level 6.
    await attempt(5, [{ word: "think", accuracyScore: 88 }]);
    expect(await pronunciation()).toBe("pronunciation: Pronúncia · nível 6 — Treine a palavra “world” → /pronunciation-game/6");
  });

  it("fits the chat to the level test: the test, then Português for A1–A2, English for B1–B2, Role Play for C1–C2", async () => {
    const learner = await insertLearner(db);
    const chat = async () => (await itemsOf(learner)).find((item) => item.startsWith("chat"));
    const withLevel = async (level: string | null) => {
      await db.update(users).set({ englishLevel: level }).where(eq(users.id, learner.id));
      return chat();
    };
    expect(await withLevel("A2")).toBe("chat: Converse com a Nika · Começar em Português — Para o seu nível (A2) → /chat-with-nika/portuguese");
    expect(await withLevel("B1")).toBe("chat: Converse com a Nika · Tópico em Inglês — Para o seu nível (B1) → /chat-with-nika/english");
    expect(await withLevel("C2")).toBe("chat: Converse com a Nika · Role Play — Para o seu nível (C2) → /chat-with-nika/roleplay");
    // A mode that is off is not offered: the next one that fits.
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_chat_roleplay"));
    expect(await chat()).toBe("chat: Converse com a Nika · Tópico em Inglês — Para o seu nível (C2) → /chat-with-nika/english");
  });

  it("offers no item of a disabled feature; a flashcard game fills a plan that would be short", async () => {
    const learner = await insertLearner(db);
    for (const key of ["feature_teacher_flix", "feature_pronunciation"]) {
      await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, key));
    }
    expect((await itemsOf(learner)).map((item) => item.split(":")[0])).toEqual(["chat", "flashcards"]);
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_flashcards"));
    expect((await itemsOf(learner)).map((item) => item.split(":")[0])).toEqual(["chat"]);
  });

  it("ticks what was done today (not yesterday), sums today's points against the goal and shows the streak", async () => {
    const learner = await insertLearner(db);
    await db.update(users).set({ englishLevel: "A1" }).where(eq(users.id, learner.id));
    const yesterday = new Date(Date.now() - 86_400_000);
    await recordActivity(db, { userId: learner.id, kind: "lesson_completed", ref: "l-yesterday", at: yesterday });
    await recordActivity(db, { userId: learner.id, kind: "pronunciation_attempt", ref: "p-yesterday", at: yesterday });
    let page = await homePage(learner);
    expect(page.items.filter((item) => item.done)).toEqual([]);
    expect(page).toMatchObject({ points: 0, streak: { current: 1, activeToday: false } });

    await recordActivity(db, { userId: learner.id, kind: "lesson_completed", ref: "l-today" });
    await recordActivity(db, { userId: learner.id, kind: "chat_exchange", ref: "m-today" });
    await recordActivity(db, { userId: learner.id, kind: "chat_exchange", ref: "m-today-2" });
    page = await homePage(learner);
    expect(page.items.filter((item) => item.done).map((item) => item.key)).toEqual(["lesson", "chat"]);
    expect(page).toMatchObject({ points: 12, goal: 20, streak: { current: 2, activeToday: true } });
  });

  it("moves with the clock: tomorrow nothing is ticked, and the day after a missed day shows the streak broken", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-09-10T15:00:00Z"));
    const learner = await insertLearner(db);
    await recordActivity(db, { userId: learner.id, kind: "level_test", ref: "t1" });
    let page = await homePage(learner);
    expect(page.items.find((item) => item.key === "chat")?.done).toBe(true);
    expect(page).toMatchObject({ points: 10, streak: { current: 1, activeToday: true } });

    vi.setSystemTime(new Date("2026-09-11T03:00:00Z")); // 00:00 in São Paulo: the next day
    page = await homePage(learner);
    expect(page.items.some((item) => item.done)).toBe(false);
    expect(page).toMatchObject({ points: 0, streak: { current: 1, activeToday: false, broken: false } });

    vi.setSystemTime(new Date(`${addDays("2026-09-11", 1)}T15:00:00Z`));
    page = await homePage(learner);
    expect(page.streak).toMatchObject({ current: 0, longest: 1, broken: true });
  });

  it("anonymous → /signin, blocked → /blocked", async () => {
    expect((await call(() => home.loader(args(request("/"), contextFor(db))))).location).toBe("/signin");
    const blocked = await insertLearner(db, { accountType: "blocked" });
    expect((await call(() => home.loader(args(request("/", { jar: blocked.jar }), contextFor(db))))).location).toBe("/blocked");
  });

  it("the whole page (root, signed-in layout and home, one load context) is 3 statements at most: session, flags, the plan", async () => {
    const learner = await insertLearner(db);
    const context = contextFor(db);
    resetQueryCount();
    const req = () => request("/", { jar: learner.jar });
    const answers = await Promise.all([
      call(() => root.loader(args(req(), context))),
      call(() => appLayout.loader(args(req(), context))),
      call(() => home.loader(args(req(), context))),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(queryCount()).toBeLessThanOrEqual(3);
    // A reload within SESSION_STALE_MS: the session, the flags and the plan are the isolate's (0019, keptWithSession).
    resetQueryCount();
    const reloaded = await call<{ today: TodayData }>(() => home.loader(args(req(), { ...context, memo: new Map() })));
    expect(queryCount()).toBe(0);
    expect(reloaded.data.today).toEqual((answers[2]!.data as { today: TodayData }).today);
    // A session the isolate read for another page, without the plan: the plan is the page's only statement.
    const other = await insertLearner(db);
    await call(() => appLayout.loader(args(request("/labs", { jar: other.jar }), { ...context, memo: new Map() })));
    resetQueryCount();
    await call(() => home.loader(args(request("/", { jar: other.jar }), { ...context, memo: new Map() })));
    expect(queryCount()).toBe(1);
  });
});

describe("Hoje kept with the session's copy in the isolate (keptWithSession)", () => {
  /** One isolate: every request gets the same env object, as workerd hands them. */
  const isolateOf = () => {
    const context = contextFor(db);
    return () => ({ ...context, memo: new Map<string, unknown>() });
  };
  const homeIn = async (isolate: ReturnType<typeof isolateOf>, learner: TestLearner) => {
    const page = await call<{ today: TodayData }>(() => home.loader(args(request("/", { jar: learner.jar }), isolate())));
    expect(page.status).toBe(200);
    return page.data.today;
  };

  it("follows the learner's own action at once: a lesson completed, the goal chosen on /", async () => {
    vi.useFakeTimers({ toFake: ["Date"] }); // the clock stands still: nothing expires by itself
    vi.setSystemTime(new Date("2026-10-05T15:00:00Z"));
    const isolate = isolateOf();
    const learner = await insertLearner(db);
    expect((await homeIn(isolate, learner)).items[0]).toMatchObject({ key: "lesson", done: false, title: "Comece o curso" });
    const lessonId = course.a[0]!;
    const completed = await call(() =>
      lessonRoute.action(
        args(request(`/courses/lessons/${lessonId}`, { jar: learner.jar, form: { intent: "complete" } }), isolate(), { lessonId }),
      ),
    );
    expect(completed.status).toBe(302);
    const after = await homeIn(isolate, learner);
    expect(after.items[0]).toMatchObject({ key: "lesson", done: true, title: "Próxima aula" });
    expect(after).toMatchObject({ points: 10, offerGoal: true, streak: { current: 1, activeToday: true } });

    const chosen = await call(() =>
      home.action(args(request("/", { jar: learner.jar, form: { intent: "daily_goal", goal: "50" } }), isolate())),
    );
    expect(chosen.status).toBe(302);
    expect(await homeIn(isolate, learner)).toMatchObject({ goal: 50, offerGoal: false });
  });

  it("shows what another device or isolate did within SESSION_STALE_MS, as the session's copy does", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-10-05T15:00:00Z"));
    const isolate = isolateOf();
    const learner = await insertLearner(db);
    expect((await homeIn(isolate, learner)).points).toBe(0);
    // Recorded elsewhere (not through this isolate): this isolate's copy does not know yet…
    await recordActivity(db, { userId: learner.id, kind: "flashcard_game", ref: "elsewhere" });
    vi.setSystemTime(new Date(Date.now() + SESSION_STALE_MS - 1));
    expect((await homeIn(isolate, learner)).points).toBe(0);
    // …and reads it once the copy is SESSION_STALE_MS old.
    vi.setSystemTime(new Date(Date.now() + 1));
    expect((await homeIn(isolate, learner)).points).toBe(5);
    // A session forgotten in this isolate (an admin's change, a purchase) takes the plan with it.
    await recordActivity(db, { userId: learner.id, kind: "review_game", ref: "elsewhere-2" });
    forgetUserSessions(isolate(), learner.id);
    expect((await homeIn(isolate, learner)).points).toBe(10);
  });

  it("is recomputed on a new São Paulo day and when this isolate reads the flags again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-10-06T02:59:59Z")); // 23:59:59 in São Paulo
    const isolate = isolateOf();
    const learner = await insertLearner(db);
    await recordActivity(db, { userId: learner.id, kind: "flashcard_game", ref: "late" });
    expect(await homeIn(isolate, learner)).toMatchObject({ points: 5, streak: { activeToday: true } });
    vi.setSystemTime(new Date("2026-10-06T03:00:00Z")); // one second later: 00:00:00, the next day
    expect(await homeIn(isolate, learner)).toMatchObject({ points: 0, streak: { current: 1, activeToday: false } });

    expect((await homeIn(isolate, learner)).items.map((item) => item.key)).toContain("pronunciation");
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_pronunciation"));
    forgetFlags(isolate()); // the admin's toggle in this isolate
    expect((await homeIn(isolate, learner)).items.map((item) => item.key)).not.toContain("pronunciation");
  });

  it("is neither read nor kept for a request that is not a page load", async () => {
    const isolate = isolateOf();
    const learner = await insertLearner(db);
    expect((await homeIn(isolate, learner)).points).toBe(0);
    await recordActivity(db, { userId: learner.id, kind: "flashcard_game", ref: "posted" });
    // A refused goal form re-renders / in the POST's request (no JavaScript): its plan is read now…
    const refused = await call(() =>
      home.action(args(request("/", { jar: learner.jar, form: { intent: "daily_goal", goal: "7" } }), isolate())),
    );
    expect(refused.status).toBe(400);
    const inPost = await call<{ today: TodayData }>(() => home.loader(args(request("/", { jar: learner.jar, method: "POST" }), isolate())));
    expect(inPost.data.today.points).toBe(5);
    // …and the next page load reads the session and the plan again.
    resetQueryCount();
    expect((await homeIn(isolate, learner)).points).toBe(5);
    expect(queryCount()).toBe(2);
  });
});

describe("the daily goal", () => {
  it("is offered on / once the learner has an activity, and gone once chosen there", async () => {
    const learner = await insertLearner(db);
    expect((await homePage(learner)).offerGoal).toBe(false);
    await recordActivity(db, { userId: learner.id, kind: "flashcard_game", ref: "g1" });
    expect((await homePage(learner)).offerGoal).toBe(true);

    const chosen = await postHome(learner.jar, { intent: "daily_goal", goal: "30" });
    expect(chosen.status).toBe(302);
    expect(chosen.location).toBe("/");
    expect(await toastOf(chosen)).toEqual({ type: "success", title: "Meta diária salva!" });
    const page = await homePage(learner);
    expect(page).toMatchObject({ offerGoal: false, goal: 30, points: 5 });
    expect(today()).toBe(saoPauloDay(new Date()));
  });

  it("is chosen on /config/app: Leve 10, Regular 20, Sério 30, Intenso 50 (default Regular)", async () => {
    const learner = await insertLearner(db);
    const page = await call<{ dailyGoal: number; goals: { points: number; label: string }[] }>(() =>
      configApp.loader(args(request("/config/app", { jar: learner.jar }), contextFor(db))),
    );
    expect(page.data.dailyGoal).toBe(20);
    expect(page.data.goals.map((g) => `${g.label} ${g.points}`)).toEqual(["Leve 10", "Regular 20", "Sério 30", "Intenso 50"]);
    for (const goal of ["10", "50"]) {
      const saved = await postConfig(learner.jar, { intent: "daily_goal", goal });
      expect(saved.location).toBe("/config/app");
      expect((await habitOf(learner.id)).goal).toBe(Number(goal));
    }
    expect((await habitOf(learner.id)).chosenAt).toBeInstanceOf(Date);
  });

  it("refuses anything else with a 4xx in pt-BR and stores nothing", async () => {
    const learner = await insertLearner(db);
    for (const goal of ["25", "0", "-10", "abc", "", "20.0", "1e1", "9999999999"]) {
      const refused = await postConfig(learner.jar, { intent: "daily_goal", goal });
      expect(refused.status).toBe(400);
      expect(refused.data).toMatchObject({ code: "invalid_daily_goal", result: { error: { goal: ["Escolha uma das metas."] } } });
      expect((await postHome(learner.jar, { intent: "daily_goal", goal })).status).toBe(400);
    }
    expect((await postConfig(learner.jar, { intent: "daily_goal" })).status).toBe(400);
    // Points cannot be posted: an unknown intent or extra fields change nothing.
    for (const form of [{ intent: "points", points: "500" }, {}, { goal: "30" }] as Record<string, string>[]) {
      const refused = await postConfig(learner.jar, form);
      expect(refused.status).toBe(400);
      expect(refused.data).toMatchObject({ code: "unknown_intent", result: { error: { "": ["Ação inválida."] } } });
    }
    // The home page takes only the goal, not the reminder.
    expect((await postHome(learner.jar, { intent: "reminder", reminder: "on" })).status).toBe(400);
    const send = (path: string, body: string, headers: Record<string, string>) =>
      new Request(`http://nika.test${path}`, { method: "POST", headers: { Cookie: learner.jar.header(), ...headers }, body });
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    const answers = await Promise.all([
      call(() => configApp.action(args(send("/config/app", "intent=daily_goal&goal=30&goal=50", form), contextFor(db)))),
      call(() => configApp.action(args(send("/config/app", `intent=daily_goal&goal=30&x=${"a".repeat(70_000)}`, form), contextFor(db)))),
      call(() => configApp.action(args(send("/config/app", "intent=daily_goal&goal=30", { "Content-Type": "text/plain" }), contextFor(db)))),
      call(() => home.action(args(send("/", '{"intent":"daily_goal","goal":30}', { "Content-Type": "application/json" }), contextFor(db)))),
    ]);
    expect(answers.map((a) => a.status)).toEqual([400, 413, 415, 415]);
    expect(await habitOf(learner.id)).toEqual({ goal: 20, chosenAt: null, reminder: false });
  });
});

describe("Lembrete diário", () => {
  it("is off by default; the switch on /config/app turns it on and off; anything else is refused", async () => {
    const learner = await insertLearner(db);
    const page = await call<{ reminderOptIn: boolean }>(() =>
      configApp.loader(args(request("/config/app", { jar: learner.jar }), contextFor(db))),
    );
    expect(page.data.reminderOptIn).toBe(false);
    const on = await postConfig(learner.jar, { intent: "reminder", reminder: "on" });
    expect(on.location).toBe("/config/app");
    expect(await toastOf(on)).toEqual({ type: "success", title: "Lembrete diário ativado" });
    expect((await habitOf(learner.id)).reminder).toBe(true);
    for (const reminder of ["yes", "", "true"]) {
      const refused = await postConfig(learner.jar, { intent: "reminder", reminder });
      expect(refused.status).toBe(400);
      expect(refused.data).toMatchObject({ code: "invalid_reminder" });
    }
    expect((await habitOf(learner.id)).reminder).toBe(true);
    await postConfig(learner.jar, { intent: "reminder", reminder: "off" });
    expect(await habitOf(learner.id)).toMatchObject({ reminder: false, goal: 20, chosenAt: null });
  });
});
