// Flashcard games on a real Postgres (PGlite with the migrations, which also ship the content): the
// credit spend and CREDITS_EXHAUSTED, no right answer before answering, answering once and only one's
// own game, categories with too few cards, FSRS memory and review games, and 30 parallel starts.
import { readFileSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { answerQuestion, currentPosition, loadGame, loadPicker, startGame, type GameView } from "~/features/flashcards/game.server";
import { OPTIONS_PER_QUESTION } from "~/features/flashcards/plan";
import { flashcardCards, flashcardCategories, flashcardGames, flashcardMemory, flashcardQuestions } from "~/features/flashcards/tables";
import { creditPeriod, getBalance } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { creditLedger, users } from "~/server/schema";
import { createTestDb } from "./harness";

let db: Database;
let n = 0;
const NOW = new Date("2026-11-24T12:00:00Z");

beforeAll(async () => {
  ({ db } = await createTestDb());
});

async function newUser(credits = 10) {
  const [user] = await db
    .insert(users)
    .values({ name: "Jogador", email: `flashcards${++n}@example.com`, monthlyCredits: credits, creditsPeriod: creditPeriod(NOW) })
    .returning({ id: users.id });
  return user!.id;
}

/** A seeded random sequence, so a game's draw is the same on every run. */
function seeded(seed = 42) {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

async function started(userId: string, slug = "animais") {
  const result = await startGame(db, userId, { kind: "category", slug }, NOW, seeded());
  if (!result.ok) throw new Error(`game not started: ${result.code}`);
  return result;
}

/** The right answer of a question, read from the database (the learner's view does not have it). */
async function rightAnswer(gameId: string, position: number) {
  const [row] = await db
    .select({ cardId: flashcardQuestions.cardId })
    .from(flashcardQuestions)
    .where(and(eq(flashcardQuestions.gameId, gameId), eq(flashcardQuestions.position, position)));
  return row!.cardId!;
}

async function memoryOf(userId: string, cardId: string) {
  const [row] = await db
    .select()
    .from(flashcardMemory)
    .where(and(eq(flashcardMemory.userId, userId), eq(flashcardMemory.cardId, cardId)));
  return row!;
}

const wrongOption = (game: GameView, position: number, right: string) => game.questions[position]!.options.find((o) => o.id !== right)!.id;

describe("shipped content", () => {
  it("the migrations ship every category and card of content/flashcards/cards.json (≥ 20 cards each, 15 for Profissões)", async () => {
    const picker = await loadPicker(db, await newUser(), NOW);
    const shipped = JSON.parse(readFileSync("content/flashcards/cards.json", "utf8")) as { categories: { name: string }[]; cards: unknown[] };
    expect(picker.categories.map((c) => c.name)).toEqual(shipped.categories.map((c) => c.name));
    expect(picker.categories.reduce((sum, c) => sum + c.cardCount, 0)).toBe(shipped.cards.length);
    for (const category of picker.categories) {
      expect(category.cardCount, category.name).toBeGreaterThanOrEqual(category.slug === "profissoes" ? 15 : 20);
      expect(category.tileUrl, category.name).toMatch(/^\/content\/flashcards\/.+\.svg$/);
      expect(category.playable).toBe(true);
    }
    expect(picker.reviewCount).toBe(0);
  });
});

describe("starting a game", () => {
  it("spends exactly 1 credit, counts the game, and draws 10 different cards with 4 different options each", async () => {
    const userId = await newUser(3);
    const result = await started(userId);
    expect(result.balance).toBe(2);
    expect(await getBalance(db, userId)).toBe(2);
    const [user] = await db.select({ played: users.flashcardsPlayed }).from(users).where(eq(users.id, userId));
    expect(user!.played).toBe(1);
    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, userId));
    expect(ledger.map((l) => [l.delta, l.balanceAfter, l.reason])).toEqual([[-1, 2, "flashcards"]]);

    const questions = await db.select().from(flashcardQuestions).where(eq(flashcardQuestions.gameId, result.gameId));
    expect(questions).toHaveLength(10);
    expect(new Set(questions.map((q) => q.cardId)).size).toBe(10);
    const cards = new Map((await db.select().from(flashcardCards)).map((card) => [card.id, card]));
    for (const question of questions) {
      expect(question.optionIds).toHaveLength(OPTIONS_PER_QUESTION);
      expect(question.optionIds).toContain(question.cardId);
      const options = question.optionIds.map((id) => cards.get(id)!);
      expect(new Set(options.map((o) => o.distractorGroup)).size, "near-synonyms are never options of one question").toBe(4);
      expect(options.every((o) => o.categorySlug === "animais")).toBe(true);
    }
  });

  it("does not send the right answer before the learner answers", async () => {
    const userId = await newUser();
    const { gameId } = await started(userId);
    const game = (await loadGame(db, userId, gameId))!;
    const payload = JSON.stringify(game);
    // No answer, translation or right/wrong flag anywhere; the right card's id only among the 4 options.
    expect(payload).not.toMatch(/translation|correctId|"correct"|chosenId/);
    for (const [position, question] of game.questions.entries()) {
      expect(question.answer).toBeNull();
      const right = await rightAnswer(gameId, position);
      const [card] = await db.select().from(flashcardCards).where(eq(flashcardCards.id, right));
      expect(payload).not.toContain(card!.contentId!);
      expect(question.imageUrl).not.toContain(card!.word);
      expect(question.imageUrl).toMatch(/^\/content\/flashcards\/card\.[0-9a-f]{10}\.svg$/);
    }
    expect(Object.keys(game.questions[0]!.options[0]!)).toEqual(["id", "word", "audioUrl"]);
  });

  it("at zero credits refuses with credits_exhausted and creates nothing", async () => {
    const userId = await newUser(0);
    const result = await startGame(db, userId, { kind: "category", slug: "animais" }, NOW);
    expect(result).toEqual({ ok: false, code: "credits_exhausted", balance: 0 });
    expect(await db.select().from(flashcardGames).where(eq(flashcardGames.userId, userId))).toEqual([]);
    const [user] = await db.select({ played: users.flashcardsPlayed }).from(users).where(eq(users.id, userId));
    expect(user!.played).toBe(0);
  });

  it("30 parallel starts on 10 credits make exactly 10 games", async () => {
    const userId = await newUser(10);
    const results = await Promise.all(Array.from({ length: 30 }, () => startGame(db, userId, { kind: "category", slug: "comidas" }, NOW)));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.filter((r) => !r.ok && r.code === "credits_exhausted")).toHaveLength(20);
    expect(await getBalance(db, userId)).toBe(0);
    expect(await db.select().from(flashcardGames).where(eq(flashcardGames.userId, userId))).toHaveLength(10);
    const [user] = await db.select({ played: users.flashcardsPlayed }).from(users).where(eq(users.id, userId));
    expect(user!.played).toBe(10);
  });

  it("an unknown category is not_found and a category with fewer than 4 distinct cards is too_few_cards; neither costs a credit", async () => {
    const userId = await newUser(5);
    expect(await startGame(db, userId, { kind: "category", slug: "nao-existe" }, NOW)).toMatchObject({ ok: false, code: "not_found" });
    await db.insert(flashcardCategories).values({ slug: "pequena", name: "Pequena", tileAsset: "animais" });
    const few = [
      { word: "one", group: "a" },
      { word: "two", group: "b" },
      { word: "three", group: "c" },
      { word: "also three", group: "c" },
    ];
    await db.insert(flashcardCards).values(
      few.map((card) => ({
        categorySlug: "pequena",
        word: card.word,
        translation: card.word,
        distractorGroup: card.group,
        imageAsset: "animais-dog",
      })),
    );
    expect(await startGame(db, userId, { kind: "category", slug: "pequena" }, NOW)).toMatchObject({ ok: false, code: "too_few_cards" });
    expect((await loadPicker(db, userId, NOW)).categories.find((c) => c.slug === "pequena")).toMatchObject({ cardCount: 4, playable: false });
    expect(await getBalance(db, userId)).toBe(5);
  });

  it("exactly 4 distinct groups is enough: the category is playable and a game starts with 4 options per question", async () => {
    const userId = await newUser(5);
    await db.insert(flashcardCategories).values({ slug: "justa", name: "Justa", tileAsset: "animais" });
    await db.insert(flashcardCards).values(
      ["um", "dois", "tres", "quatro"].map((word) => ({
        categorySlug: "justa",
        word,
        translation: word,
        distractorGroup: word,
        imageAsset: "animais-dog",
      })),
    );
    expect((await loadPicker(db, userId, NOW)).categories.find((c) => c.slug === "justa")).toMatchObject({ cardCount: 4, playable: true });
    const started = await startGame(db, userId, { kind: "category", slug: "justa" }, NOW);
    expect(started).toMatchObject({ ok: true });
    expect(await getBalance(db, userId)).toBe(4);
  });

  it("a small category makes a shorter game; hidden and deleted cards are never drawn", async () => {
    const userId = await newUser(5);
    await db.insert(flashcardCategories).values({ slug: "curta", name: "Curta", tileAsset: "animais" });
    const inserted = await db
      .insert(flashcardCards)
      .values(
        ["a", "b", "c", "d", "e", "f"].map((word) => ({
          categorySlug: "curta",
          word,
          translation: word,
          distractorGroup: word,
          imageAsset: "animais-dog",
        })),
      )
      .returning({ id: flashcardCards.id, word: flashcardCards.word });
    await db.update(flashcardCards).set({ hidden: true }).where(eq(flashcardCards.id, inserted[0]!.id));
    await db.update(flashcardCards).set({ deletedAt: NOW }).where(eq(flashcardCards.id, inserted[1]!.id));
    const { gameId } = await started(userId, "curta");
    const game = (await loadGame(db, userId, gameId))!;
    expect(game.questionCount).toBe(4);
    const shown = new Set(game.questions.flatMap((q) => q.options.map((o) => o.word)));
    expect(shown).toEqual(new Set(["c", "d", "e", "f"]));
  });
});

describe("answering", () => {
  it("stores the answer once, says right or wrong with the right option, counts it and finishes the game on the last one", async () => {
    const userId = await newUser();
    const { gameId } = await started(userId);
    const before = (await loadGame(db, userId, gameId))!;
    let correct = 0;
    for (let position = 0; position < before.questionCount; position++) {
      const right = await rightAnswer(gameId, position);
      const chooseRight = position % 3 !== 0;
      const chosenId = chooseRight ? right : wrongOption(before, position, right);
      const result = await answerQuestion(db, userId, { gameId, position, chosenId }, NOW);
      if (chooseRight) correct++;
      expect(result).toMatchObject({
        ok: true,
        correct: chooseRight,
        correctId: right,
        answeredCount: position + 1,
        correctCount: correct,
        finished: position === before.questionCount - 1,
      });
    }
    const after = (await loadGame(db, userId, gameId))!;
    expect(after).toMatchObject({ finished: true, answeredCount: 10, correctCount: correct });
    expect(correct).toBe(6);
    expect(currentPosition(after)).toBeNull();
    expect(after.missed).toHaveLength(4);
    expect(after.missed[0]).toMatchObject({
      word: expect.any(String),
      translation: expect.any(String),
      imageUrl: expect.stringMatching(/\.svg$/),
    });
    expect(after.questions.every((q) => q.answer && q.answer.correct === (q.answer.chosenId === q.answer.correctId))).toBe(true);
  });

  it("refuses a second answer to the same question, an option that is not offered, and another learner's game", async () => {
    const userId = await newUser();
    const { gameId } = await started(userId);
    const game = (await loadGame(db, userId, gameId))!;
    const right = await rightAnswer(gameId, 0);
    const notOffered = (
      await db.select({ id: flashcardCards.id }).from(flashcardCards).where(eq(flashcardCards.categorySlug, "roupas")).limit(1)
    )[0]!.id;

    expect(await answerQuestion(db, userId, { gameId, position: 0, chosenId: notOffered }, NOW)).toEqual({ ok: false, code: "invalid_option" });
    const intruder = await newUser();
    expect(await answerQuestion(db, intruder, { gameId, position: 0, chosenId: right }, NOW)).toEqual({ ok: false, code: "not_found" });
    expect(await loadGame(db, intruder, gameId)).toBeNull();
    expect(await answerQuestion(db, userId, { gameId, position: 10, chosenId: right }, NOW)).toEqual({ ok: false, code: "not_found" });

    expect(await answerQuestion(db, userId, { gameId, position: 0, chosenId: wrongOption(game, 0, right) }, NOW)).toMatchObject({
      ok: true,
      correct: false,
    });
    expect(await answerQuestion(db, userId, { gameId, position: 0, chosenId: right }, NOW)).toEqual({ ok: false, code: "already_answered" });
    const [stored] = await db.select().from(flashcardGames).where(eq(flashcardGames.id, gameId));
    expect(stored).toMatchObject({ answeredCount: 1, correctCount: 0, finishedAt: null });
    expect(currentPosition((await loadGame(db, userId, gameId))!)).toBe(1);
  });

  it("answering twice at the same moment stores one answer", async () => {
    const userId = await newUser();
    const { gameId } = await started(userId);
    const right = await rightAnswer(gameId, 0);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => answerQuestion(db, userId, { gameId, position: 0, chosenId: right }, NOW)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const [stored] = await db.select().from(flashcardGames).where(eq(flashcardGames.id, gameId));
    expect(stored).toMatchObject({ answeredCount: 1, correctCount: 1 });
  });
});

describe("memory and review (FSRS)", () => {
  it("a missed word is due sooner than a known one, is ready for review at once, and leaves review when answered right", async () => {
    const userId = await newUser();
    const { gameId } = await started(userId);
    const game = (await loadGame(db, userId, gameId))!;
    const missedCard = await rightAnswer(gameId, 0);
    const knownCard = await rightAnswer(gameId, 1);
    await answerQuestion(db, userId, { gameId, position: 0, chosenId: wrongOption(game, 0, missedCard) }, NOW);
    await answerQuestion(db, userId, { gameId, position: 1, chosenId: knownCard }, NOW);

    const memory = new Map((await db.select().from(flashcardMemory).where(eq(flashcardMemory.userId, userId))).map((m) => [m.cardId, m]));
    expect(memory.size).toBe(2);
    expect(memory.get(missedCard)!.due.getTime()).toBeLessThan(memory.get(knownCard)!.due.getTime());
    expect(memory.get(missedCard)).toMatchObject({ lastMissed: true, reps: 1 });
    expect(memory.get(knownCard)).toMatchObject({ lastMissed: false, reps: 1 });
    expect((await loadPicker(db, userId, NOW)).reviewCount).toBe(1);

    // The review game asks the missed word first, then the other seen card; then it is known again.
    const review = await startGame(db, userId, { kind: "review" }, NOW, seeded(7));
    expect(review.ok).toBe(true);
    const reviewGameId = (review as { gameId: string }).gameId;
    expect(await rightAnswer(reviewGameId, 0)).toBe(missedCard);
    const reviewGame = (await loadGame(db, userId, reviewGameId))!;
    expect(reviewGame).toMatchObject({ kind: "review", category: null, questionCount: 2 });
    await answerQuestion(db, userId, { gameId: reviewGameId, position: 0, chosenId: missedCard }, NOW);
    expect((await loadPicker(db, userId, NOW)).reviewCount).toBe(0);
    const [again] = await db
      .select()
      .from(flashcardMemory)
      .where(and(eq(flashcardMemory.userId, userId), eq(flashcardMemory.cardId, missedCard)));
    expect(again).toMatchObject({ lastMissed: false, reps: 2 });

    // Later, when FSRS says the known card is due, it is counted for review.
    const later = new Date(memory.get(knownCard)!.due.getTime() + 1000);
    expect((await loadPicker(db, userId, later)).reviewCount).toBeGreaterThanOrEqual(1);
  });

  it("Revisão asks a missed word first, even when it is due later than a known word that is already due", async () => {
    const userId = await newUser();
    // A word known today is due again in some days…
    const first = await started(userId);
    const knownCard = await rightAnswer(first.gameId, 0);
    await answerQuestion(db, userId, { gameId: first.gameId, position: 0, chosenId: knownCard }, NOW);
    const knownDue = (await memoryOf(userId, knownCard)).due;
    // …and a day after that, another word is missed: it is due again minutes after being missed.
    const missedAt = new Date(knownDue.getTime() + 24 * 60 * 60_000);
    const second = await startGame(db, userId, { kind: "category", slug: "animais" }, missedAt, seeded(3));
    if (!second.ok) throw new Error(`game not started: ${second.code}`);
    const secondGame = (await loadGame(db, userId, second.gameId))!;
    let missedPosition = 0;
    while ((await rightAnswer(second.gameId, missedPosition)) === knownCard) missedPosition++;
    const missedCard = await rightAnswer(second.gameId, missedPosition);
    await answerQuestion(
      db,
      userId,
      { gameId: second.gameId, position: missedPosition, chosenId: wrongOption(secondGame, missedPosition, missedCard) },
      missedAt,
    );

    const reviewAt = new Date(missedAt.getTime() + 1000);
    const missed = await memoryOf(userId, missedCard);
    expect(missed.lastMissed).toBe(true);
    expect(missed.due.getTime()).toBeGreaterThan(reviewAt.getTime()); // not due yet: in review only because it was missed
    expect(missed.due.getTime()).toBeGreaterThan(knownDue.getTime());
    expect(knownDue.getTime()).toBeLessThan(reviewAt.getTime()); // the known word is due

    const review = await startGame(db, userId, { kind: "review" }, reviewAt, seeded(11));
    if (!review.ok) throw new Error(`review not started: ${review.code}`);
    expect([await rightAnswer(review.gameId, 0), await rightAnswer(review.gameId, 1)]).toEqual([missedCard, knownCard]);
  });

  it("a review with no card seen yet is refused without spending", async () => {
    const userId = await newUser(2);
    expect(await startGame(db, userId, { kind: "review" }, NOW)).toMatchObject({ ok: false, code: "nothing_to_review" });
    expect(await getBalance(db, userId)).toBe(2);
  });

  it("a category an admin has hidden down to fewer than 4 groups gives no review card (refused without spending); the others still do", async () => {
    const userId = await newUser(5);
    await db.insert(flashcardCategories).values({ slug: "encolhida", name: "Encolhida", tileAsset: "animais" });
    const cards = await db
      .insert(flashcardCards)
      .values(
        ["sun", "moon", "star", "sky"].map((word, index) => ({
          categorySlug: "encolhida",
          word,
          translation: word,
          distractorGroup: `encolhida-${word}`,
          imageAsset: "animais-dog",
          orderIndex: index,
        })),
      )
      .returning({ id: flashcardCards.id });
    const { gameId } = await started(userId, "encolhida");
    const game = (await loadGame(db, userId, gameId))!;
    expect(game.category).toEqual({ slug: "encolhida", name: "Encolhida" });
    const missed = await rightAnswer(gameId, 0);
    await answerQuestion(db, userId, { gameId, position: 0, chosenId: wrongOption(game, 0, missed) }, NOW);
    const hidden = cards.find((card) => card.id !== missed)!.id;
    await db.update(flashcardCards).set({ hidden: true }).where(eq(flashcardCards.id, hidden));
    try {
      expect(await startGame(db, userId, { kind: "review" }, NOW, seeded())).toMatchObject({ ok: false, code: "nothing_to_review" });
      expect(await getBalance(db, userId)).toBe(4);
      // a card missed in a playable category is asked; the unplayable category's card is not
      const other = await started(userId, "lugares");
      const otherGame = (await loadGame(db, userId, other.gameId))!;
      const otherMissed = await rightAnswer(other.gameId, 0);
      await answerQuestion(db, userId, { gameId: other.gameId, position: 0, chosenId: wrongOption(otherGame, 0, otherMissed) }, NOW);
      const review = await startGame(db, userId, { kind: "review" }, NOW, seeded());
      expect(review.ok).toBe(true);
      const asked = (await loadGame(db, userId, (review as { gameId: string }).gameId))!;
      expect(asked.questionCount).toBe(1);
      expect(await rightAnswer((review as { gameId: string }).gameId, 0)).toBe(otherMissed);
    } finally {
      await db.update(flashcardCards).set({ hidden: false }).where(eq(flashcardCards.id, hidden));
    }
  });

  it("deleted cards leave review", async () => {
    const userId = await newUser();
    const { gameId } = await started(userId, "lugares");
    const game = (await loadGame(db, userId, gameId))!;
    const missed = await rightAnswer(gameId, 0);
    await answerQuestion(db, userId, { gameId, position: 0, chosenId: wrongOption(game, 0, missed) }, NOW);
    expect((await loadPicker(db, userId, NOW)).reviewCount).toBe(1);
    await db.execute(sql`update flashcard_cards set deleted_at = now() where id = ${missed}`);
    expect((await loadPicker(db, userId, NOW)).reviewCount).toBe(0);
    await db.execute(sql`update flashcard_cards set deleted_at = null where id = ${missed}`);
  });
});
