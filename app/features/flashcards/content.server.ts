// Where a card's picture and sound live: an admin's upload (R2, /media/<key>) wins over the shipped
// content, whose fingerprinted files the build writes to public/content (static assets, immutable) and
// lists in content.generated.json (scripts/content/content-assets.mjs). Only this module reads it.
import { publicPath } from "~/server/storage.server";
import manifest from "./content.generated.json";
import type { Tier } from "./plan";

const imageByAsset = new Map(manifest.cards.map((card) => [card.id, card.imageUrl]));
const audioByAsset = new Map(manifest.cards.map((card) => [card.id, card.audioUrl]));
const tileBySlug = new Map(manifest.categories.map((category) => [category.slug, category.tileUrl]));

export type MediaRefs = { imageAsset: string | null; imageKey: string | null; audioAsset?: string | null; audioKey?: string | null };

export function cardImageUrl(card: MediaRefs): string | null {
  if (card.imageKey) return publicPath(card.imageKey);
  return (card.imageAsset && imageByAsset.get(card.imageAsset)) ?? null;
}

/** Null when the card has no recording (the player then speaks the word with the browser's voice). */
export function cardAudioUrl(card: Pick<MediaRefs, "audioAsset" | "audioKey">): string | null {
  if (card.audioKey) return publicPath(card.audioKey);
  return (card.audioAsset && audioByAsset.get(card.audioAsset)) ?? null;
}

export const categoryTileUrl = (tileAsset: string) => tileBySlug.get(tileAsset) ?? null;

/** The 8 shipped category tiles (the image preloader after sign-in warms them without a query). */
export const SHIPPED_TILE_URLS: readonly string[] = [...tileBySlug.values()];

/** The feedback sounds and the result tiers' picture and sound (bundled assets, preloaded before playing). */
export const FEEDBACK: { sounds: { correct: string; incorrect: string }; tiers: Record<Tier, { imageUrl: string; soundUrl: string }> } = {
  sounds: manifest.sounds,
  tiers: manifest.tiers,
};

const bytesByUrl = new Map<string, number>([
  ...manifest.cards.flatMap((card): [string, number][] => [
    [card.imageUrl, card.imageBytes],
    [card.audioUrl, card.audioBytes],
  ]),
  ...Object.entries(manifest.feedbackBytes),
]);

/** The size in bytes of a shipped file, by its URL; undefined for any other URL (an admin's upload is in R2). */
export const shippedBytes = (url: string): number | undefined => bytesByUrl.get(url);

/** Whether a shipped card's content id exists (admin tools offer "back to the shipped picture/audio"). */
export const hasShippedCard = (contentId: string) => imageByAsset.has(contentId);
