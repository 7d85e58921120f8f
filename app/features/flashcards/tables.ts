// The flashcards' tables: categories and cards, games and their questions, a learner's memory of each card and
// the bundles downloaded for offline practice (features/offline serves them; a game played offline points at its
// bundle, so the two live together here).
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { notebookEntries } from "~/features/notebook";
import { timestamps, users } from "~/server/schema";

export const flashcardCategories = pgTable("flashcard_categories", {
  /** Stable id, also in URLs: animais, acoes, comidas, … */
  slug: text("slug").primaryKey(),
  name: text("name").notNull(),
  /** Shipped picture of the tile (a key of the content manifest). */
  tileAsset: text("tile_asset").notNull(),
  orderIndex: integer("order_index").notNull().default(0),
  ...timestamps,
});

export const flashcardCards = pgTable(
  "flashcard_cards",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The shipped card this row came from (content/flashcards/cards.json); null for cards an admin added. */
    contentId: text("content_id").unique(),
    categorySlug: text("category_slug")
      .notNull()
      .references(() => flashcardCategories.slug, { onDelete: "cascade" }),
    word: text("word").notNull(),
    translation: text("translation").notNull(),
    /** Cards of one group (near-synonyms) are never options of the same question. */
    distractorGroup: text("distractor_group").notNull(),
    /** Shipped picture / word audio (content manifest keys); an upload (R2 key) wins over them. */
    imageAsset: text("image_asset"),
    imageKey: text("image_key"),
    audioAsset: text("audio_asset"),
    audioKey: text("audio_key"),
    orderIndex: integer("order_index").notNull().default(0),
    hidden: boolean("hidden").notNull().default(false),
    /** Deleted by an admin: kept (old games point at it) but never shown, and never re-added by content migrations. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("flashcard_cards_category_idx").on(t.categorySlug, t.orderIndex),
    check("flashcard_cards_has_image", sql`${t.imageAsset} is not null or ${t.imageKey} is not null`),
  ],
);

export const flashcardGames = pgTable(
  "flashcard_games",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The category played, or null for a review game (due cards of every category). */
    categorySlug: text("category_slug").references(() => flashcardCategories.slug, { onDelete: "set null" }),
    kind: text("kind", { enum: ["category", "review"] }).notNull(),
    questionCount: smallint("question_count").notNull(),
    answeredCount: smallint("answered_count").notNull().default(0),
    correctCount: smallint("correct_count").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** A game played offline from this bundle (its id is the one the learner's device made); null for online games. */
    offlineBundleId: uuid("offline_bundle_id").references((): AnyPgColumn => offlineBundles.id, { onDelete: "set null" }),
  },
  (t) => [
    index("flashcard_games_user_idx").on(t.userId, t.createdAt),
    check("flashcard_games_kind_check", sql`${t.kind} in ('category', 'review')`),
    check("flashcard_games_counts", sql`${t.correctCount} <= ${t.answeredCount} and ${t.answeredCount} <= ${t.questionCount}`),
  ],
);

export const flashcardQuestions = pgTable(
  "flashcard_questions",
  {
    gameId: uuid("game_id")
      .notNull()
      .references(() => flashcardGames.id, { onDelete: "cascade" }),
    /** 0-based order in the game. */
    position: smallint("position").notNull(),
    /** A picture card's question; or, in Revisão, a correction card's: one of the two. */
    cardId: uuid("card_id").references(() => flashcardCards.id, { onDelete: "cascade" }),
    entryId: uuid("entry_id").references(() => notebookEntries.id, { onDelete: "cascade" }),
    /** A picture card's 4 options (card ids, the right one among them), in the order shown; empty for a correction. */
    optionIds: uuid("option_ids").array().notNull(),
    /** A correction card's 4 options (the right form and its 3 alternatives), in the order shown. */
    optionTexts: text("option_texts").array(),
    chosenId: uuid("chosen_id"),
    /** The correction option chosen (0-based in option_texts). */
    chosenIndex: smallint("chosen_index"),
    correct: boolean("correct"),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    /** The idempotency key of an answer given offline: a synced answer is stored once however often it is sent. */
    answerKey: uuid("answer_key").unique(),
  },
  (t) => [
    primaryKey({ columns: [t.gameId, t.position] }),
    check("flashcard_questions_card_or_entry", sql`(${t.cardId} is null) <> (${t.entryId} is null)`),
  ],
);

/** A learner's memory of a card (FSRS state, ts-fsrs field names in snake case). */
export const flashcardMemory = pgTable(
  "flashcard_memory",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    cardId: uuid("card_id")
      .notNull()
      .references(() => flashcardCards.id, { onDelete: "cascade" }),
    due: timestamp("due", { withTimezone: true }).notNull(),
    stability: real("stability").notNull(),
    difficulty: real("difficulty").notNull(),
    elapsedDays: integer("elapsed_days").notNull(),
    scheduledDays: integer("scheduled_days").notNull(),
    reps: integer("reps").notNull(),
    lapses: integer("lapses").notNull(),
    /** ts-fsrs State: 0 new, 1 learning, 2 review, 3 relearning. */
    state: smallint("state").notNull(),
    lastReview: timestamp("last_review", { withTimezone: true }),
    /** Whether the last answer was wrong (the result screen and the review pick these first). */
    lastMissed: boolean("last_missed").notNull().default(false),
    /** Answers given wrong, ever: the second makes the word a "Meu caderno" entry. */
    missCount: integer("miss_count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.cardId] }), index("flashcard_memory_due_idx").on(t.userId, t.due)],
);

/**
 * A download for offline practice: Revisão or a category, issued to one learner until `expires_at`, with
 * the options each card was given (card id → option ids), so a sync accepts only answers the bundle could produce.
 */
export const offlineBundles = pgTable(
  "offline_bundles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["category", "review"] }).notNull(),
    categorySlug: text("category_slug").references(() => flashcardCategories.slug, { onDelete: "set null" }),
    cards: jsonb("cards").$type<Record<string, string[]>>().notNull(),
    /** Revisão's correction cards: entry id → the 4 option texts as the bundle shows them. */
    entries: jsonb("entries").$type<Record<string, string[]>>().notNull().default({}),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("offline_bundles_user_idx").on(t.userId, t.issuedAt),
    check("offline_bundles_kind_check", sql`${t.kind} in ('category', 'review')`),
  ],
);
