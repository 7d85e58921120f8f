// The shapes the browser keeps for offline practice: the signed bundle as the server issues it
// (POST /resources/offline/bundle) and what the sync endpoint takes and answers. Client-safe: the player,
// the download panel and the service worker's sync read them.

export type BundleTarget = { target: "review" } | { target: "category"; slug: string };

export type BundleOption = { id: string; word: string; audioUrl: string | null };
export type BundleCard = {
  id: string;
  word: string;
  translation: string;
  imageUrl: string | null;
  audioUrl: string | null;
  /** 4 options, the card's own id among them. */
  options: BundleOption[];
};

/**
 * A "Meu caderno" correction card of a Revisão bundle: the learner's sentence with the mistake, the 4 forms in the
 * order shown (also stored in `offline_bundles.entries`), and — as a card's answer is its own id — the right form and
 * its explanation, so the player decides offline. The sync decides again on the server (the place chosen, against the
 * entry's right form).
 */
export type BundleCorrection = {
  /** The notebook entry's id. */
  id: string;
  sentence: string;
  wrong: string;
  options: string[];
  right: string;
  explanation: string;
};

export type OfflineBundle = {
  id: string;
  userId: string;
  kind: "review" | "category";
  category: { slug: string; name: string } | null;
  title: string;
  issuedAt: string;
  expiresAt: string;
  signature: string;
  cards: BundleCard[];
  /**
   * Revisão's due corrections (none in a category bundle): at most 5 beside cards, 10 with no card, as online. A game
   * asks them one after another with the cards, as the online Revisão does. Absent in bundles stored before they had it.
   */
  corrections?: BundleCorrection[];
  /** The feedback sounds (correct, incorrect) and whatever else the game plays. */
  sounds: { correct: string; incorrect: string } & Record<string, unknown>;
  /** The result tiers' picture and sound. */
  tiers: Readonly<Record<string, { imageUrl: string; soundUrl: string }>>;
  /** Every picture and sound the bundle needs, deduplicated. */
  media: string[];
  bytes: { json: number; media: number };
};

/** `cards`: every question the bundle holds (picture cards and corrections); `corrections`: those among them. */
export type BundleEstimate = { cards: number; corrections: number; bytes: number };

/** One offline game: made by the player, sent with its answers. */
export type QueuedGame = { id: string; bundleId: string; questionCount: number };
type QueuedAnswerBase = {
  /** The answer's idempotency key. */
  key: string;
  gameId: string;
  /** 0-based position in the game. */
  position: number;
  answeredAt: string;
};
/** A picture card's answer: the card and the option (a card id) chosen. */
export type QueuedCardAnswer = QueuedAnswerBase & { cardId: string; chosenId: string };
/** A correction card's answer: the entry and the place (0–3) of the form chosen, in the bundle's order. */
export type QueuedCorrectionAnswer = QueuedAnswerBase & { entryId: string; chosenIndex: number };
export type QueuedAnswer = QueuedCardAnswer | QueuedCorrectionAnswer;

/** At most this many answers, and answers of this many bundles, per sync request (the client cuts bigger queues). */
export const SYNC_MAX_ANSWERS = 500;
export const SYNC_MAX_BUNDLES = 100;

export type SyncRequest = {
  bundles: { id: string; signature: string }[];
  games: QueuedGame[];
  answers: QueuedAnswer[];
};

export type SyncRefusalCode = "bad_signature" | "not_yours" | "expired" | "outside_bundle" | "credits_exhausted" | "invalid";

export type SyncResponse = {
  accepted: string[];
  duplicate: string[];
  refused: { key: string; code: SyncRefusalCode | string; message: string }[];
  balance: number | null;
};
