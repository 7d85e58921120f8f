// The flashcards feature's public face for other features (decision 0010). Server-only for now: the
// signed-in shell's loader asks it which pictures and sounds to warm after sign-in.
import { FEEDBACK, SHIPPED_TILE_URLS } from "./content.server";

/** The review's SQL rules (a card ready for review, a card shown to learners), for the home page's plan. */
export { readyForReview, visibleCard } from "./game.server";

/**
 * Spec §9 "image preloader after login", the flashcards' two groups in order: the 8 category tiles,
 * then the core assets (feedback sounds, tier pictures). From the shipped manifest: no query.
 */
export function flashcardsPreloadUrls(): string[] {
  const tiers = Object.values(FEEDBACK.tiers);
  return [...SHIPPED_TILE_URLS, FEEDBACK.sounds.correct, FEEDBACK.sounds.incorrect, ...tiers.map((tier) => tier.imageUrl)];
}

/**
 * Offline practice (features/offline) issues bundles and syncs their answers by the online game's own rules: which
 * cards are due and playable, how options are drawn, where media lives and what it weighs, the credit's ledger
 * reason, and the refusals' texts (the memory after an answer is ~/lib/fsrs).
 */
export { cardAudioUrl, cardImageUrl, FEEDBACK, shippedBytes } from "./content.server";
export { CORRECTIONS_WITH_CARDS, loadDueCorrections, MISSES_TO_NOTEBOOK, type DueCorrection } from "./game.server";
export { FLASHCARDS_CREDIT_REASON, playableCategories, reviewCards, type GameTarget, type PoolCard } from "./game.server";
export { groupCount, OPTIONS_PER_QUESTION, planQuestions, QUESTIONS_PER_GAME, shuffle } from "./plan";
export { REFUSALS } from "./texts";
