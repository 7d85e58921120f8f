// Offline practice's bundles: what a learner downloads to play with no network — Revisão (the cards FSRS
// will ask in the next 7 days, and the "Meu caderno" corrections due now, as many as an online Revisão asks) or a
// category — with each card's 4 options drawn by the online game's rules. The bundle is stored (its cards and their
// options, its corrections and their forms in the order shown, so a sync accepts only answers it could produce) and
// signed (an HMAC over its id, its learner and its expiry). A download costs no credit: the games played from it do,
// when their answers are synced (sync.server.ts). Its size is told before the download (estimate) and after (bytes):
// the JSON exactly, the pictures and sounds from the shipped content's manifest and, for an admin's uploads, from R2
// (corrections have no media: only their JSON counts).
import { sql } from "drizzle-orm";
import {
  cardAudioUrl,
  cardImageUrl,
  FEEDBACK,
  CORRECTIONS_WITH_CARDS,
  groupCount,
  loadDueCorrections,
  OPTIONS_PER_QUESTION,
  planQuestions,
  playableCategories,
  QUESTIONS_PER_GAME,
  readyForReview,
  reviewCards,
  shippedBytes,
  shuffle,
  visibleCard,
  type DueCorrection,
  type GameTarget,
  type PoolCard,
} from "~/features/flashcards";
import { rowsOf, type DbOrTx } from "~/server/db.server";
import type { Env } from "~/server/env";
import { signingKeyId, signToken, verifyToken } from "~/server/signed-token.server";
import { headObject, keyFromPublicUrl, type MediaBucket } from "~/server/storage.server";
import type { BundleCard, BundleCorrection, BundleEstimate, OfflineBundle } from "./types";

/** A bundle can be played (and its answers synced) for 14 days. */
export const BUNDLE_TTL_MS = 14 * 86_400_000;
/** Revisão offline: the cards due within this window from the download, or missed last time. */
export const REVIEW_WINDOW_MS = 7 * 86_400_000;
export const MAX_REVIEW_CARDS = 100;
/** A learner's bundles this long past their expiry go when they download another (their answers are refused anyway). */
export const EXPIRED_BUNDLES_KEPT_MS = 30 * 86_400_000;
const SIGNATURE_PURPOSE = "offline-bundle";
export const REVIEW_TITLE = "Revisão";

/**
 * The bundle as the browser gets it, plus the result tiers' picture and sound (what the online game's result screen
 * shows), so the offline player has every asset the online one has.
 */
export type IssuedBundle = OfflineBundle & { tiers: typeof FEEDBACK.tiers };

export type BundleRefusal = "not_found" | "too_few_cards" | "nothing_to_review";
type Planned = {
  kind: GameTarget["kind"];
  category: { slug: string; name: string } | null;
  cards: BundleCard[];
  corrections: BundleCorrection[];
};

type BundlePoolCard = PoolCard & {
  categoryName: string;
  word: string;
  translation: string;
  imageUrl: string | null;
  audioUrl: string | null;
};

/**
 * The bundle's cards and their options, from one statement: Revisão's ready cards (due by `now` + 7 days, or missed)
 * of playable categories, in the online review's order, at most 100; or a category's visible cards, shuffled.
 */
async function planBundle(
  db: DbOrTx,
  userId: string,
  target: GameTarget,
  now: Date,
  random: () => number,
): Promise<{ ok: true; planned: Planned } | { ok: false; code: BundleRefusal }> {
  const horizon = new Date(now.getTime() + REVIEW_WINDOW_MS);
  const rows = rowsOf(
    await db.execute(sql`
      select c.slug, c.name, k.id, k.word, k.translation, k.distractor_group, k.image_asset, k.image_key, k.audio_asset, k.audio_key,
        m.due, coalesce(m.last_missed, false) as missed, (m.card_id is not null) as seen,
        coalesce(${readyForReview(horizon)}, false) as ready
      from flashcard_categories c
      left join flashcard_cards k on k.category_slug = c.slug and ${visibleCard}
      left join flashcard_memory m on m.card_id = k.id and m.user_id = ${userId}
      ${target.kind === "category" ? sql`where c.slug = ${target.slug}` : sql``}
      order by c.order_index, c.slug, k.order_index, k.id`),
  );
  if (rows.length === 0) return { ok: false, code: "not_found" };
  const pool: BundlePoolCard[] = rows
    .filter((row) => row.id !== null)
    .map((row) => ({
      id: String(row.id),
      categorySlug: String(row.slug),
      categoryName: String(row.name),
      distractorGroup: String(row.distractor_group),
      word: String(row.word),
      translation: String(row.translation),
      imageUrl: cardImageUrl({ imageAsset: row.image_asset as string | null, imageKey: row.image_key as string | null }),
      audioUrl: cardAudioUrl({ audioAsset: row.audio_asset as string | null, audioKey: row.audio_key as string | null }),
      seen: Boolean(row.seen),
      ready: Boolean(row.ready),
      missed: Boolean(row.missed),
      due: row.due ? new Date(String(row.due)).getTime() : Number.POSITIVE_INFINITY,
    }));

  let asked: BundlePoolCard[];
  let due: DueCorrection[] = [];
  if (target.kind === "category") {
    if (groupCount(pool) < OPTIONS_PER_QUESTION) return { ok: false, code: "too_few_cards" };
    asked = shuffle(pool, random);
  } else {
    const playable = playableCategories(pool);
    asked = reviewCards(pool, random)
      .filter((card) => card.ready && playable.has(card.categorySlug))
      .slice(0, MAX_REVIEW_CARDS);
    // The online Revisão's corrections and cap (no pronunciation word: nothing scores it offline).
    due = (await loadDueCorrections(db, userId, now, false)).slice(0, asked.length > 0 ? CORRECTIONS_WITH_CARDS : QUESTIONS_PER_GAME);
    if (asked.length === 0 && due.length === 0) return { ok: false, code: "nothing_to_review" };
  }
  const questions = planQuestions(asked, pool, random);
  if (!questions) return { ok: false, code: "too_few_cards" };
  const corrections = due.map(({ alternatives, ...entry }): BundleCorrection => ({
    id: entry.id,
    sentence: entry.sentence,
    wrong: entry.wrong,
    options: shuffle([entry.right, ...alternatives], random),
    right: entry.right,
    explanation: entry.explanation,
  }));

  const byId = new Map(pool.map((card) => [card.id, card]));
  const cards = questions.map(({ cardId, optionIds }): BundleCard => {
    const card = byId.get(cardId)!;
    return {
      id: card.id,
      word: card.word,
      translation: card.translation,
      imageUrl: card.imageUrl,
      audioUrl: card.audioUrl,
      options: optionIds.map((id) => {
        const option = byId.get(id)!;
        return { id: option.id, word: option.word, audioUrl: option.audioUrl };
      }),
    };
  });
  const first = rows[0]!;
  const category = target.kind === "category" ? { slug: String(first.slug), name: String(first.name) } : null;
  return { ok: true, planned: { kind: target.kind, category, cards, corrections } };
}

/** Every picture and sound the bundle's player needs, each once: the cards', their options' and the game's own. */
function mediaOf(cards: readonly BundleCard[]): string[] {
  const urls = new Set<string>();
  for (const card of cards) {
    for (const url of [card.imageUrl, card.audioUrl, ...card.options.map((option) => option.audioUrl)]) if (url) urls.add(url);
  }
  for (const url of Object.values(FEEDBACK.sounds)) urls.add(url);
  for (const tier of Object.values(FEEDBACK.tiers)) urls.add(tier.imageUrl).add(tier.soundUrl);
  return [...urls];
}

/**
 * What the media weigh: a shipped file's size from the content manifest, an upload's from R2 (its stored size, asked
 * once per object, all at once). The bucket is asked only when the bundle has an upload.
 */
async function mediaBytes(urls: readonly string[], bucket: () => MediaBucket): Promise<number> {
  let total = 0;
  const uploads: string[] = [];
  for (const url of urls) {
    const shipped = shippedBytes(url);
    if (shipped !== undefined) total += shipped;
    else {
      const key = keyFromPublicUrl(url);
      if (key) uploads.push(key);
    }
  }
  if (uploads.length === 0) return total;
  const stored = bucket();
  const sizes = await Promise.all(uploads.map(async (key) => (await headObject(stored, key))?.size ?? 0));
  return sizes.reduce((sum, size) => sum + size, total);
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).byteLength;

/** The bundle with its own JSON size in it (the size counts its own digits: settled in two or three rounds). */
function withBytes(bundle: Omit<IssuedBundle, "bytes">, media: number): IssuedBundle {
  let json = 0;
  for (;;) {
    const sized: IssuedBundle = { ...bundle, bytes: { json, media } };
    const size = utf8Bytes(JSON.stringify(sized));
    if (size === json) return sized;
    json = size;
  }
}

const signedSubject = (bundle: { id: string; userId: string; expiresAt: Date }) =>
  `${bundle.id}:${bundle.userId}:${bundle.expiresAt.toISOString()}`;

type Secrets = Pick<Env, "SESSION_SECRET" | "SESSION_SECRET_PREVIOUS">;

/**
 * The bundle's signature, `<key id>.<mac>`: the MAC part of a token over its id, learner and expiry, and which secret
 * made it — a bundle lives 14 days on the device, so answers signed before a rotation of SESSION_SECRET still sync.
 */
async function signBundle(env: Secrets, bundle: { id: string; userId: string; expiresAt: Date }): Promise<string> {
  const subject = signedSubject(bundle);
  const mac = (await signToken(env, SIGNATURE_PURPOSE, subject)).slice(subject.length + 1);
  return `${await signingKeyId(env)}.${mac}`;
}

/** Whether `signature` is the one issued for the stored bundle (its id, learner and expiry); one without a key id is from before they had one. */
export async function bundleSignatureValid(
  env: Secrets,
  bundle: { id: string; userId: string; expiresAt: Date },
  signature: string,
): Promise<boolean> {
  const subject = signedSubject(bundle);
  const dot = signature.indexOf(".");
  const [keyId, mac] = dot === -1 ? [undefined, signature] : [signature.slice(0, dot), signature.slice(dot + 1)];
  return (await verifyToken(env, SIGNATURE_PURPOSE, `${subject}.${mac}`, keyId)) === subject;
}

export type BundleDeps = { db: DbOrTx; env: Secrets; bucket: () => MediaBucket };

/** Composes the bundle for `planned` under the given id and times (issued or only estimated). */
async function compose(deps: BundleDeps, userId: string, planned: Planned, id: string, issuedAt: Date): Promise<IssuedBundle> {
  const expiresAt = new Date(issuedAt.getTime() + BUNDLE_TTL_MS);
  const media = mediaOf(planned.cards);
  return withBytes(
    {
      id,
      userId,
      kind: planned.kind,
      category: planned.category,
      title: planned.category?.name ?? REVIEW_TITLE,
      issuedAt: issuedAt.toISOString(),
      expiresAt: expiresAt.toISOString(),
      signature: await signBundle(deps.env, { id, userId, expiresAt }),
      cards: planned.cards,
      corrections: planned.corrections,
      sounds: { ...FEEDBACK.sounds, ...Object.fromEntries(Object.entries(FEEDBACK.tiers).map(([tier, { soundUrl }]) => [tier, soundUrl])) },
      tiers: FEEDBACK.tiers,
      media,
    },
    await mediaBytes(media, deps.bucket),
  );
}

export type EstimateResult = { ok: true; estimate: BundleEstimate } | { ok: false; code: BundleRefusal };

/**
 * How big the download would be (JSON + media), told before it starts: a bundle composed like the real one, not
 * stored (its options are drawn again at the download, so the two may differ by a few distractors' sounds).
 */
export async function estimateBundle(
  deps: BundleDeps,
  userId: string,
  target: GameTarget,
  now: Date,
  random: () => number = Math.random,
): Promise<EstimateResult> {
  const plan = await planBundle(deps.db, userId, target, now, random);
  if (!plan.ok) return plan;
  const bundle = await compose(deps, userId, plan.planned, crypto.randomUUID(), now);
  const corrections = plan.planned.corrections.length;
  return { ok: true, estimate: { cards: bundle.cards.length + corrections, corrections, bytes: bundle.bytes.json + bundle.bytes.media } };
}

export type IssueResult = { ok: true; bundle: IssuedBundle } | { ok: false; code: BundleRefusal };

/**
 * Issues a bundle: its cards and options, and its corrections and their forms in the order shown, are stored (one statement after the plan's, which also drops the learner's
 * bundles long expired) and it is signed. No credit.
 */
export async function issueBundle(
  deps: BundleDeps,
  userId: string,
  target: GameTarget,
  now: Date,
  random: () => number = Math.random,
): Promise<IssueResult> {
  const plan = await planBundle(deps.db, userId, target, now, random);
  if (!plan.ok) return plan;
  const id = crypto.randomUUID();
  const bundle = await compose(deps, userId, plan.planned, id, now);
  const cards = Object.fromEntries(bundle.cards.map((card) => [card.id, card.options.map((option) => option.id)]));
  const entries = Object.fromEntries(plan.planned.corrections.map((correction) => [correction.id, correction.options]));
  await deps.db.execute(sql`
    with pruned as (
      delete from offline_bundles where user_id = ${userId} and expires_at < ${new Date(now.getTime() - EXPIRED_BUNDLES_KEPT_MS).toISOString()}
    )
    insert into offline_bundles (id, user_id, kind, category_slug, cards, entries, issued_at, expires_at)
    values (${id}, ${userId}, ${bundle.kind}, ${bundle.category?.slug ?? null}, ${JSON.stringify(cards)}::jsonb, ${JSON.stringify(entries)}::jsonb,
      ${bundle.issuedAt}, ${bundle.expiresAt})`);
  return { ok: true, bundle };
}
