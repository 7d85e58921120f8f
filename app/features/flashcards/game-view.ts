// What the game page needs in the browser besides its components: its URLs and the pictures and sounds to
// preload (spec §9: the first card's picture and its options' sounds, the feedback sounds and the tier
// pictures gate the start; the rest loads behind). Client-safe (no server module, no ts-fsrs).
import type { PreloadAsset } from "~/lib/preload";
import { FLASHCARDS_PATH } from "./admin/paths";
import type { AnswerView, QuestionView } from "./game.server";
import type { Tier } from "./plan";

/** `/flashcard-v2/<id>`, or question `q` (1-based) of it. */
export const gamePath = (gameId: string, q?: number) => `${FLASHCARDS_PATH}/${gameId}${q === undefined ? "" : `?q=${q}`}`;

export type FeedbackAssets = { sounds: { correct: string; incorrect: string }; tiers: Record<Tier, { imageUrl: string; soundUrl: string }> };

/** Every picture and sound of a game, critical ones marked, starting from question `from`. */
export function gameAssets(
  questions: readonly Pick<QuestionView, "imageUrl" | "options">[],
  from: number,
  feedback: Pick<FeedbackAssets, "sounds"> & { tiers: Readonly<Record<string, { imageUrl: string; soundUrl: string }>> },
): PreloadAsset[] {
  const assets: PreloadAsset[] = [];
  const add = (url: string | null, kind: PreloadAsset["kind"], critical: boolean) => {
    if (url) assets.push({ url, kind, critical });
  };
  const first = questions[from];
  if (first) {
    add(first.imageUrl, "image", true);
    for (const option of first.options) add(option.audioUrl, "audio", true);
  }
  add(feedback.sounds.correct, "audio", true);
  add(feedback.sounds.incorrect, "audio", true);
  for (const tier of Object.values(feedback.tiers)) add(tier.imageUrl, "image", true);
  // then the coming questions in order, and the ones before (reviewing an answered one)
  const rest = [...questions.slice(from + 1), ...questions.slice(0, Math.max(0, from))];
  for (const question of rest) add(question.imageUrl, "image", false);
  for (const question of rest) for (const option of question.options) add(option.audioUrl, "audio", false);
  for (const tier of Object.values(feedback.tiers)) add(tier.soundUrl, "audio", false);
  return assets;
}

/** The answers known in the page: the loader's, and those given since (the page does not reload the game after each one). */
export function mergeAnswers(questions: readonly Pick<QuestionView, "position" | "answer">[], given: Readonly<Record<number, AnswerView>>) {
  return questions.map((question) => given[question.position] ?? question.answer);
}
