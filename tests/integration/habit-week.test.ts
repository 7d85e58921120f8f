// A learner's twelve days of "Hoje" (issue 37), played through the real routes with the clock moved by hand: the plan
// follows the course and the cards the FSRS scheduler brings back, the streak grows, earns a protector at 7 days,
// spends it on a missed day and breaks past it — each change a streak_events row; the hourly job reminds once at the
// learner's usual hour, and the link in the e-mail stops the reminders without signing in.
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { lessons, modules } from "~/features/courses/tables";
import { flashcardQuestions } from "~/features/flashcards/tables";
import { sendDailyReminders } from "~/features/reminders/reminders.server";
import type { TodayData } from "~/features/today/plan.server";
import * as home from "~/routes/_app+/_index";
import * as gameRoute from "~/routes/_app+/_labs+/flashcard-v2.$gameId";
import * as pickerRoute from "~/routes/_app+/_labs+/flashcard-v2._index";
import * as configApp from "~/routes/_app+/config.app";
import * as lessonRoute from "~/routes/_app+/courses+/lessons.$lessonId";
import * as unsubscribeRoute from "~/routes/_public+/lembretes.cancelar";
import * as confirmRoute from "~/routes/_public+/lembretes.confirmar";
import { addDays } from "~/server/activity.server";
import type { Database } from "~/server/db.server";
import { mailOutbox, streakEvents, users } from "~/server/schema";
import { freePort, startFakeUpstream } from "./fake-upstream";
import { args, call, contextFor, createTestDb, insertLearner, request, TEST_ENV, type TestLearner } from "./harness";

let db: Database;
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
const PORT = await freePort();
const mailEnv = { MAIL_API_URL: `http://127.0.0.1:${PORT}`, MAIL_API_KEY: "week-mail-key", MAIL_FROM: "Nika <nika@nika.test>" };
/** Nine lessons in two modules that come before every other module of this database. */
let course: { id: string; title: string }[];

beforeAll(async () => {
  ({ db } = await createTestDb());
  upstream = await startFakeUpstream(PORT, ["--api-key", mailEnv.MAIL_API_KEY]);
  const [first, second] = await db
    .insert(modules)
    .values([
      { title: "Semana 1", orderIndex: -200 },
      { title: "Semana 2", orderIndex: -100 },
    ])
    .returning();
  const lessonsOf = (moduleId: string, titles: string[]) =>
    db
      .insert(lessons)
      .values(titles.map((title, orderIndex) => ({ moduleId, title, orderIndex, videoUrl: "https://youtu.be/x" })))
      .returning({ id: lessons.id, title: lessons.title });
  course = [
    ...(await lessonsOf(first!.id, ["Aula 1", "Aula 2", "Aula 3", "Aula 4", "Aula 5"])),
    ...(await lessonsOf(second!.id, ["Aula 6", "Aula 7", "Aula 8", "Aula 9"])),
  ];
});
afterAll(() => upstream?.stop());
afterEach(() => void vi.useRealTimers());

/** Moves the clock to `hour`:`minute` in São Paulo (UTC−3) on `day`. */
function clockAt(day: string, hour: number, minute = 0) {
  vi.setSystemTime(new Date(Date.parse(`${day}T00:00:00Z`) + ((hour + 3) * 60 + minute) * 60_000));
}
/**
 * Every request of the journey goes to one isolate (the same env object), as one learner's browser mostly does: the
 * session and the plan it keeps (keptWithSession) must follow each of the learner's actions at once.
 */
let isolate: ReturnType<typeof contextFor>;
const ctx = () => ({ ...(isolate ??= contextFor(db, mailEnv)), memo: new Map<string, unknown>() });

const homePage = async (who: TestLearner) => {
  const page = await call<{ today: TodayData }>(() => home.loader(args(request("/", { jar: who.jar }), ctx())));
  expect(page.status).toBe(200);
  return page.data.today;
};
/** The plan as the learner reads it: "key ✓: title — detail". */
const planOf = async (who: TestLearner) =>
  (await homePage(who)).items.map((item) => `${item.key}${item.done ? " ✓" : ""}: ${item.title} — ${item.detail}`);

const completeLesson = async (who: TestLearner, lessonId: string) => {
  const outcome = await call(() =>
    lessonRoute.action(args(request(`/courses/lessons/${lessonId}`, { form: { intent: "complete" }, jar: who.jar }), ctx(), { lessonId })),
  );
  expect(outcome.status).toBe(302);
};

/** Starts a game from the picker (`form`), then answers every question — right, except the positions in `miss`. */
async function playGame(who: TestLearner, form: Record<string, string>, miss: number[] = []) {
  const started = await call(() => pickerRoute.action(args(request("/flashcard-v2?index", { jar: who.jar, form }), ctx())));
  expect(started.status).toBe(303);
  const gameId = /^\/flashcard-v2\/([0-9a-f-]{36})$/.exec(started.location ?? "")![1]!;
  const questions = await db.select().from(flashcardQuestions).where(eq(flashcardQuestions.gameId, gameId)).orderBy(flashcardQuestions.position);
  for (const question of questions) {
    const wrong = question.optionIds.find((id) => id !== question.cardId)!;
    const optionId = miss.includes(question.position) ? wrong : question.cardId!;
    const form = { intent: "answer", position: String(question.position), optionId };
    const answered = await call(() => gameRoute.action(args(request(`/flashcard-v2/${gameId}`, { jar: who.jar, form }), ctx(), { gameId })));
    expect(answered.status).toBe(303);
  }
  return questions.length;
}

/**
 * The hourly cron's job at the current (fake) time. The mail goes out on the real clock: undici's timers, started
 * months after they were read, would overflow.
 */
async function runCron() {
  const now = new Date();
  vi.useRealTimers();
  try {
    return await sendDailyReminders(db, { ...TEST_ENV, ...mailEnv }, now);
  } finally {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
  }
}
/** The reminders this learner has received so far, as the outbox keeps them. */
const remindersTo = async (email: string) =>
  db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, "daily_reminder")))
    .orderBy(mailOutbox.createdAt);

describe("a learner's week and a half", () => {
  it("plays out by the rules: the plan moves, the streak grows, freezes and breaks, reminders come once and stop in one click", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const day = (n: number) => addDays("2027-03-01", n - 1); // day 1 is Monday 1 March 2027
    clockAt(day(1), 9);
    const who = await insertLearner(db, { credits: 20 });
    const [{ email }] = await db.select({ email: users.email }).from(users).where(eq(users.id, who.id));

    // ——— Day 1: the first plan; the reminder opt-in; a lesson and a game; the goal offered, then chosen ———
    expect(await planOf(who)).toEqual([
      "lesson: Comece o curso — Aula 1 · Semana 1",
      "pronunciation: Pronúncia · nível 1 — Seu próximo nível",
      "chat: Descubra seu nível — Teste de Nível de Inglês",
    ]);
    expect(await homePage(who)).toMatchObject({ points: 0, goal: 20, offerGoal: false, streak: { current: 0 } });
    const optIn = await call(() =>
      configApp.action(args(request("/config/app", { jar: who.jar, form: { intent: "reminder", reminder: "on" } }), ctx())),
    );
    expect(optIn.status).toBe(302);

    clockAt(day(1), 10, 15);
    await completeLesson(who, course[0]!.id);
    const asked = await playGame(who, { intent: "start", category: "animais" }, [0]); // the first card missed
    let today = await homePage(who);
    expect(today.items.map((item) => `${item.key}${item.done ? " ✓" : ""}: ${item.detail}`)).toEqual([
      "review: 1 cartão para revisar", // the missed card is ready for Revisão at once
      "lesson ✓: Aula 2 · Semana 1",
      "pronunciation: Seu próximo nível",
      "chat: Teste de Nível de Inglês",
    ]);
    expect(today).toMatchObject({ points: 15, goal: 20, offerGoal: true, streak: { current: 1, activeToday: true } });
    const goal = await call(() => home.action(args(request("/", { jar: who.jar, form: { intent: "daily_goal", goal: "10" } }), ctx())));
    expect([goal.status, goal.location]).toEqual([302, "/"]);
    expect(await homePage(who)).toMatchObject({ points: 15, goal: 10, offerGoal: false });
    clockAt(day(1), 20);
    await runCron();
    expect(await remindersTo(email)).toHaveLength(0); // practised today
    // The first mail to the address asks whether it wants reminders; the learner follows its link.
    const [ask, ...moreAsks] = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, "reminder_confirmation")));
    expect([ask?.subject, moreAsks.length]).toEqual(["Quer receber lembretes?", 0]);
    const confirmLink = ask!.textBody.match(/http\S+\/lembretes\/confirmar\?token=\S+/)![0];
    const confirmed = await call(() =>
      confirmRoute.action(
        args(new Request(confirmLink, { method: "POST", body: "", headers: { "Content-Type": "application/x-www-form-urlencoded" } }), ctx()),
      ),
    );
    expect(confirmed.data).toMatchObject({ state: "confirmed" });

    // ——— Day 2: nothing ticked yet; reminded at the usual hour (10 h, from day 1), once; Revisão played ———
    clockAt(day(2), 8);
    expect(await planOf(who)).toEqual([
      "review: Revisão — 1 cartão para revisar",
      "lesson: Próxima aula — Aula 2 · Semana 1",
      "pronunciation: Pronúncia · nível 1 — Seu próximo nível",
      "chat: Descubra seu nível — Teste de Nível de Inglês",
    ]);
    expect(await homePage(who)).toMatchObject({ points: 0, goal: 10, streak: { current: 1, activeToday: false, broken: false } });
    await runCron();
    expect(await remindersTo(email)).toHaveLength(0); // before the usual hour
    clockAt(day(2), 10);
    await runCron();
    clockAt(day(2), 11);
    await runCron();
    expect(await remindersTo(email)).toHaveLength(1);
    clockAt(day(2), 12);
    // A Revisão asks the card due and fills up with the learner's other cards: all ten of day 1's game.
    expect(await playGame(who, { intent: "review" })).toBe(asked);
    expect(await planOf(who)).toEqual([
      // the reviewed card is not due again today: Revisão leaves the plan
      "lesson: Próxima aula — Aula 2 · Semana 1",
      "pronunciation: Pronúncia · nível 1 — Seu próximo nível",
      "chat: Descubra seu nível — Teste de Nível de Inglês",
    ]);
    expect(await homePage(who)).toMatchObject({ points: 5, streak: { current: 2, activeToday: true } });

    // ——— Days 3 to 7: a lesson a day; the card missed on day 1 comes back 4 days after its review; a protector at 7 ———
    const dueBack: string[] = [];
    for (let n = 3; n <= 7; n++) {
      clockAt(day(n), 10, 30);
      dueBack.push(String((await homePage(who)).items.find((item) => item.key === "review")?.detail ?? "—"));
      await completeLesson(who, course[n - 2]!.id);
    }
    // FSRS: the card missed on day 1 and right on day 2 is due 4 days later (day 6); the other cards, right twice,
    // much later.
    expect(dueBack).toEqual(["—", "—", "—", "1 cartão para revisar", "1 cartão para revisar"]);
    today = await homePage(who);
    expect(today.items.find((item) => item.key === "lesson")?.detail).toBe("Aula 7 · Semana 2"); // the next module
    expect(today.streak).toMatchObject({ current: 7, longest: 7, freezes: 1, activeToday: true });

    // ——— Day 8: nothing done; one reminder; the learner stops them from the e-mail's link ———
    clockAt(day(8), 10);
    await runCron();
    clockAt(day(8), 21);
    await runCron();
    const reminders = await remindersTo(email);
    expect(reminders).toHaveLength(2);
    const headers = reminders[1]!.headers as Record<string, string>;
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const link = /^<(.+)>$/.exec(headers["List-Unsubscribe"]!)![1]!;
    const oneClick = await call(() =>
      unsubscribeRoute.action(
        args(
          new Request(link, {
            method: "POST",
            body: "List-Unsubscribe=One-Click",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
          }),
          ctx(),
        ),
      ),
    );
    expect(oneClick).toMatchObject({ status: 200, data: { state: "stopped" } });
    expect((await db.select({ optIn: users.reminderOptIn }).from(users).where(eq(users.id, who.id)))[0]!.optIn).toBe(false);

    // ——— Day 9: the protector already shown as covering day 8; back, the streak goes on ———
    clockAt(day(9), 10, 30);
    expect((await homePage(who)).streak).toMatchObject({ current: 7, freezes: 0, activeToday: false, broken: false });
    await completeLesson(who, course[6]!.id);
    expect((await homePage(who)).streak).toMatchObject({ current: 8, longest: 8, freezes: 0, activeToday: true });

    // ——— Days 10 and 11 missed (no reminder any more); day 12: broken, honestly, and a new streak starts ———
    clockAt(day(10), 12);
    await runCron();
    clockAt(day(11), 12);
    await runCron();
    expect(await remindersTo(email)).toHaveLength(2);
    clockAt(day(12), 9);
    expect((await homePage(who)).streak).toMatchObject({ current: 0, longest: 8, broken: true });
    await completeLesson(who, course[7]!.id);
    expect((await homePage(who)).streak).toMatchObject({ current: 1, longest: 8, freezes: 0, activeToday: true });
    expect(await planOf(who)).toContain("lesson ✓: Próxima aula — Aula 9 · Semana 2");

    // Every change of the streak is a row, in order.
    const events = await db.select().from(streakEvents).where(eq(streakEvents.userId, who.id)).orderBy(streakEvents.day, streakEvents.id);
    expect(events.map((e) => `${e.day} ${e.kind} ${e.streakAfter}/${e.freezesAfter}`)).toEqual([
      `${day(1)} extended 1/0`,
      `${day(2)} extended 2/0`,
      `${day(3)} extended 3/0`,
      `${day(4)} extended 4/0`,
      `${day(5)} extended 5/0`,
      `${day(6)} extended 6/0`,
      `${day(7)} extended 7/0`,
      `${day(7)} freeze_earned 7/1`,
      `${day(8)} frozen 7/0`,
      `${day(9)} extended 8/0`,
      `${day(12)} broken 0/0`,
      `${day(12)} extended 1/0`,
    ]);
  }, 120_000); // some sixty requests in one journey: 3–4 s here, room for a machine several times slower
});
