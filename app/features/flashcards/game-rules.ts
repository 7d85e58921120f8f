// The game's rules the browser needs too (spec §9): its length and a finished game's tier and percent.
// Client-safe (no ts-fsrs): the offline player makes and scores its games with the server's rules.

/** Spec §9: a quiz has up to 10 questions, each with 4 options. */
export const QUESTIONS_PER_GAME = 10;
export const OPTIONS_PER_QUESTION = 4;

export type Tier = "perfect" | "good" | "okay" | "poor";

/** Spec §9 tiers for 10 questions (10 perfect, 7–9 good, 3–6 okay, below 3 poor), in proportion for shorter games. */
export function tierOf(correct: number, total: number): Tier {
  if (total > 0 && correct >= total) return "perfect";
  const share = total > 0 ? correct / total : 0;
  if (share >= 0.7) return "good";
  if (share >= 0.3) return "okay";
  return "poor";
}

export const percentOf = (correct: number, total: number) => (total > 0 ? Math.round((correct / total) * 100) : 0);
