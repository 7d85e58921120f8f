// The whole data model (spec §3) plus the server-side tables. Migrations are generated from this file
// with `npm run db:generate` and committed under migrations/.
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phoneNumber: text("phone_number"),
    emailConfirmedAt: timestamp("email_confirmed_at", { withTimezone: true }),
    /** Pending e-mail change, confirmed through an email_change token. */
    newEmail: text("new_email"),
    accountType: text("account_type", { enum: ["free", "blocked"] })
      .notNull()
      .default("free"),
    /** The spendable balance: this month's allowance, admin grants and bought credits. */
    monthlyCredits: integer("monthly_credits").notNull().default(0),
    /**
     * The part of the balance that was bought and not yet spent: spending takes the monthly credits first,
     * and the monthly renewal keeps these (allowance + purchased). Never above the balance.
     */
    purchasedCredits: integer("purchased_credits").notNull().default(0),
    /** The São Paulo month (YYYY-MM) the credits were last renewed for. */
    creditsPeriod: text("credits_period"),
    conversationsStarted: integer("conversations_started").notNull().default(0),
    flashcardsPlayed: integer("flashcards_played").notNull().default(0),
    lessonsWatched: integer("lessons_watched").notNull().default(0),
    modulesCompleted: integer("modules_completed").notNull().default(0),
    courseCompletion: integer("course_completion").notNull().default(0),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    /** CEFR level (A1–C2) from the last finished English level test. */
    englishLevel: text("english_level"),
    /** 1–7: one of the bundled avatars (spec §3: default the second). */
    avatar: smallint("avatar").notNull().default(2),
    englishLevelAt: timestamp("english_level_at", { withTimezone: true }),
    /** Points a day the learner aims for (10 Leve, 20 Regular, 30 Sério, 50 Intenso). */
    dailyGoal: smallint("daily_goal").notNull().default(20),
    /** When the learner chose a goal (null: the home page offers the choice once they have an activity). */
    dailyGoalChosenAt: timestamp("daily_goal_chosen_at", { withTimezone: true }),
    /** The streak ("ofensiva") as of `lastActiveDay`, kept by recordActivity; streak_events has its history. */
    currentStreak: integer("current_streak").notNull().default(0),
    longestStreak: integer("longest_streak").notNull().default(0),
    streakFreezes: smallint("streak_freezes").notNull().default(0),
    /** The last São Paulo day with a finished activity. */
    lastActiveDay: date("last_active_day", { mode: "string" }),
    /** "Lembrete diário" by e-mail (opt-in), and the São Paulo day the last one went out. */
    reminderOptIn: boolean("reminder_opt_in").notNull().default(false),
    reminderSentDay: date("reminder_sent_day", { mode: "string" }),
    /** The address that confirmed it wants reminders (the link of "Quer receber lembretes?"); reminders go only there. */
    reminderConfirmedEmail: text("reminder_confirmed_email"),
    /** The address the confirmation was mailed to: one ask per address, nothing more until it is followed. */
    reminderConfirmationSentEmail: text("reminder_confirmation_sent_email"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    check("users_daily_goal_check", sql`${t.dailyGoal} in (10, 20, 30, 50)`),
    check("users_streak_freezes_range", sql`${t.streakFreezes} between 0 and 2`),
    check("users_credits_non_negative", sql`${t.monthlyCredits} >= 0`),
    check("users_purchased_credits_range", sql`${t.purchasedCredits} between 0 and ${t.monthlyCredits}`),
    check("users_course_completion_range", sql`${t.courseCompletion} between 0 and 100`),
    check("users_avatar_range", sql`${t.avatar} between 1 and 7`),
  ],
);

export const userRoles = pgTable(
  "user_roles",
  {
    id: serial("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["admin"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("user_roles_user_role_unique").on(t.userId, t.role)],
);

export const appConfig = pgTable("app_config", {
  id: serial("id").primaryKey(),
  configKey: text("config_key").notNull().unique(),
  configValue: boolean("config_value").notNull(),
  /** Only for non-boolean keys (app_name). */
  textValue: text("text_value"),
  description: text("description").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type DownloadableMaterial = {
  title: string;
  type: string;
  size: string;
  url: string;
  uploadedAt: string;
};

export const modules = pgTable(
  "modules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    description: text("description"),
    orderIndex: integer("order_index").notNull().default(0),
    imageUrl: text("image_url"),
    bannerUrl: text("banner_url"),
    bannerTitle: text("banner_title"),
    bannerSubtitle: text("banner_subtitle"),
    available: text("available", { enum: ["yes", "no"] })
      .notNull()
      .default("yes"),
    ...timestamps,
  },
  (t) => [index("modules_order_idx").on(t.orderIndex)],
);

export const lessons = pgTable(
  "lessons",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    moduleId: uuid("module_id")
      .notNull()
      .references(() => modules.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    videoUrl: text("video_url"),
    iframe: text("iframe"),
    thumbnailUrl: text("thumbnail_url"),
    durationSeconds: integer("duration_seconds").notNull().default(0),
    orderIndex: integer("order_index").notNull().default(0),
    downloadableMaterials: jsonb("downloadable_materials")
      .$type<DownloadableMaterial[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    ...timestamps,
  },
  (t) => [index("lessons_module_order_idx").on(t.moduleId, t.orderIndex)],
);

export const siteBanners = pgTable("site_banners", {
  id: serial("id").primaryKey(),
  section: text("section").notNull(),
  title: text("title"),
  subtitle: text("subtitle"),
  backgroundImageUrl: text("background_image_url"),
  backgroundGradient: text("background_gradient"),
  isActive: boolean("is_active").notNull().default(false),
  ...timestamps,
});

export const userLessonProgress = pgTable(
  "user_lesson_progress",
  {
    id: serial("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lessonId: uuid("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    completed: boolean("completed").notNull().default(false),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("user_lesson_progress_unique").on(t.userId, t.lessonId)],
);

export const lessonComments = pgTable(
  "lesson_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    lessonId: uuid("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    parentId: uuid("parent_id").references((): AnyPgColumn => lessonComments.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("lesson_comments_lesson_created_idx").on(t.lessonId, t.createdAt)],
);

// ——— server-side tables ———

export const passwordCredentials = pgTable("password_credentials", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>` */
  passwordHash: text("password_hash").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const sessions = pgTable(
  "sessions",
  {
    /** SHA-256 of the token in the cookie; the token itself is never stored. */
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const authTokens = pgTable(
  "auth_tokens",
  {
    id: serial("id").primaryKey(),
    /** SHA-256 of the single-use token sent by e-mail. */
    tokenHash: text("token_hash").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["email_verification", "password_reset", "email_change"] }).notNull(),
    newEmail: text("new_email"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("auth_tokens_user_purpose_idx").on(t.userId, t.purpose)],
);

export const rateLimitAttempts = pgTable(
  "rate_limit_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    bucket: text("bucket").notNull(),
    subject: text("subject").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("rate_limit_lookup_idx").on(t.bucket, t.subject, t.createdAt)],
);

export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serial("id").primaryKey(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    kind: text("kind").notNull(),
    /** Extra headers sent with the message (e.g. List-Unsubscribe), shown by /dev/mailbox. */
    headers: jsonb("headers").$type<Record<string, string>>(),
    /** sent | failed | not_configured (no mail API: kept only here, readable at /dev/mailbox) */
    status: text("status").notNull(),
    providerMessageId: text("provider_message_id"),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mail_outbox_to_idx").on(t.toAddress, t.createdAt)],
);

export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    reason: text("reason").notNull(),
    /** A purchase or its refund: what was paid, in the currency's minor unit (centavos), and the currency. */
    amountCents: integer("amount_cents"),
    currency: text("currency"),
    /**
     * What a spend paid for when it is stored by a later statement (a chat message's id, a pronunciation attempt's
     * id), and the same id on its refund: a spend whose thing never appeared is refunded by the sweep
     * (refundAbandonedSpends), and one id is refunded at most once.
     */
    ref: uuid("ref"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("credit_ledger_user_idx").on(t.userId, t.createdAt),
    index("credit_ledger_ref_spend_idx")
      .on(t.createdAt)
      .where(sql`${t.ref} is not null and ${t.delta} < 0`),
    uniqueIndex("credit_ledger_ref_refund_idx")
      .on(t.ref)
      .where(sql`${t.delta} > 0`),
  ],
);

/** A Google (OpenID Connect) identity linked to an account: `subject` is Google's stable `sub`. */
export const oauthAccounts = pgTable(
  "oauth_accounts",
  {
    id: serial("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["google"] }).notNull(),
    subject: text("subject").notNull(),
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("oauth_accounts_provider_subject_unique").on(t.provider, t.subject), index("oauth_accounts_user_idx").on(t.userId)],
);

/**
 * A Stripe Checkout Session for a credit pack, created when the learner chooses the pack. Its status only
 * moves forward (open → pending → paid → refunded, or → failed/expired); the webhook credits a session once.
 */
export const creditPurchases = pgTable(
  "credit_purchases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    checkoutSessionId: text("checkout_session_id").notNull(),
    packId: text("pack_id").notNull(),
    credits: integer("credits").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: ["open", "pending", "paid", "failed", "expired", "refunded"] })
      .notNull()
      .default("open"),
    paymentIntentId: text("payment_intent_id"),
    /** Credits taken back by refunds so far (a partial refund takes its share). */
    refundedCredits: integer("refunded_credits").notNull().default(0),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("credit_purchases_session_unique").on(t.checkoutSessionId),
    index("credit_purchases_user_idx").on(t.userId, t.createdAt),
    index("credit_purchases_payment_intent_idx").on(t.paymentIntentId),
    check("credit_purchases_positive", sql`${t.credits} > 0 and ${t.amountCents} > 0`),
  ],
);

export const clientErrorReports = pgTable("client_error_reports", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
  name: text("name").notNull(),
  message: text("message").notNull(),
  stack: text("stack"),
  context: jsonb("context"),
  url: text("url"),
  userAgent: text("user_agent"),
  reportedAt: timestamp("reported_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

// ——— chat with Nika ———

export const CHAT_MODE_IDS = ["portuguese", "english", "game", "roleplay", "english-test", "lesson"] as const;

export const chatConversations = pgTable(
  "chat_conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: CHAT_MODE_IDS }).notNull(),
    lessonId: uuid("lesson_id").references(() => lessons.id, { onDelete: "set null" }),
    /** When a request took the greeting (one at a time; a claim older than GREETING_CLAIM_TTL_SECONDS is free again). */
    greetingClaimedAt: timestamp("greeting_claimed_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("chat_conversations_user_updated_idx").on(t.userId, t.updatedAt),
    check("chat_conversations_mode_check", sql`${t.mode} in ('portuguese', 'english', 'game', 'roleplay', 'english-test', 'lesson')`),
  ],
);

export const chatMessages = pgTable(
  "chat_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => chatConversations.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "nika"] }).notNull(),
    text: text("text").notNull(),
    audioUrl: text("audio_url"),
    transcription: text("transcription"),
    status: text("status", { enum: ["complete", "failed"] })
      .notNull()
      .default("complete"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("chat_messages_conversation_created_idx").on(t.conversationId, t.createdAt),
    check("chat_messages_role_check", sql`${t.role} in ('user', 'nika')`),
    check("chat_messages_status_check", sql`${t.status} in ('complete', 'failed')`),
  ],
);

// ——— flashcards and their offline bundles ———

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
    cardId: uuid("card_id")
      .notNull()
      .references(() => flashcardCards.id, { onDelete: "cascade" }),
    /** The 4 options (card ids, the right one among them), in the order shown. */
    optionIds: uuid("option_ids").array().notNull(),
    chosenId: uuid("chosen_id"),
    correct: boolean("correct"),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    /** The idempotency key of an answer given offline: a synced answer is stored once however often it is sent. */
    answerKey: uuid("answer_key").unique(),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.position] })],
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
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("offline_bundles_user_idx").on(t.userId, t.issuedAt),
    check("offline_bundles_kind_check", sql`${t.kind} in ('category', 'review')`),
  ],
);

// ——— pronunciation game ———

/** The 100 levels (seeded by migration from content/pronunciation/levels.json; an admin may edit them). */
export const pronunciationLevels = pgTable(
  "pronunciation_levels",
  {
    level: smallint("level").primaryKey(),
    /** 1–10: the sound the level trains (content/pronunciation/levels.json `bands`). */
    band: smallint("band").notNull(),
    sentence: text("sentence").notNull(),
    /** pt-BR translation. */
    translation: text("translation").notNull(),
    /** Shipped reference audio (content manifest key); an admin's upload (R2 key) wins over it. */
    audioAsset: text("audio_asset"),
    audioKey: text("audio_key"),
    ...timestamps,
  },
  (t) => [
    check("pronunciation_levels_range", sql`${t.level} between 1 and 100 and ${t.band} between 1 and 10`),
    check("pronunciation_levels_has_audio", sql`${t.audioAsset} is not null or ${t.audioKey} is not null`),
  ],
);

/**
 * One attempt: created together with its credit (status `scoring`), then `scored` with the scorer's
 * result, or `failed` (credit refunded). Best scores are derived from the scored ones.
 */
export const pronunciationAttempts = pgTable(
  "pronunciation_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    level: smallint("level")
      .notNull()
      .references(() => pronunciationLevels.level, { onDelete: "cascade" }),
    status: text("status", { enum: ["scoring", "scored", "failed"] })
      .notNull()
      .default("scoring"),
    /** The sentence as it was when the attempt was made (an admin may edit the level later). */
    sentence: text("sentence").notNull(),
    overallScore: real("overall_score"),
    accuracyScore: real("accuracy_score"),
    fluencyScore: real("fluency_score"),
    completenessScore: real("completeness_score"),
    pronunciationScore: real("pronunciation_score"),
    prosodyScore: real("prosody_score"),
    /** [{ word, accuracyScore, errorType }] in sentence order (insertions where they were heard). */
    words: jsonb("words").$type<{ word: string; accuracyScore: number; errorType: "None" | "Mispronunciation" | "Omission" | "Insertion" }[]>(),
    recognizedText: text("recognized_text"),
    /** The learner's recording in R2 (for replay next to the reference). */
    audioKey: text("audio_key"),
    scorer: text("scorer").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("pronunciation_attempts_best_idx").on(t.userId, t.level, t.overallScore),
    check("pronunciation_attempts_status_check", sql`${t.status} in ('scoring', 'scored', 'failed')`),
    check("pronunciation_attempts_scored", sql`${t.status} <> 'scored' or ${t.overallScore} is not null`),
  ],
);

// ——— account settings and the admin console ———

/**
 * A change a learner made to their profile (name, e-mail, WhatsApp, avatar), recorded when it happens:
 * the admin analytics count them (profileUpdates30Days / 7Days).
 */
export const profileUpdates = pgTable(
  "profile_updates",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    field: text("field", { enum: ["name", "email", "phone", "avatar"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("profile_updates_created_idx").on(t.createdAt),
    check("profile_updates_field_check", sql`${t.field} in ('name', 'email', 'phone', 'avatar')`),
  ],
);

/** What an admin did to a user (block, credits, role, resend): who, what, when, before and after. */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The admin; kept as null if that account is deleted later. */
    adminId: uuid("admin_id").references(() => users.id, { onDelete: "set null" }),
    targetUserId: uuid("target_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    action: text("action").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("admin_audit_log_target_idx").on(t.targetUserId, t.createdAt)],
);

/**
 * Which lessons' live channels a user has opened (written when the WebSocket is handed over), so
 * blocking the user asks only those channels to close their sockets. A row may outlive its socket.
 */
export const liveConnections = pgTable(
  "live_connections",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lessonId: uuid("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    connectedAt: timestamp("connected_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.lessonId] })],
);

// ——— the daily habit: activities and streak ———

export const ACTIVITY_KINDS = [
  "lesson_completed",
  "flashcard_game",
  "review_game",
  "pronunciation_attempt",
  "chat_exchange",
  "level_test",
  "live_minute",
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** Every finished learning action, once (unique per learner, kind and the action's own id), on its São Paulo day. */
export const activities = pgTable(
  "activities",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ACTIVITY_KINDS }).notNull(),
    /** The action's own id (a lesson, a game, an attempt, a message…): the same action is one activity. */
    ref: text("ref").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    points: smallint("points").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("activities_user_kind_ref_unique").on(t.userId, t.kind, t.ref),
    index("activities_user_day_idx").on(t.userId, t.day),
    check("activities_kind_check", sql`${t.kind} in ${sql.raw(`(${ACTIVITY_KINDS.map((k) => `'${k}'`).join(", ")})`)}`),
    check("activities_points_check", sql`${t.points} >= 0`),
  ],
);

export const STREAK_EVENT_KINDS = ["extended", "frozen", "broken", "freeze_earned"] as const;

/** Every change of a learner's streak, one row per day and kind: the streak can be audited and recomputed from them. */
export const streakEvents = pgTable(
  "streak_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    kind: text("kind", { enum: STREAK_EVENT_KINDS }).notNull(),
    streakAfter: integer("streak_after").notNull(),
    freezesAfter: smallint("freezes_after").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("streak_events_user_day_kind_unique").on(t.userId, t.day, t.kind),
    check("streak_events_kind_check", sql`${t.kind} in ('extended', 'frozen', 'broken', 'freeze_earned')`),
  ],
);

// ——— live conversation (Conversa ao vivo) ———

/** One live spoken session of a learner in a conversation, relayed by the learner's LiveConversation object. */
export const liveSessions = pgTable(
  "live_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => chatConversations.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["active", "ended"] })
      .notNull()
      .default("active"),
    endReason: text("end_reason"),
    creditsPerMinute: integer("credits_per_minute").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    index("live_sessions_user_started_idx").on(t.userId, t.startedAt),
    check("live_sessions_status_check", sql`${t.status} in ('active', 'ended')`),
  ],
);

/**
 * Every started minute of a live session, written in the same statement as its spend (the primary key makes a
 * minute payable once). `pending` until the provider proved it served the minute; `refunded` when it failed.
 */
export const liveMinutes = pgTable(
  "live_minutes",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => liveSessions.id, { onDelete: "cascade" }),
    minute: integer("minute").notNull(),
    /** The ref of the minute's spend and of its refund in credit_ledger (one refund per ref). */
    ref: uuid("ref").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    credits: integer("credits").notNull(),
    status: text("status", { enum: ["pending", "used", "refunded"] }).notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.minute] }),
    index("live_minutes_pending_idx")
      .on(t.startedAt)
      .where(sql`${t.status} = 'pending'`),
    check("live_minutes_status_check", sql`${t.status} in ('pending', 'used', 'refunded')`),
  ],
);

export type User = typeof users.$inferSelect;
export type ChatConversation = typeof chatConversations.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;
