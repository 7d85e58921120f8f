// The rules of a flashcard game that need no database: which cards are asked, which options each
// question shows and the result tier (a card's memory is ~/lib/fsrs). Pure and seeded by a
// `random` function, so tests can pin them.
import { OPTIONS_PER_QUESTION } from "./game-rules";

export { OPTIONS_PER_QUESTION, QUESTIONS_PER_GAME } from "./game-rules";

export type PlanCard = { id: string; categorySlug: string; distractorGroup: string };
export type PlannedQuestion = { cardId: string; optionIds: string[] };

export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * Options for each asked card: the card and 3 cards of its own category whose distractor groups differ
 * from its own and from each other (near-synonyms are never options of one question), shuffled. Null
 * when a category has fewer than 4 groups to draw from.
 */
export function planQuestions(asked: readonly PlanCard[], pool: readonly PlanCard[], random: () => number): PlannedQuestion[] | null {
  const questions: PlannedQuestion[] = [];
  for (const card of asked) {
    const seenGroups = new Set([card.distractorGroup]);
    const distractors: PlanCard[] = [];
    for (const candidate of shuffle(
      pool.filter((other) => other.categorySlug === card.categorySlug),
      random,
    )) {
      if (seenGroups.has(candidate.distractorGroup)) continue;
      seenGroups.add(candidate.distractorGroup);
      distractors.push(candidate);
      if (distractors.length === OPTIONS_PER_QUESTION - 1) break;
    }
    if (distractors.length < OPTIONS_PER_QUESTION - 1) return null;
    questions.push({ cardId: card.id, optionIds: shuffle([card.id, ...distractors.map((d) => d.id)], random) });
  }
  return questions;
}

/** How many distinct distractor groups a set of cards has (a category needs 4 to make a question). */
export const groupCount = (cards: readonly PlanCard[]) => new Set(cards.map((card) => card.distractorGroup)).size;

export { percentOf, tierOf, type Tier } from "./game-rules";
