// "Meu caderno"'s pronunciation words in Revisão: a word the pronunciation game scored below 60 comes back on its FSRS
// schedule as a card (the word and its sentence; hear it, record it, Verificar), scored on the server by the game's
// own scorer (here our alignment scorer over the fake upstream's OpenAI transcription) with no credit beyond the
// game's one; ≥ 60 is FSRS Good, below is Again; the score is stored once and shown only after; bad recordings, a
// second answer and another learner's game are 4xx with nothing changed, and a failing scorer leaves the card waiting.
import { and, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AnswerData, FlashcardActionData, GamePageData } from "~/features/flashcards/page.server";
import { flashcardQuestions } from "~/features/flashcards/tables";
import { notebookEntries } from "~/features/notebook/tables";
import { pronunciationAttempts } from "~/features/pronunciation/tables";
import type { TodayData } from "~/features/today/plan.server";
import { encodeWav } from "~/lib/audio/wav";
import * as home from "~/routes/_app+/_index";
import * as gameRoute from "~/routes/_app+/_labs+/flashcard-v2.$gameId";
import * as pickerRoute from "~/routes/_app+/_labs+/flashcard-v2._index";
import { getBalance } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { appConfig, creditLedger } from "~/server/schema";
import { useChatWorld } from "./chat-world";
import { freePort } from "./fake-upstream";
import { args, call, insertLearner, multipart, NO_FILE, request, type Part, type TestLearner } from "./harness";
import { insertCorrectionEntry, makeCardsDue } from "./notebook-fixtures";

const PORT = await freePort();
const world = useChatWorld(PORT, "notebook-pronunciation-key");
let db: Database;
beforeAll(() => {
  db = world.db;
});
beforeEach(async () => {
  await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_pronunciation"));
});

const ctx = (env?: Record<string, unknown>) => world.ctx(env);
const say = (text: string) => fetch(`${world.api}/__ai/config?transcript=${encodeURIComponent(text)}`, { method: "POST" });

const postPicker = (who: TestLearner, form: Record<string, string>, env?: Record<string, unknown>) =>
  call<FlashcardActionData>(() => pickerRoute.action(args(request("/flashcard-v2?index", { jar: who.jar, form }), ctx(env))));
const openGame = (who: TestLearner, gameId: string, search = "") =>
  call<GamePageData>(() => gameRoute.loader(args(request(`/flashcard-v2/${gameId}${search}`, { jar: who.jar }), ctx(), { gameId })));
const postGame = (who: TestLearner, gameId: string, form: Record<string, string>) =>
  call<FlashcardActionData | AnswerData>(() =>
    gameRoute.action(args(request(`/flashcard-v2/${gameId}`, { jar: who.jar, form }), ctx(), { gameId })),
  );
const pronounce = (who: TestLearner, gameId: string, fields: Record<string, Part>, env?: Record<string, unknown>) =>
  call<FlashcardActionData | AnswerData>(() =>
    gameRoute.action(args(multipart(`/flashcard-v2/${gameId}`, who.jar, { intent: "pronounce", ...fields }), ctx(env), { gameId })),
  );
const todayOf = async (who: TestLearner) =>
  (await call<{ today: TodayData }>(() => home.loader(args(request("/", { jar: who.jar }), ctx())))).data.today;

/** `seconds` of a quiet tone as 16 kHz mono 16-bit WAV (what the page's recorder sends). */
function wav(seconds = 1) {
  const samples = new Float32Array(Math.round(16_000 * seconds)).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / 16_000));
  return encodeWav(samples, 16_000);
}
const audio = (bytes: Uint8Array = wav(), type = "audio/wav", name = "gravacao.wav"): Part => ({ bytes, name, type });

let made = 0;
/** A due word of the pronunciation game, as notePronunciationAttempt stores it. */
async function weakWord(userId: string, overrides: Partial<typeof notebookEntries.$inferInsert> = {}) {
  const word = overrides.right ?? ["through", "world", "three", "month", "clothes", "think", "north", "earth"][made++ % 8]!;
  const [row] = await db
    .insert(notebookEntries)
    .values({
      userId,
      kind: "pronunciation",
      wrong: word,
      right: word,
      rightKey: word.toLowerCase(),
      explanation: `Sua pronúncia de “${word}” teve nota 40 de 100 no nível 1.`,
      alternatives: [],
      source: "pronunciation",
      details: { level: 1, sentence: `I ${word} about it.`, score: 40 },
      due: new Date(Date.now() - 60_000),
      ...overrides,
    })
    .returning();
  return row!;
}

async function startReview(who: TestLearner, env?: Record<string, unknown>) {
  const started = await postPicker(who, { intent: "review" }, env);
  expect(started.status).toBe(303);
  return /\/flashcard-v2\/([0-9a-f-]{36})$/.exec(started.location ?? "")![1]!;
}

const entryRow = async (id: string) => (await db.select().from(notebookEntries).where(eq(notebookEntries.id, id)))[0]!;
const questionRow = async (gameId: string, position = 0) =>
  (
    await db
      .select()
      .from(flashcardQuestions)
      .where(and(eq(flashcardQuestions.gameId, gameId), eq(flashcardQuestions.position, position)))
  )[0]!;

describe("Revisão's pronunciation cards", () => {
  it("asks a due word of the pronunciation game (not a dismissed, mastered or later one): the word and its sentence, no score", async () => {
    const who = await insertLearner(db, { credits: 5 });
    const due = await weakWord(who.id, { right: "thought", wrong: "thought", rightKey: "thought" });
    await weakWord(who.id, { dismissedAt: new Date() });
    await weakWord(who.id, { state: "mastered" });
    await weakWord(who.id, { due: new Date(Date.now() + 86_400_000) });

    expect((await todayOf(who)).items[0]).toMatchObject({ key: "mistakes", title: "Revisar seus erros (1)", done: false });
    const gameId = await startReview(who);
    expect(await getBalance(db, who.id)).toBe(4);
    const page = await openGame(who, gameId);
    expect(page.data.game).toMatchObject({ kind: "review", questionCount: 1 });
    const [question] = page.data.game.questions;
    expect(question).toMatchObject({
      imageUrl: null,
      correction: null,
      pronunciation: { word: "thought", sentence: "I thought about it." },
      options: [],
      answer: null,
    });
    expect(await questionRow(gameId)).toMatchObject({ entryId: due.id, optionTexts: null, chosenIndex: null, correct: null });
    expect(JSON.stringify(page.data.game)).not.toMatch(/score|explanation|"correct"/);
  });

  it("is left out where nothing can score a recording (no scorer, or the pronunciation game turned off)", async () => {
    const who = await insertLearner(db);
    await weakWord(who.id);
    const refused = await postPicker(who, { intent: "review" }, {});
    expect([refused.status, refused.data.code]).toEqual([409, "nothing_to_review"]);
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_pronunciation"));
    expect((await postPicker(who, { intent: "review" })).status).toBe(409);
    expect(await getBalance(db, who.id)).toBe(10);
  });

  it("a recording scored ≥ 60 (without the page's script) moves the schedule later, shows the score after, costs nothing more", async () => {
    const who = await insertLearner(db, { credits: 5 });
    const due = await weakWord(who.id, { right: "weather", wrong: "weather", rightKey: "weather" });
    const gameId = await startReview(who);
    await say("weather");

    const answered = await pronounce(who, gameId, { position: "0", audio: audio() });
    expect([answered.status, answered.location]).toEqual([303, `/flashcard-v2/${gameId}?q=1#resposta`]);
    const stored = await questionRow(gameId);
    expect(stored.correct).toBe(true);
    expect(stored.chosenIndex).toBeGreaterThanOrEqual(60);
    const after = await entryRow(due.id);
    expect(after).toMatchObject({ reps: 1, state: "practising" });
    expect(after.due.getTime()).toBeGreaterThan(Date.now() + 86_400_000);

    const page = await openGame(who, gameId, "?q=1");
    expect(page.data.game.questions[0]!.answer).toEqual({
      chosenId: "",
      correctId: "",
      correct: true,
      word: "weather",
      translation: "",
      score: stored.chosenIndex,
    });
    expect(page.data.result).toMatchObject({ correct: 1, incorrect: 0 });
    // One credit for the game, none for the scoring; no pronunciation attempt is made of it.
    expect(await getBalance(db, who.id)).toBe(4);
    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, who.id));
    expect(ledger.map((e) => [e.delta, e.reason])).toEqual([[-1, "flashcards"]]);
    expect(await db.select().from(pronunciationAttempts).where(eq(pronunciationAttempts.userId, who.id))).toHaveLength(0);
    expect((await todayOf(who)).items[0]).toMatchObject({ key: "mistakes", done: true });
  });

  it("a recording scored < 60 (with the page's script) keeps the word due soon and says its score", async () => {
    const who = await insertLearner(db);
    const due = await weakWord(who.id, { right: "birthday", wrong: "birthday", rightKey: "birthday" });
    const gameId = await startReview(who);
    await say("banana");

    const answered = await pronounce(who, gameId, { position: "0", audio: audio(), via: "fetch" });
    expect(answered.status).toBe(200);
    const outcome = answered.data as AnswerData;
    expect(outcome.answer).toMatchObject({ position: 0, correct: false, word: "birthday" });
    expect(outcome.answer.score).toBeLessThan(60);
    expect(outcome).toMatchObject({ answeredCount: 1, correctCount: 0, finished: true });
    expect(await questionRow(gameId)).toMatchObject({ correct: false, chosenIndex: outcome.answer.score });
    const after = await entryRow(due.id);
    expect(after.reps).toBe(1);
    expect(after.due.getTime()).toBeLessThan(Date.now() + 2 * 86_400_000);
    expect(await getBalance(db, who.id)).toBe(9);
  });

  it("counts among the 5 corrections of a Revisão with due cards, one after the other", async () => {
    const who = await insertLearner(db);
    for (let i = 0; i < 3; i++) await weakWord(who.id);
    for (let i = 0; i < 4; i++) await insertCorrectionEntry(db, who.id, { due: new Date(Date.now() - 30_000 + i) });
    await makeCardsDue(db, who.id);
    const gameId = await startReview(who);
    const rows = await db.select().from(flashcardQuestions).where(eq(flashcardQuestions.gameId, gameId)).orderBy(flashcardQuestions.position);
    expect(rows).toHaveLength(10);
    expect(rows.map((row) => (row.entryId ? "e" : "c")).join("")).toBe("cecececece");
    // The 5 soonest due entries: the 3 words (due first) and 2 of the corrections.
    expect(rows.filter((row) => row.entryId && row.optionTexts === null)).toHaveLength(3);
  });

  it("refuses no file, an empty, short, huge or non-audio file, a second answer and another learner's game — 4xx, nothing changed", async () => {
    const who = await insertLearner(db);
    const due = await weakWord(who.id);
    const gameId = await startReview(who);
    await say(due.right);
    const cases: [Record<string, Part>, number, string][] = [
      [{ position: "0" }, 400, "empty_audio"],
      [{ position: "0", audio: NO_FILE }, 400, "empty_audio"],
      [{ position: "0", audio: audio(wav(1).slice(0, 1000)) }, 400, "audio_too_short"],
      [{ position: "0", audio: audio(new TextEncoder().encode("não sou um áudio ".repeat(200)), "audio/wav", "falso.wav") }, 415, "not_audio"],
      [{ position: "0", audio: audio(wav(31)) }, 413, "audio_too_long"],
      [{ position: "7", audio: audio() }, 404, "question_not_found"],
    ];
    for (const [fields, status, code] of cases) {
      const refused = await pronounce(who, gameId, fields);
      expect([refused.status, (refused.data as FlashcardActionData).code], code).toEqual([status, code]);
      expect((refused.data as FlashcardActionData).result.error?.[""]?.[0]).toMatch(/[ãçéáíóú]|Pergunta/);
    }
    // Bigger than the upload cap: the body is refused before it is read.
    const huge = await pronounce(who, gameId, { position: "0", audio: audio(new Uint8Array(9 * 1024 * 1024)) });
    expect(huge.status).toBe(413);
    // A card's option on a pronunciation word, and another learner's game.
    const option = await postGame(who, gameId, { intent: "answer", position: "0", optionId: "0" });
    expect([option.status, (option.data as FlashcardActionData).code]).toEqual([400, "invalid_option"]);
    const other = await insertLearner(db);
    const foreign = await pronounce(other, gameId, { position: "0", audio: audio() });
    expect([foreign.status, (foreign.data as FlashcardActionData).code]).toEqual([404, "question_not_found"]);
    expect(await questionRow(gameId)).toMatchObject({ chosenIndex: null, correct: null, answeredAt: null });
    expect(await entryRow(due.id)).toMatchObject({ reps: 0, lastReview: null });

    expect((await pronounce(who, gameId, { position: "0", audio: audio() })).status).toBe(303);
    const first = await questionRow(gameId);
    const again = await pronounce(who, gameId, { position: "0", audio: audio() });
    expect([again.status, (again.data as FlashcardActionData).code]).toEqual([409, "already_answered"]);
    expect(await questionRow(gameId)).toEqual(first);
    expect((await entryRow(due.id)).reps).toBe(1);
    expect(await getBalance(db, who.id)).toBe(9);
  });

  it("refuses a recording for a correction card (it asks for an option)", async () => {
    const who = await insertLearner(db);
    const right = "I am 25 years old";
    await db.insert(notebookEntries).values({
      userId: who.id,
      kind: "false_friend",
      wrong: "I have 25 years",
      right,
      rightKey: right.toLowerCase(),
      explanation: "Idade se diz com “to be”.",
      alternatives: ["a", "b", "c"],
      source: "chat",
      details: { sentence: "I have 25 years." },
      due: new Date(Date.now() - 60_000),
    });
    const gameId = await startReview(who);
    const refused = await pronounce(who, gameId, { position: "0", audio: audio() });
    expect([refused.status, (refused.data as FlashcardActionData).code]).toEqual([400, "not_pronunciation"]);
    expect(await questionRow(gameId)).toMatchObject({ chosenIndex: null, correct: null });
  });

  it("a failing or missing scorer is a pt-BR 502/503 that leaves the card unanswered; the next recording is scored", async () => {
    const who = await insertLearner(db);
    const due = await weakWord(who.id);
    const gameId = await startReview(who);

    await world.hook("mode=error&status=500");
    const failed = await pronounce(who, gameId, { position: "0", audio: audio() });
    expect([failed.status, (failed.data as FlashcardActionData).code]).toEqual([502, "scorer_failed"]);
    expect((failed.data as FlashcardActionData).result.error?.[""]).toEqual([
      "Erro ao processar áudio",
      "Não foi possível avaliar a gravação. O cartão continua esperando: grave de novo.",
    ]);
    await world.hook("mode=malformed");
    expect((await pronounce(who, gameId, { position: "0", audio: audio() })).status).toBe(502);
    const unavailable = await pronounce(who, gameId, { position: "0", audio: audio() }, {});
    expect([unavailable.status, (unavailable.data as FlashcardActionData).code]).toEqual([503, "scoring_unavailable"]);
    expect(await questionRow(gameId)).toMatchObject({ chosenIndex: null, correct: null, answeredAt: null });
    expect(await entryRow(due.id)).toMatchObject({ reps: 0, lastReview: null });
    expect(await getBalance(db, who.id)).toBe(9);

    await say(due.right);
    expect((await pronounce(who, gameId, { position: "0", audio: audio() })).status).toBe(303);
    expect(await questionRow(gameId)).toMatchObject({ correct: true });
    expect(await getBalance(db, who.id)).toBe(9);
  });
});
