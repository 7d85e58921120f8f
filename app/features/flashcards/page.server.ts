// Loaders and actions of the flashcard pages (/flashcard-v2 and /flashcard-v2/<gameId>), over the game
// workflows of game.server.ts. Order of checks (decision 0010): path id → signed in → body →
// existence/ownership → flag → credits. Successes redirect (303, so a reload never posts twice);
// refusals answer the conform reply with [title, description] and a code, with a 4xx status (a pronunciation
// card's scorer that fails: 502/503/504, the card left unanswered).
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, type AppLoadContext } from "react-router";
import { z } from "zod";
import {
  assessRecording,
  checkRecording,
  MAX_ATTEMPT_UPLOAD_BYTES,
  PRONUNCIATION_REFUSAL_STATUS,
  PRONUNCIATION_REFUSALS,
  pronunciationScorer,
  type PronunciationRefusal,
} from "~/features/pronunciation";
import { isUuid } from "~/lib/ids";
import { forgetUserSessions, requireUser } from "~/server/auth.server";
import { isFeatureEnabled, requireFeature } from "~/server/flags.server";
import { FORM_OVERHEAD_BYTES, notFound, parseForm, requireUuidParam } from "~/server/request.server";
import { FEEDBACK } from "./content.server";
import { gamePath } from "./game-view";
import {
  answerQuestion,
  currentPosition,
  loadGame,
  loadPicker,
  loadPronunciationQuestion,
  startGame,
  wordAccuracy,
  type AnswerResult,
  type AnswerView,
  type Choice,
  type GameTarget,
  type GameView,
} from "./game.server";
import { percentOf, tierOf, type Tier } from "./plan";
import { REFUSALS, type FlashcardRefusal } from "./texts";

type Args = { request: Request; context: AppLoadContext; params: Record<string, string | undefined> };

/**
 * What a refused form post answers (the page shows [title, description] and branches on `code`). A pronunciation
 * card's recording refused by the pronunciation game's rules has its codes, words and statuses (where both games
 * have a code, the flashcards' words: no credit is at stake in a card).
 */
export type FlashcardActionData = { result: SubmissionResult<string[]>; code: FlashcardRefusal | PronunciationRefusal };

type Reply = { reply: (options: { formErrors: string[] }) => SubmissionResult<string[]> };

const STATUS: Record<FlashcardRefusal, number> = {
  credits_exhausted: 402,
  category_not_found: 404,
  question_not_found: 404,
  too_few_cards: 409,
  nothing_to_review: 409,
  already_answered: 409,
  invalid_option: 400,
  no_option: 400,
  invalid: 400,
  not_pronunciation: 400,
  scoring_unavailable: 503,
  scorer_timeout: 504,
  scorer_failed: 502,
};

const isFlashcardRefusal = (code: string): code is FlashcardRefusal => Object.hasOwn(REFUSALS, code);

function refuse(submission: Reply, code: FlashcardRefusal | PronunciationRefusal) {
  const [words, status] = isFlashcardRefusal(code)
    ? [REFUSALS[code], STATUS[code]]
    : [PRONUNCIATION_REFUSALS[code], PRONUNCIATION_REFUSAL_STATUS[code]];
  const result = submission.reply({ formErrors: [...words] });
  return data({ result, code } satisfies FlashcardActionData, { status, headers: { "Cache-Control": "no-store" } });
}

/** A body that matched no form: the reply of conform's failed parse. */
const invalidBody = (submission: Reply) => refuse(submission, "invalid");

const START_REFUSALS = {
  credits_exhausted: "credits_exhausted",
  not_found: "category_not_found",
  too_few_cards: "too_few_cards",
  nothing_to_review: "nothing_to_review",
} as const satisfies Record<string, FlashcardRefusal>;

/** Whether a recording can be scored now: the pronunciation game is on and has a scorer. */
async function canScore(context: AppLoadContext): Promise<boolean> {
  return pronunciationScorer(context) !== null && (await isFeatureEnabled(context, "feature_pronunciation"));
}

/** Revisão, with the pronunciation game's words when a recording can be scored (a card nothing could score is left out). */
const reviewTarget = async (context: AppLoadContext): Promise<GameTarget> => ({ kind: "review", pronunciation: await canScore(context) });

/** Starts a game (1 credit) and goes to it, or answers why not. */
async function startAndGo(context: AppLoadContext, userId: string, target: GameTarget, submission: Reply) {
  const started = await startGame(context.db, userId, target, new Date());
  if (!started.ok) return refuse(submission, START_REFUSALS[started.code]);
  throw redirect(gamePath(started.gameId), 303);
}

// ——— the picker ———

export async function loadPickerPage({ request, context }: Args) {
  const user = await requireUser(request, context);
  await requireFeature(context, "feature_flashcards");
  const picker = await loadPicker(context.db, user.id, new Date(), { pronunciation: await canScore(context) });
  // userId: whose offline downloads the picker shows (this browser may hold another learner's)
  return { picker, isAdmin: user.isAdmin, userId: user.id };
}

export type PickerPageData = Awaited<ReturnType<typeof loadPickerPage>>;

/** A tile's form: a category's game (`intent=start`, `category`) or a review game (`intent=review`). */
const pickerSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start"), category: z.string().trim().min(1).max(100) }),
  z.object({ intent: z.literal("review") }),
]);

export async function pickerAction({ request, context }: Args) {
  const user = await requireUser(request, context);
  const submission = await parseForm(request, pickerSchema);
  if (submission.status !== "success") return invalidBody(submission);
  await requireFeature(context, "feature_flashcards");
  const input = submission.value;
  return startAndGo(
    context,
    user.id,
    input.intent === "review" ? await reviewTarget(context) : { kind: "category", slug: input.category },
    submission,
  );
}

// ——— a game ———

const gameNotFound = () => notFound("Jogo não encontrado");

/** `?q=<n>` (1-based) when it names a question of the game; otherwise null. */
export function questionFromSearch(value: string | null, questionCount: number): number | null {
  if (value === null || !/^\d{1,3}$/.test(value)) return null;
  const q = Number(value);
  return q >= 1 && q <= questionCount ? q - 1 : null;
}

export type GameResult = { tier: Tier; percent: number; correct: number; incorrect: number; imageUrl: string; soundUrl: string };

export type GamePageData = {
  game: GameView;
  /** The question shown (0-based), or null for the result screen. */
  position: number | null;
  result: GameResult | null;
  feedback: typeof FEEDBACK;
};

/**
 * `?q=<n>` shows question n (answered or not); without it, the first unanswered question, or the result
 * once every question is answered — so a reload resumes where the learner was.
 */
export async function loadGamePage({ request, context, params }: Args): Promise<GamePageData> {
  const gameId = requireUuidParam(params, "gameId", gameNotFound);
  const user = await requireUser(request, context);
  const game = await loadGame(context.db, user.id, gameId);
  if (!game) throw gameNotFound();
  await requireFeature(context, "feature_flashcards");
  const asked = questionFromSearch(new URL(request.url).searchParams.get("q"), game.questions.length);
  const position = asked ?? (game.finished ? null : currentPosition(game));
  const tier = tierOf(game.correctCount, game.questionCount);
  const result: GameResult | null = game.finished
    ? {
        tier,
        percent: percentOf(game.correctCount, game.questionCount),
        correct: game.correctCount,
        incorrect: game.answeredCount - game.correctCount,
        ...FEEDBACK.tiers[tier],
      }
    : null;
  return { game, position, result, feedback: FEEDBACK };
}

/**
 * The game page's forms: an answer (`position`, `optionId`; `via=fetch` when the page's script sends it
 * and wants the outcome as data instead of a redirect), a pronunciation card's recording (`pronounce`: the `audio`
 * file of a multipart form, from the page's recorder or the file input) and `restart` (a new game like this one).
 */
const gameSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("answer"),
    position: z.number().int().min(0).max(999),
    optionId: z.string().max(100).optional(),
    via: z.literal("fetch").optional(),
  }),
  z.object({
    intent: z.literal("pronounce"),
    position: z.number().int().min(0).max(999),
    audio: z.instanceof(File).optional(),
    via: z.literal("fetch").optional(),
  }),
  z.object({ intent: z.literal("restart") }),
]);

/** An option as posted: a card's id, or a correction's place (0–3). Null for anything else. */
export function choiceOf(optionId: string): Exclude<Choice, { score: number }> | null {
  if (/^[0-3]$/.test(optionId)) return { chosenIndex: Number(optionId) };
  return isUuid(optionId) ? { chosenId: optionId.toLowerCase() } : null;
}

/** The outcome of an answer sent by the page's script. */
export type AnswerData = {
  answer: AnswerView & { position: number };
  answeredCount: number;
  correctCount: number;
  finished: boolean;
};

export async function gameAction({ request, context, params }: Args) {
  const gameId = requireUuidParam(params, "gameId", gameNotFound);
  const user = await requireUser(request, context);
  // A pronunciation card's recording is the pronunciation game's upload, with its cap.
  const submission = await parseForm(request, gameSchema, { maxBytes: MAX_ATTEMPT_UPLOAD_BYTES + FORM_OVERHEAD_BYTES });
  if (submission.status !== "success") return invalidBody(submission);
  const input = submission.value;

  if (input.intent === "restart") {
    const game = await loadGame(context.db, user.id, gameId);
    if (!game) throw gameNotFound();
    await requireFeature(context, "feature_flashcards");
    if (game.kind === "review") return startAndGo(context, user.id, await reviewTarget(context), submission);
    if (!game.category) return refuse(submission, "category_not_found");
    return startAndGo(context, user.id, { kind: "category", slug: game.category.slug }, submission);
  }

  if (input.intent === "pronounce") return pronounce(context, user.id, gameId, input, submission);

  if (!input.optionId) return refuse(submission, "no_option");
  const choice = choiceOf(input.optionId);
  if (!choice) return refuse(submission, "invalid_option");
  await requireFeature(context, "feature_flashcards");
  const outcome = await answerQuestion(context.db, user.id, { gameId, position: input.position, ...choice }, new Date());
  const chosenId = "chosenId" in choice ? choice.chosenId : String(choice.chosenIndex);
  return answered(context, user.id, gameId, { ...input, chosenId }, outcome, submission);
}

/** After an answer: the refusal, or the outcome (data for the page's script, else back to the question's feedback). */
function answered(
  context: AppLoadContext,
  userId: string,
  gameId: string,
  input: { position: number; chosenId: string; via?: "fetch" | undefined },
  outcome: AnswerResult,
  submission: Reply,
) {
  if (!outcome.ok) return refuse(submission, outcome.code === "not_found" ? "question_not_found" : outcome.code);
  // The answer moved the card's review date, and a finished game is today's activity: "Hoje" kept meanwhile is dropped.
  forgetUserSessions(context, userId);
  if (input.via === "fetch") {
    const { correct, correctId, word, translation, explanation, score, answeredCount, correctCount, finished } = outcome;
    return data({
      answer: {
        position: input.position,
        chosenId: input.chosenId,
        correctId,
        correct,
        word,
        translation,
        ...(explanation ? { explanation } : {}),
        ...(score === undefined ? {} : { score }),
      },
      answeredCount,
      correctCount,
      finished,
    } satisfies AnswerData);
  }
  throw redirect(`${gamePath(gameId, input.position + 1)}#resposta`, 303);
}

/**
 * A pronunciation card's recording: the pronunciation game's rules for the audio, then the learner's own unanswered
 * card, the flag, the scorer (its failures leave the card unanswered), and the word's score stored once as the answer.
 * No credit: the game's one covers it.
 */
async function pronounce(
  context: AppLoadContext,
  userId: string,
  gameId: string,
  input: { position: number; audio?: File | undefined; via?: "fetch" | undefined },
  submission: Reply,
) {
  if (!input.audio) return refuse(submission, "empty_audio");
  const checked = checkRecording(new Uint8Array(await input.audio.arrayBuffer()));
  if (!checked.ok) return refuse(submission, checked.code);
  const question = await loadPronunciationQuestion(context.db, userId, gameId, input.position);
  if (!question.ok) return refuse(submission, question.code === "not_found" ? "question_not_found" : question.code);
  await requireFeature(context, "feature_flashcards");
  const scorer = pronunciationScorer(context);
  if (!scorer || !(await isFeatureEnabled(context, "feature_pronunciation"))) return refuse(submission, "scoring_unavailable");
  if (!scorer.acceptedTypes.includes(checked.recording.mimeType)) return refuse(submission, "unsupported_audio");
  const assessed = await assessRecording(scorer, checked.recording, { referenceText: question.word, level: question.level, userId });
  if (!assessed.ok) return refuse(submission, assessed.code);
  const score = wordAccuracy(assessed.assessment.words);
  const outcome = await answerQuestion(context.db, userId, { gameId, position: input.position, score }, new Date());
  return answered(context, userId, gameId, { ...input, chosenId: "" }, outcome, submission);
}
