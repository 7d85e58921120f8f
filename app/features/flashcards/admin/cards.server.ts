// The flashcard admin's reads and writes (decision 0012): a category's cards for the list, one card for
// its form, adding and editing a card (uploads are R2 keys that win over the shipped assets), moving,
// hiding and soft-deleting. The game sees every change at once: it plays `not hidden and deleted_at is
// null` cards and reads their word, translation and media when it builds and shows a game.
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { redirect, type AppLoadContext } from "react-router";
import { isUuid } from "~/lib/ids";
import { adminReply, handleAdminSave } from "~/server/admin-forms.server";
import { requireAdmin } from "~/server/auth.server";
import { rowsOf, type DbOrTx } from "~/server/db.server";
import { requireFeature } from "~/server/flags.server";
import { BODY_MESSAGES, parseForm } from "~/server/request.server";
import { keyFromPublicUrl, publicPath } from "~/server/storage.server";
import { redirectWithToast } from "~/server/toast.server";
import { cardAudioUrl, cardImageUrl } from "../content.server";
import { flashcardCards, flashcardCategories } from "../tables";
import { cardAnchor, categoryAdminPath, CONFIRM_DELETE_ID, DELETE_PARAM } from "./paths";
import { CARD_FILES, cardActionSchema, cardSchema, type CardAction, type CardInput } from "./schemas";

/** Every admin loader and action: admins only (GET → redirect, POST → 403), flashcards enabled. */
export async function requireFlashcardsAdmin(request: Request, context: AppLoadContext) {
  const user = await requireAdmin(request, context);
  await requireFeature(context, "feature_flashcards");
  return user;
}

/** Where a card's recording comes from: an upload, the shipped file, or none (the browser's voice). */
export type AudioSource = "upload" | "shipped" | "voice";

/** A distractor group of the category and the words in it (the form's suggestions). */
export type GroupOption = { value: string; words: string[] };

const cardColumns = {
  id: flashcardCards.id,
  word: flashcardCards.word,
  translation: flashcardCards.translation,
  distractorGroup: flashcardCards.distractorGroup,
  hidden: flashcardCards.hidden,
  imageAsset: flashcardCards.imageAsset,
  imageKey: flashcardCards.imageKey,
  audioAsset: flashcardCards.audioAsset,
  audioKey: flashcardCards.audioKey,
  categorySlug: flashcardCards.categorySlug,
};
type CardRow = Pick<
  typeof flashcardCards.$inferSelect,
  "id" | "word" | "translation" | "distractorGroup" | "hidden" | "imageAsset" | "imageKey" | "audioAsset" | "audioKey" | "categorySlug"
>;

/** A card as the list shows it: its texts, its picture and sound as URLs, and where the sound comes from. */
function toAdminCard(row: CardRow) {
  const audioUrl = cardAudioUrl(row);
  const audioSource: AudioSource = row.audioKey ? "upload" : audioUrl ? "shipped" : "voice";
  return {
    id: row.id,
    word: row.word,
    translation: row.translation,
    distractorGroup: row.distractorGroup,
    hidden: row.hidden,
    imageUrl: cardImageUrl(row),
    audioUrl,
    audioSource,
  };
}
export type AdminCard = ReturnType<typeof toAdminCard>;

function groupsOf(cards: readonly Pick<AdminCard, "distractorGroup" | "word">[]): GroupOption[] {
  const groups = new Map<string, string[]>();
  for (const card of cards) groups.set(card.distractorGroup, [...(groups.get(card.distractorGroup) ?? []), card.word]);
  return [...groups].map(([value, words]) => ({ value, words })).sort((a, b) => a.value.localeCompare(b.value));
}

const listed = (slug: string) => and(eq(flashcardCards.categorySlug, slug), isNull(flashcardCards.deletedAt));

export async function findCategory(db: DbOrTx, slug: string) {
  const [category] = await db
    .select({ slug: flashcardCategories.slug, name: flashcardCategories.name })
    .from(flashcardCategories)
    .where(eq(flashcardCategories.slug, slug));
  return category ?? null;
}

/** The category's cards in game order (hidden ones too, deleted ones not); null for an unknown category. */
export async function loadCategoryAdmin(db: DbOrTx, slug: string) {
  const category = await findCategory(db, slug);
  if (!category) return null;
  const rows = await db
    .select(cardColumns)
    .from(flashcardCards)
    .where(listed(slug))
    .orderBy(asc(flashcardCards.orderIndex), asc(flashcardCards.id));
  const cards = rows.map(toAdminCard);
  return { category, cards, groups: groupsOf(cards) };
}
export type CategoryAdmin = NonNullable<Awaited<ReturnType<typeof loadCategoryAdmin>>>;

/** The category and its groups, for the add form. */
export async function loadNewCardForm(db: DbOrTx, slug: string) {
  const category = await findCategory(db, slug);
  if (!category) return null;
  const rows = await db
    .select({ word: flashcardCards.word, distractorGroup: flashcardCards.distractorGroup })
    .from(flashcardCards)
    .where(listed(slug))
    .orderBy(asc(flashcardCards.orderIndex));
  return { category, groups: groupsOf(rows) };
}

/** One card (not deleted) for its form, with what can be restored. */
export async function findCardForEdit(db: DbOrTx, cardId: string) {
  if (!isUuid(cardId)) return null;
  const [row] = await db
    .select(cardColumns)
    .from(flashcardCards)
    .where(and(eq(flashcardCards.id, cardId), isNull(flashcardCards.deletedAt)));
  if (!row) return null;
  return {
    ...toAdminCard(row),
    categorySlug: row.categorySlug,
    /** An uploaded picture over a shipped one: "back to the shipped picture" is offered. */
    canRestoreImage: Boolean(row.imageKey && row.imageAsset),
    /** An uploaded recording: removing it is offered (the shipped one, if still valid, plays again). */
    hasAudioUpload: Boolean(row.audioKey),
    /** The shipped recording is still the card's fallback (the word has not changed). */
    hasShippedAudio: Boolean(row.audioAsset),
  };
}
export type CardForEdit = NonNullable<Awaited<ReturnType<typeof findCardForEdit>>>;

/** What a save replaced (old) and points to now (current), as public URLs, for cleaning up R2. */
export type CardSaved = { old: (string | null)[]; current: (string | null)[]; cardId: string; categorySlug: string };

const urlOf = (key: string | null) => (key ? publicPath(key) : null);
const keyOf = (url: string | undefined) => (url ? keyFromPublicUrl(url) : null);
/** "" → null: an empty group becomes a group of the card's own. */
const groupOf = (input: CardInput) => (input.distractor_group ? input.distractor_group : null);
const ownGroup = (cardId: string) => `cartao-${cardId}`;

/**
 * Adds a card at the end of the category, with its uploaded picture (required) and recording. Null
 * when the category does not exist.
 */
export async function createCard(db: DbOrTx, slug: string, input: CardInput, urls: Record<string, string>): Promise<CardSaved | null> {
  const id = crypto.randomUUID();
  const imageKey = keyOf(urls.image_url);
  const audioKey = keyOf(urls.audio_url);
  const [row] = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into flashcard_cards (id, category_slug, word, translation, distractor_group, image_key, audio_key, order_index)
      select ${id}, c.slug, ${input.word}, ${input.translation}, ${groupOf(input) ?? ownGroup(id)}, ${imageKey}, ${audioKey},
        coalesce((select max(k.order_index) + 1 from flashcard_cards k where k.category_slug = c.slug), 0)
      from flashcard_categories c where c.slug = ${slug}
      returning id`),
  );
  return row ? { old: [], current: [urlOf(imageKey), urlOf(audioKey)], cardId: row.id, categorySlug: slug } : null;
}

/**
 * Saves a card's form in one statement, which also returns the uploads it replaced: a new upload wins;
 * "restore" drops an upload (a picture only when there is a shipped one to fall back to). When the
 * word changes, the shipped recording (which says the old word) is dropped for good: the game speaks
 * the new word with the browser's voice until an admin uploads a recording.
 */
export async function updateCard(db: DbOrTx, cardId: string, input: CardInput, urls: Record<string, string>): Promise<CardSaved | null> {
  const newImage = keyOf(urls.image_url);
  const newAudio = keyOf(urls.audio_url);
  const [row] = rowsOf<{ oldImage: string | null; oldAudio: string | null; image: string | null; audio: string | null; categorySlug: string }>(
    await db.execute(sql`
      update flashcard_cards as k
         set word = ${input.word},
             translation = ${input.translation},
             distractor_group = coalesce(${groupOf(input)}::text, 'cartao-' || k.id),
             image_key = case when ${newImage}::text is not null then ${newImage}::text
                              when ${input.restore_image === true} and k.image_asset is not null then null
                              else k.image_key end,
             audio_key = case when ${newAudio}::text is not null then ${newAudio}::text
                              when ${input.restore_audio === true} then null
                              else k.audio_key end,
             audio_asset = case when lower(old.word) = lower(${input.word}) then k.audio_asset end,
             updated_at = now()
        from (select id, word, image_key, audio_key from flashcard_cards where id = ${cardId} and deleted_at is null for update) as old
       where k.id = old.id
   returning old.image_key as "oldImage", old.audio_key as "oldAudio", k.image_key as "image", k.audio_key as "audio",
             k.category_slug as "categorySlug"`),
  );
  if (!row) return null;
  return {
    old: [urlOf(row.oldImage), urlOf(row.oldAudio)],
    current: [urlOf(row.image), urlOf(row.audio)],
    cardId,
    categorySlug: row.categorySlug,
  };
}

export type ListOutcome = { status: "ok"; word: string } | { status: "unchanged" } | { status: "not_found" };

/**
 * Moves a card one place up or down the category's order, in one statement: the cards are ranked by
 * (order_index, id), the card and its neighbour swap ranks, and every card whose rank differs from its
 * order_index is written (ties left by earlier content become distinct). `unchanged` at either end.
 */
export async function moveCard(db: DbOrTx, slug: string, cardId: string, direction: "up" | "down"): Promise<ListOutcome> {
  const delta = direction === "up" ? -1 : 1;
  const [row] = rowsOf<{ word: string | null; moved: number }>(
    await db.execute(sql`
      with ranked as (
        select id, (row_number() over (order by order_index, id))::int - 1 as pos
        from flashcard_cards where category_slug = ${slug} and deleted_at is null
      ), me as (
        select r.pos, k.word from ranked r join flashcard_cards k on k.id = r.id where r.id = ${cardId}
      ), target as (
        select r.id, r.pos from ranked r join me on r.pos = me.pos + ${delta}
      ), placed as (
        select r.id, case when r.id = ${cardId} then t.pos when r.id = t.id then m.pos else r.pos end as pos
        from ranked r cross join me m cross join target t
      ), moved as (
        update flashcard_cards k set order_index = p.pos, updated_at = now()
        from placed p where k.id = p.id and k.order_index <> p.pos
        returning k.id
      )
      select (select word from me) as word, (select count(*)::int from moved) as moved`),
  );
  if (!row?.word) return { status: "not_found" };
  return row.moved > 0 ? { status: "ok", word: row.word } : { status: "unchanged" };
}

/** Hides or shows a card of the category (a hidden card stays on this list and out of new games). */
export async function setCardHidden(db: DbOrTx, slug: string, cardId: string, hidden: boolean): Promise<ListOutcome> {
  const [row] = await db
    .update(flashcardCards)
    .set({ hidden, updatedAt: new Date() })
    .where(and(eq(flashcardCards.id, cardId), listed(slug)))
    .returning({ word: flashcardCards.word });
  return row ? { status: "ok", word: row.word } : { status: "not_found" };
}

/**
 * Deletes a card softly: `deleted_at` is set, the row stays (old games and the learners' memory point
 * at it, and content migrations never add it back); its uploads stay too (old games' result screens
 * show them).
 */
export async function deleteCard(db: DbOrTx, slug: string, cardId: string): Promise<ListOutcome> {
  const [row] = await db
    .update(flashcardCards)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(flashcardCards.id, cardId), listed(slug)))
    .returning({ word: flashcardCards.word });
  return row ? { status: "ok", word: row.word } : { status: "not_found" };
}

// ——— the list's controls ———

const LIST_TOASTS: Record<CardAction["intent"], string> = {
  move: "Ordem atualizada",
  hide: "Cartão oculto",
  show: "Cartão visível",
  delete: "Cartão excluído",
};

/**
 * One control of the list, after the guard: validate the url-encoded form, ask first when a deletion
 * is not confirmed (no JavaScript), apply it, and come back to the list (scrolled to the card) with a
 * toast — or answer the refusal (400 unknown control, 404 unknown card) through conform.
 */
export async function handleCardAction(request: Request, context: AppLoadContext, slug: string) {
  const submission = await parseForm(request, cardActionSchema);
  if (submission.status !== "success") {
    return adminReply(submission.reply({ formErrors: ["Erro", BODY_MESSAGES.unknownIntent] }), "unknown_intent", 400);
  }
  const input = submission.value;
  const listPath = categoryAdminPath(slug);
  if (input.intent === "delete" && !input.confirmed) {
    return redirect(`${listPath}?${DELETE_PARAM}=${input.card_id}#${CONFIRM_DELETE_ID}`);
  }
  const db = context.db;
  const outcome =
    input.intent === "move"
      ? await moveCard(db, slug, input.card_id, input.direction)
      : input.intent === "delete"
        ? await deleteCard(db, slug, input.card_id)
        : await setCardHidden(db, slug, input.card_id, input.intent === "hide");
  if (outcome.status === "not_found") {
    return adminReply(submission.reply({ formErrors: ["Erro", "Cartão não encontrado nesta categoria"] }), "not_found", 404);
  }
  const back = input.intent === "delete" ? listPath : `${listPath}#${cardAnchor(input.card_id)}`;
  if (outcome.status === "unchanged") return redirect(back);
  return redirectWithToast(context.cloudflare.env, back, { type: "success", title: LIST_TOASTS[input.intent], description: outcome.word });
}

/**
 * The card form's action (add and edit), after the guard: the shared admin form workflow with the
 * card's fields and files; a save goes back to the category's list, scrolled to the card, with
 * "Cartão salvo".
 */
export function handleCardSave(
  request: Request,
  context: AppLoadContext,
  options: {
    save: (value: CardInput, urls: Record<string, string>) => Promise<CardSaved | null>;
    /** "Falha ao salvar cartão" */
    failure: string;
    notFound: string;
    /** The toast's description. */
    saved: string;
    requiredFiles?: Readonly<Record<string, string>>;
  },
) {
  return handleAdminSave({
    request,
    context,
    schema: cardSchema,
    files: CARD_FILES,
    requiredFiles: options.requiredFiles,
    save: options.save,
    failure: (message) => `${options.failure}: ${message}`,
    notFound: options.notFound,
    success: {
      to: (saved) => `${categoryAdminPath(saved.categorySlug)}#${cardAnchor(saved.cardId)}`,
      title: "Cartão salvo",
      description: options.saved,
    },
  });
}
