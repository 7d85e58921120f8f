// Score tiers of spec §9, one reading everywhere (decision 0014): stars, colours and word advice all
// split at the same two places — above 70 is good, 31–70 is getting there, 30 and below needs work.
// Pure module: the list, the ring, the words and the server's "new best" all use it.

export const LEVEL_COUNT = 100;

export type ScoreTier = "good" | "fair" | "poor";

/** 0–100 → its tier: good above 70, fair 31–70, poor up to 30. */
export function tierOf(score: number): ScoreTier {
  if (score > 70) return "good";
  if (score > 30) return "fair";
  return "poor";
}

/** Spec §9: 0 stars without a score, 1 up to 30, 2 up to 70, 3 above 70. */
export function starsOf(score: number | null): 0 | 1 | 2 | 3 {
  if (score === null) return 0;
  const tier = tierOf(score);
  return tier === "good" ? 3 : tier === "fair" ? 2 : 1;
}

/** Scores are shown as whole numbers (the ring, the cards, the words). */
export const shownScore = (score: number) => Math.round(score);

/** `/pronunciation-game/{level}` for 1–100; null for anything else. */
export function parseLevel(value: string | null | undefined): number | null {
  if (!value || !/^[1-9][0-9]{0,2}$/.test(value)) return null;
  const level = Number(value);
  return level <= LEVEL_COUNT ? level : null;
}

export const PRONUNCIATION_PATH = "/pronunciation-game";
export const levelPath = (level: number) => `${PRONUNCIATION_PATH}/${level}`;
/** Where "Próximo nível" goes: the next level, and back to the list after the last. */
export const nextLevelPath = (level: number) => (level >= LEVEL_COUNT ? PRONUNCIATION_PATH : levelPath(level + 1));
