// The flashcard pages through their routes (/flashcard-v2, /flashcard-v2/:gameId): guards and flag,
// starting (303 to the game) and every refusal's status and code, the game as the page gets it (which
// question, the result), answering without and with the page's script, refusals that are never a 500,
// and Recomeçar.
import { and, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AnswerData, FlashcardActionData, GamePageData, PickerPageData } from "~/features/flashcards/page.server";
import { flashcardGames, flashcardQuestions } from "~/features/flashcards/tables";
import * as gameRoute from "~/routes/_app+/_labs+/flashcard-v2.$gameId";
import * as pickerRoute from "~/routes/_app+/_labs+/flashcard-v2._index";
import { createSession } from "~/server/auth.server";
import { creditPeriod, getBalance } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { appConfig, users } from "~/server/schema";
import { args, call, contextFor, CookieJar, createTestDb, request } from "./harness";

let db: Database;
let n = 0;
beforeAll(async () => {
  ({ db } = await createTestDb());
});
beforeEach(async () => {
  await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_flashcards"));
});

async function learner(credits = 10) {
  const [user] = await db
    .insert(users)
    .values({
      name: "Jogadora",
      email: `pages${++n}@example.com`,
      monthlyCredits: credits,
      creditsPeriod: creditPeriod(new Date()),
      emailConfirmedAt: new Date(),
    })
    .returning();
  const jar = new CookieJar();
  jar.absorb(new Headers({ "Set-Cookie": await createSession(contextFor(db), user!.id, request("/")) }));
  return { id: user!.id, jar };
}
type Learner = Awaited<ReturnType<typeof learner>>;

const ctx = () => contextFor(db);
const openPicker = (who: Learner) => call<PickerPageData>(() => pickerRoute.loader(args(request("/flashcard-v2", { jar: who.jar }), ctx())));
const postPicker = (who: Learner, form: Record<string, string>) =>
  call<FlashcardActionData>(() => pickerRoute.action(args(request("/flashcard-v2?index", { jar: who.jar, form }), ctx())));
const openGame = (who: Learner, gameId: string, search = "") =>
  call<GamePageData>(() => gameRoute.loader(args(request(`/flashcard-v2/${gameId}${search}`, { jar: who.jar }), ctx(), { gameId })));
const postGame = (who: Learner, gameId: string, form: Record<string, string>) =>
  call<FlashcardActionData | AnswerData>(() =>
    gameRoute.action(args(request(`/flashcard-v2/${gameId}`, { jar: who.jar, form }), ctx(), { gameId })),
  );

const GAME_LOCATION = /^\/flashcard-v2\/([0-9a-f-]{36})$/;

async function start(who: Learner, category = "animais") {
  const outcome = await postPicker(who, { intent: "start", category });
  expect(outcome.status).toBe(303);
  return GAME_LOCATION.exec(outcome.location ?? "")![1]!;
}

async function rightAnswer(gameId: string, position: number) {
  const [row] = await db
    .select({ cardId: flashcardQuestions.cardId, optionIds: flashcardQuestions.optionIds })
    .from(flashcardQuestions)
    .where(and(eq(flashcardQuestions.gameId, gameId), eq(flashcardQuestions.position, position)));
  return { right: row!.cardId!, wrong: row!.optionIds.find((id) => id !== row!.cardId)! };
}

const formErrors = (data: unknown) => (data as FlashcardActionData).result.error?.[""];

describe("the picker", () => {
  it("shows the 8 categories and the review count; signed out goes to /signin; the flag turns it off", async () => {
    const who = await learner();
    const page = await openPicker(who);
    expect(page.status).toBe(200);
    expect(page.data.picker.categories).toHaveLength(8);
    expect(page.data).toMatchObject({ isAdmin: false, picker: { reviewCount: 0 } });

    const anonymous = await call(() => pickerRoute.loader(args(request("/flashcard-v2"), ctx())));
    expect([anonymous.status, anonymous.location]).toEqual([302, "/signin?redirectTo=%2Fflashcard-v2"]);

    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_flashcards"));
    expect((await openPicker(who)).status).toBe(403);
    const refused = await postPicker(who, { intent: "start", category: "animais" });
    expect(refused.status).toBe(403);
    expect(await getBalance(db, who.id)).toBe(10);
  });

  it("starts a game for 1 credit and redirects (303) to it", async () => {
    const who = await learner(3);
    const gameId = await start(who);
    expect(await getBalance(db, who.id)).toBe(2);
    const [game] = await db.select().from(flashcardGames).where(eq(flashcardGames.id, gameId));
    expect(game).toMatchObject({ userId: who.id, categorySlug: "animais", kind: "category", questionCount: 10 });
  });

  it("refuses with a status and a code the page branches on, spending nothing", async () => {
    const who = await learner(1);
    const unknown = await postPicker(who, { intent: "start", category: "dinossauros" });
    expect([unknown.status, unknown.data.code, formErrors(unknown.data)?.[0]]).toEqual([404, "category_not_found", "Categoria não encontrada"]);
    const review = await postPicker(who, { intent: "review" });
    expect([review.status, review.data.code, formErrors(review.data)?.[0]]).toEqual([409, "nothing_to_review", "Nada para revisar"]);
    for (const form of [{ intent: "jogar" }, { intent: "start" }, {}] as Record<string, string>[]) {
      const bad = await postPicker(who, form);
      expect([bad.status, bad.data.code], JSON.stringify(form)).toEqual([400, "invalid"]);
    }
    expect(await getBalance(db, who.id)).toBe(1);

    await start(who);
    const broke = await postPicker(who, { intent: "start", category: "animais" });
    expect([broke.status, broke.data.code, formErrors(broke.data)?.[0]]).toEqual([402, "credits_exhausted", "Créditos Esgotados"]);
    expect(await getBalance(db, who.id)).toBe(0);
  });
});

describe("a game page", () => {
  it("is the learner's own: another's game and a malformed id are 404s", async () => {
    const owner = await learner();
    const other = await learner();
    const gameId = await start(owner);
    expect((await openGame(other, gameId)).status).toBe(404);
    expect((await call(() => gameRoute.loader(args(request("/flashcard-v2/x", { jar: owner.jar }), ctx(), { gameId: "x" })))).status).toBe(404);
    const { right } = await rightAnswer(gameId, 0);
    const answered = await postGame(other, gameId, { intent: "answer", position: "0", optionId: right });
    expect([answered.status, (answered.data as FlashcardActionData).code]).toEqual([404, "question_not_found"]);
    expect((await postGame(other, gameId, { intent: "restart" })).status).toBe(404);
    expect(await getBalance(db, other.id)).toBe(10);
  });

  it("shows the first unanswered question, or `?q`'s, and no right answer before it is given", async () => {
    const who = await learner();
    const gameId = await start(who);
    const page = await openGame(who, gameId);
    expect(page.data.position).toBe(0);
    expect(page.data.result).toBeNull();
    expect(page.data.game.questions.every((q) => q.answer === null)).toBe(true);
    expect(JSON.stringify(page.data)).not.toMatch(/translation|correctId/);
    expect((await openGame(who, gameId, "?q=4")).data.position).toBe(3);
    expect((await openGame(who, gameId, "?q=99")).data.position).toBe(0);
  });

  it("answers without the page's script by a 303 back to the question (with its feedback); then it is locked", async () => {
    const who = await learner();
    const gameId = await start(who);
    const { right, wrong } = await rightAnswer(gameId, 0);
    const answered = await postGame(who, gameId, { intent: "answer", position: "0", optionId: wrong });
    expect([answered.status, answered.location]).toEqual([303, `/flashcard-v2/${gameId}?q=1#resposta`]);
    const page = await openGame(who, gameId, "?q=1");
    expect(page.data.game.questions[0]!.answer).toMatchObject({ chosenId: wrong, correctId: right, correct: false });
    expect((await openGame(who, gameId)).data.position).toBe(1);

    const again = await postGame(who, gameId, { intent: "answer", position: "0", optionId: right });
    expect([again.status, (again.data as FlashcardActionData).code, formErrors(again.data)?.[0]]).toEqual([
      409,
      "already_answered",
      "Pergunta já respondida",
    ]);
  });

  it("answers the page's script with data: right or wrong, the right option, the word and its translation", async () => {
    const who = await learner();
    const gameId = await start(who);
    const { right } = await rightAnswer(gameId, 0);
    const answered = await postGame(who, gameId, { intent: "answer", position: "0", optionId: right, via: "fetch" });
    expect(answered.status).toBe(200);
    expect(answered.data).toMatchObject({
      answer: { position: 0, chosenId: right, correctId: right, correct: true, word: expect.any(String), translation: expect.any(String) },
      answeredCount: 1,
      correctCount: 1,
      finished: false,
    });
    // the page does not reload the game after such an answer
    const formData = new FormData();
    formData.set("via", "fetch");
    expect(gameRoute.shouldRevalidate!({ formData, defaultShouldRevalidate: true } as never)).toBe(false);
    expect(gameRoute.shouldRevalidate!({ defaultShouldRevalidate: true } as never)).toBe(true);
  });

  it("refuses a bad answer with a 4xx, never a 500", async () => {
    const who = await learner();
    const gameId = await start(who);
    const { right } = await rightAnswer(gameId, 0);
    const cases: [Record<string, string>, number, string][] = [
      [{ intent: "answer", position: "0" }, 400, "no_option"],
      [{ intent: "answer", position: "0", optionId: "not-a-uuid" }, 400, "invalid_option"],
      [{ intent: "answer", position: "0", optionId: "00000000-0000-4000-8000-000000000000" }, 400, "invalid_option"],
      [{ intent: "answer", position: "42", optionId: right }, 404, "question_not_found"],
      [{ intent: "answer", position: "-1", optionId: right }, 400, "invalid"],
      [{ intent: "answer", position: "um", optionId: right }, 400, "invalid"],
      [{ intent: "desistir" }, 400, "invalid"],
    ];
    for (const [form, status, code] of cases) {
      const outcome = await postGame(who, gameId, form);
      expect([outcome.status, (outcome.data as FlashcardActionData).code], JSON.stringify(form)).toEqual([status, code]);
    }
    const [game] = await db.select().from(flashcardGames).where(eq(flashcardGames.id, gameId));
    expect(game!.answeredCount).toBe(0);
  });

  it("ends on the result (counts, percent, tier with its picture and sound, missed words); Recomeçar starts the same kind of game", async () => {
    const who = await learner(3);
    const gameId = await start(who, "roupas");
    for (let position = 0; position < 10; position++) {
      const { right, wrong } = await rightAnswer(gameId, position);
      const outcome = await postGame(who, gameId, { intent: "answer", position: String(position), optionId: position < 8 ? right : wrong });
      expect(outcome.status).toBe(303);
    }
    const page = await openGame(who, gameId);
    expect(page.data.position).toBeNull();
    expect(page.data.result).toMatchObject({ tier: "good", percent: 80, correct: 8, incorrect: 2 });
    expect(page.data.result!.imageUrl).toMatch(/^\/content\/flashcards\/tier-good\..+\.svg$/);
    expect(page.data.result!.soundUrl).toMatch(/^\/content\/flashcards\/sound-good\..+\.mp3$/);
    expect(page.data.game.missed).toHaveLength(2);
    expect((await openGame(who, gameId, "?q=10")).data.position).toBe(9);

    const again = await postGame(who, gameId, { intent: "restart" });
    expect(again.status).toBe(303);
    const next = GAME_LOCATION.exec(again.location ?? "")![1]!;
    expect(next).not.toBe(gameId);
    const [game] = await db.select().from(flashcardGames).where(eq(flashcardGames.id, next));
    expect(game).toMatchObject({ categorySlug: "roupas", kind: "category" });

    // a review game restarts as a review game; without credits: the dialog's code
    const review = await postPicker(who, { intent: "review" });
    const reviewId = GAME_LOCATION.exec(review.location ?? "")![1]!;
    expect(await getBalance(db, who.id)).toBe(0);
    const broke = await postGame(who, reviewId, { intent: "restart" });
    expect([broke.status, (broke.data as FlashcardActionData).code]).toEqual([402, "credits_exhausted"]);
    await db.update(users).set({ monthlyCredits: 1 }).where(eq(users.id, who.id));
    const restarted = await postGame(who, reviewId, { intent: "restart" });
    const [reviewAgain] = await db
      .select()
      .from(flashcardGames)
      .where(eq(flashcardGames.id, GAME_LOCATION.exec(restarted.location ?? "")![1]!));
    expect(reviewAgain).toMatchObject({ kind: "review", categorySlug: null });
  });
});
