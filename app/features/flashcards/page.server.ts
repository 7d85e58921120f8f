// Loaders and actions of the flashcard pages (/flashcard-v2 and /flashcard-v2/<gameId>), over the game
// workflows of game.server.ts. Order of checks (decision 0010): path id → signed in → body →
// existence/ownership → flag → credits. Successes redirect (303, so a reload never posts twice);
// refusals answer the conform reply with [title, description] and a code, with a 4xx status.
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, type AppLoadContext } from "react-router";
import { z } from "zod";
import { isUuid } from "~/lib/ids";
import { forgetUserSessions, requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";
import { notFound, parseForm, requireUuidParam } from "~/server/request.server";
import { FEEDBACK } from "./content.server";
import { gamePath } from "./game-view";
import { answerQuestion, currentPosition, loadGame, loadPicker, startGame, type AnswerView, type Choice, type GameTarget, type GameView } from "./game.server";
import { percentOf, tierOf, type Tier } from "./plan";
import { REFUSALS, type FlashcardRefusal } from "./texts";

type Args = { request: Request; context: AppLoadContext; params: Record<string, string | undefined> };

/** What a refused form post answers (the page shows [title, description] and branches on `code`). */
export type FlashcardActionData = { result: SubmissionResult<string[]>; code: FlashcardRefusal };

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
};

function refuse(submission: Reply, code: FlashcardRefusal) {
  const result = submission.reply({ formErrors: [...REFUSALS[code]] });
  return data({ result, code } satisfies FlashcardActionData, { status: STATUS[code], headers: { "Cache-Control": "no-store" } });
}

/** A body that matched no form: the reply of conform's failed parse. */
const invalidBody = (submission: Reply) => refuse(submission, "invalid");

const START_REFUSALS = {
  credits_exhausted: "credits_exhausted",
  not_found: "category_not_found",
  too_few_cards: "too_few_cards",
  nothing_to_review: "nothing_to_review",
} as const satisfies Record<string, FlashcardRefusal>;

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
  const picker = await loadPicker(context.db, user.id, new Date());
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
  return startAndGo(context, user.id, input.intent === "review" ? { kind: "review" } : { kind: "category", slug: input.category }, submission);
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
 * and wants the outcome as data instead of a redirect) and `restart` (a new game like this one).
 */
const gameSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("answer"),
    position: z.number().int().min(0).max(999),
    optionId: z.string().max(100).optional(),
    via: z.literal("fetch").optional(),
  }),
  z.object({ intent: z.literal("restart") }),
]);

/** An option as posted: a card's id, or a correction's place (0–3). Null for anything else. */
export function choiceOf(optionId: string): Choice | null {
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
  const submission = await parseForm(request, gameSchema);
  if (submission.status !== "success") return invalidBody(submission);
  const input = submission.value;

  if (input.intent === "restart") {
    const game = await loadGame(context.db, user.id, gameId);
    if (!game) throw gameNotFound();
    await requireFeature(context, "feature_flashcards");
    if (game.kind === "review") return startAndGo(context, user.id, { kind: "review" }, submission);
    if (!game.category) return refuse(submission, "category_not_found");
    return startAndGo(context, user.id, { kind: "category", slug: game.category.slug }, submission);
  }

  if (!input.optionId) return refuse(submission, "no_option");
  const choice = choiceOf(input.optionId);
  if (!choice) return refuse(submission, "invalid_option");
  await requireFeature(context, "feature_flashcards");
  const outcome = await answerQuestion(context.db, user.id, { gameId, position: input.position, ...choice }, new Date());
  if (!outcome.ok) return refuse(submission, outcome.code === "not_found" ? "question_not_found" : outcome.code);
  // The answer moved the card's review date, and a finished game is today's activity: "Hoje" kept meanwhile is dropped.
  forgetUserSessions(context, user.id);
  if (input.via === "fetch") {
    const { correct, correctId, word, translation, explanation, answeredCount, correctCount, finished } = outcome;
    const chosenId = "chosenId" in choice ? choice.chosenId : String(choice.chosenIndex);
    return data({
      answer: { position: input.position, chosenId, correctId, correct, word, translation, ...(explanation ? { explanation } : {}) },
      answeredCount,
      correctCount,
      finished,
    } satisfies AnswerData);
  }
  throw redirect(`${gamePath(gameId, input.position + 1)}#resposta`, 303);
}
