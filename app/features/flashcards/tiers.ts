// A finished game's tier and percent (spec §9). Client-safe (no ts-fsrs): the offline player scores its
// games in the browser with the same rule as the server.

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
