// "Meu caderno" on FSRS's schedule: Revisão asks the learner's due corrections beside the due flashcards (one credit
// per game), keeps the answer on the server until Verificar, moves each entry's schedule with the answer, and "Hoje"
// names them; a flashcard word missed twice becomes a vocabulary entry whose schedule stays the card's.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AnswerData, FlashcardActionData, GamePageData } from "~/features/flashcards/page.server";
import { flashcardCards, flashcardMemory, flashcardQuestions } from "~/features/flashcards/tables";
import type { NotebookPageData } from "~/features/notebook/page.server";
import { notebookEntries } from "~/features/notebook/tables";
import type { TodayData } from "~/features/today/plan.server";
import * as home from "~/routes/_app+/_index";
import * as gameRoute from "~/routes/_app+/_labs+/flashcard-v2.$gameId";
import * as pickerRoute from "~/routes/_app+/_labs+/flashcard-v2._index";
import * as caderno from "~/routes/_app+/caderno";
import { getBalance } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { args, call, contextFor, createTestDb, insertLearner, request, type TestLearner } from "./harness";
import { insertCorrectionEntry, makeCardsDue } from "./notebook-fixtures";

let db: Database;
beforeAll(async () => {
  ({ db } = await createTestDb());
});

const ctx = () => contextFor(db);
const postPicker = (who: TestLearner, form: Record<string, string>) =>
  call<FlashcardActionData>(() => pickerRoute.action(args(request("/flashcard-v2?index", { jar: who.jar, form }), ctx())));
const openGame = (who: TestLearner, gameId: string, search = "") =>
  call<GamePageData>(() => gameRoute.loader(args(request(`/flashcard-v2/${gameId}${search}`, { jar: who.jar }), ctx(), { gameId })));
const postGame = (who: TestLearner, gameId: string, form: Record<string, string>) =>
  call<FlashcardActionData | AnswerData>(() =>
    gameRoute.action(args(request(`/flashcard-v2/${gameId}`, { jar: who.jar, form }), ctx(), { gameId })),
  );
const todayOf = async (who: TestLearner) =>
  (await call<{ today: TodayData }>(() => home.loader(args(request("/", { jar: who.jar }), ctx())))).data.today;

async function startReview(who: TestLearner) {
  const started = await postPicker(who, { intent: "review" });
  expect(started.status).toBe(303);
  return /\/flashcard-v2\/([0-9a-f-]{36})$/.exec(started.location ?? "")![1]!;
}

const entryRow = async (id: string) => (await db.select().from(notebookEntries).where(eq(notebookEntries.id, id)))[0]!;

describe("Revisão's correction cards", () => {
  it("asks the due corrections only (not dismissed, mastered, not due, a flashcard word, nor a pronunciation kind the game did not make), for one credit", async () => {
    const who = await insertLearner(db, { credits: 5 });
    const due = await insertCorrectionEntry(db, who.id);
    await insertCorrectionEntry(db, who.id, { dismissedAt: new Date() });
    await insertCorrectionEntry(db, who.id, { state: "mastered" });
    await insertCorrectionEntry(db, who.id, { due: new Date(Date.now() + 86_400_000) });
    await insertCorrectionEntry(db, who.id, { kind: "pronunciation", alternatives: [] });
    await insertCorrectionEntry(db, who.id, { source: "flashcards", kind: "vocabulary", alternatives: [] });
    const other = await insertLearner(db);
    await insertCorrectionEntry(db, other.id);

    expect((await todayOf(who)).items[0]).toMatchObject({ key: "mistakes", title: "Revisar seus erros (1)", done: false });
    const gameId = await startReview(who);
    expect(await getBalance(db, who.id)).toBe(4);
    const page = await openGame(who, gameId);
    expect(page.data.game).toMatchObject({ kind: "review", questionCount: 1 });
    const [question] = page.data.game.questions;
    expect(question!.correction).toEqual({ sentence: "Hello! I have 30 years and I live in Recife.", wrong: "I have 30 years" });
    expect(question!.imageUrl).toBeNull();
    expect(question!.answer).toBeNull();
    expect(question!.options.map((o) => o.word).sort()).toEqual([due.right, ...due.alternatives].sort());
    expect(question!.options.map((o) => o.id)).toEqual(["0", "1", "2", "3"]);
    // Before Verificar, nothing says which option is right.
    expect(JSON.stringify(page.data.game)).not.toMatch(/explanation|correctId|"correct"|to be/);
  });

  it("Verificar without the page's script: the right form moves the schedule later; then the game ends and Hoje ticks", async () => {
    const who = await insertLearner(db);
    const due = await insertCorrectionEntry(db, who.id);
    const gameId = await startReview(who);
    const [row] = await db.select().from(flashcardQuestions).where(eq(flashcardQuestions.gameId, gameId));
    const right = row!.optionTexts!.indexOf(due.right);

    const answered = await postGame(who, gameId, { intent: "answer", position: "0", optionId: String(right) });
    expect([answered.status, answered.location]).toEqual([303, `/flashcard-v2/${gameId}?q=1#resposta`]);
    const after = await entryRow(due.id);
    expect(after).toMatchObject({ reps: 1, state: "practising" });
    expect(after.due.getTime()).toBeGreaterThan(Date.now() + 86_400_000);
    expect(after.lastReview).not.toBeNull();

    const page = await openGame(who, gameId, "?q=1");
    expect(page.data.game.questions[0]!.answer).toEqual({
      chosenId: String(right),
      correctId: String(right),
      correct: true,
      word: due.right,
      translation: "",
      explanation: due.explanation,
    });
    expect(page.data.result).toMatchObject({ correct: 1, incorrect: 0 });
    expect((await todayOf(who)).items[0]).toMatchObject({ key: "mistakes", title: "Revisar seus erros", done: true });
    // The entry is no longer due: the plan offers no Revisão, and a new one has nothing to ask.
    expect((await postPicker(who, { intent: "review" })).status).toBe(409);
  });

  it("with the page's script: a wrong form is shown with the right one and keeps the entry due soon", async () => {
    const who = await insertLearner(db);
    const due = await insertCorrectionEntry(db, who.id);
    const gameId = await startReview(who);
    const [row] = await db.select().from(flashcardQuestions).where(eq(flashcardQuestions.gameId, gameId));
    const right = row!.optionTexts!.indexOf(due.right);
    const wrong = (right + 1) % 4;

    const answered = await postGame(who, gameId, { intent: "answer", position: "0", optionId: String(wrong), via: "fetch" });
    expect(answered.status).toBe(200);
    expect((answered.data as AnswerData).answer).toEqual({
      position: 0,
      chosenId: String(wrong),
      correctId: String(right),
      correct: false,
      word: due.right,
      translation: "",
      explanation: due.explanation,
    });
    const after = await entryRow(due.id);
    expect(after.reps).toBe(1);
    expect(after.due.getTime()).toBeLessThan(Date.now() + 2 * 86_400_000);
    expect(after.state).toBe("practising");
  });

  it("refuses a place out of range, a card id, a second answer and another learner — 4xx, nothing changed", async () => {
    const who = await insertLearner(db);
    const due = await insertCorrectionEntry(db, who.id);
    const gameId = await startReview(who);
    const [card] = await db.select({ id: flashcardCards.id }).from(flashcardCards).limit(1);

    for (const optionId of ["4", "7", "-1", "01", card!.id]) {
      const refused = await postGame(who, gameId, { intent: "answer", position: "0", optionId });
      expect([refused.status, (refused.data as FlashcardActionData).code], optionId).toEqual([400, "invalid_option"]);
    }
    const other = await insertLearner(db);
    expect((await postGame(other, gameId, { intent: "answer", position: "0", optionId: "0" })).status).toBe(404);
    expect(await entryRow(due.id)).toMatchObject({ reps: 0, lastReview: null });

    expect((await postGame(who, gameId, { intent: "answer", position: "0", optionId: "0" })).status).toBe(303);
    const again = await postGame(who, gameId, { intent: "answer", position: "0", optionId: "1" });
    expect([again.status, (again.data as FlashcardActionData).code]).toEqual([409, "already_answered"]);
    expect((await entryRow(due.id)).reps).toBe(1);
  });

  it("mixes at most 5 corrections with due cards, one after the other", async () => {
    const who = await insertLearner(db);
    for (let i = 0; i < 7; i++) await insertCorrectionEntry(db, who.id);
    await makeCardsDue(db, who.id);
    const gameId = await startReview(who);
    const rows = await db.select().from(flashcardQuestions).where(eq(flashcardQuestions.gameId, gameId)).orderBy(flashcardQuestions.position);
    expect(rows).toHaveLength(10);
    expect(rows.map((row) => (row.entryId ? "e" : "c")).join("")).toBe("cecececece");
  });

  it("an interval of 21 days or more marks the entry mastered", async () => {
    const who = await insertLearner(db);
    const due = await insertCorrectionEntry(db, who.id, {
      reps: 4,
      stability: 40,
      difficulty: 3,
      scheduledDays: 15,
      elapsedDays: 15,
      fsrsState: 2,
      lastReview: new Date(Date.now() - 15 * 86_400_000),
    });
    const gameId = await startReview(who);
    const [row] = await db.select().from(flashcardQuestions).where(eq(flashcardQuestions.gameId, gameId));
    await postGame(who, gameId, { intent: "answer", position: "0", optionId: String(row!.optionTexts!.indexOf(due.right)) });
    const after = await entryRow(due.id);
    expect(after.state).toBe("mastered");
    expect(after.masteredAt).not.toBeNull();
    expect(after.scheduledDays).toBeGreaterThanOrEqual(21);
  });
});

describe("a flashcard word missed twice", () => {
  it("becomes one vocabulary entry, counted after, scheduled by its card (never a correction card)", async () => {
    const who = await insertLearner(db, { credits: 10 });
    const play = async () => {
      const started = await postPicker(who, { intent: "start", category: "animais" });
      return /\/flashcard-v2\/([0-9a-f-]{36})$/.exec(started.location ?? "")![1]!;
    };
    const missCard = async (gameId: string, cardId?: string) => {
      const rows = await db.select().from(flashcardQuestions).where(eq(flashcardQuestions.gameId, gameId));
      const question = rows.find((row) => (cardId ? row.cardId === cardId : true));
      if (!question) return null;
      const wrong = question.optionIds.find((id) => id !== question.cardId)!;
      expect((await postGame(who, gameId, { intent: "answer", position: String(question.position), optionId: wrong })).status).toBe(303);
      return { cardId: question.cardId!, wrong };
    };
    const vocabulary = () =>
      db
        .select()
        .from(notebookEntries)
        .where(and(eq(notebookEntries.userId, who.id), eq(notebookEntries.source, "flashcards")));

    const first = (await missCard(await play()))!;
    expect(await vocabulary()).toHaveLength(0);
    // Play until the same card comes up again, and miss it once more.
    let second = null;
    for (let tries = 0; tries < 8 && !second; tries++) second = await missCard(await play(), first.cardId);
    expect(second).not.toBeNull();
    const [card] = await db.select().from(flashcardCards).where(eq(flashcardCards.id, first.cardId));
    const [chosen] = await db.select().from(flashcardCards).where(eq(flashcardCards.id, second!.wrong));
    const entries = await vocabulary();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: "vocabulary",
      wrong: chosen!.word,
      right: card!.word,
      count: 1,
      details: { cardId: card!.id, category: "Animais" },
    });
    const [memory] = await db
      .select({ missCount: flashcardMemory.missCount })
      .from(flashcardMemory)
      .where(and(eq(flashcardMemory.userId, who.id), eq(flashcardMemory.cardId, card!.id)));
    expect(memory!.missCount).toBe(2);
    // Meu caderno shows where: the flashcards' category.
    const notebook = await call<NotebookPageData>(() => caderno.loader(args(request("/caderno", { jar: who.jar }), ctx())));
    const shown = notebook.data.groups.find((group) => group.kind === "vocabulary")!.entries[0]!;
    expect(shown).toMatchObject({ wrong: chosen!.word, right: card!.word, where: { href: "/flashcard-v2", label: "Flashcards · Animais" } });
    // Its schedule is the card's: Revisão asks the card, never a correction for it.
    const gameId = await startReview(who);
    const rows = await db.select().from(flashcardQuestions).where(eq(flashcardQuestions.gameId, gameId));
    expect(rows.some((row) => row.entryId === entries[0]!.id)).toBe(false);
    expect(rows.some((row) => row.cardId === card!.id)).toBe(true);
  });
});
