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
  /** The feedback sounds (correct, incorrect) and whatever else the game plays. */
  sounds: { correct: string; incorrect: string } & Record<string, unknown>;
  /** The result tiers' picture and sound. */
  tiers: Readonly<Record<string, { imageUrl: string; soundUrl: string }>>;
  /** Every picture and sound the bundle needs, deduplicated. */
  media: string[];
  bytes: { json: number; media: number };
};

export type BundleEstimate = { cards: number; bytes: number };

/** One offline game: made by the player, sent with its answers. */
export type QueuedGame = { id: string; bundleId: string; questionCount: number };
export type QueuedAnswer = {
  /** The answer's idempotency key. */
  key: string;
  gameId: string;
  /** 0-based position in the game. */
  position: number;
  cardId: string;
  chosenId: string;
  answeredAt: string;
};

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
