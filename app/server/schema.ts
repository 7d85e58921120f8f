// The core data model (spec §3): the accounts, their roles, sessions and credits, the flags, the daily habit
// (activities and streak) and what app/server itself writes (rate limits, mail, browser error reports). Each
// feature's own tables are in app/features/<name>/tables.ts; drizzle.config.ts reads this file and those, and
// migrations are generated from them with `npm run db:generate` and committed under migrations/.
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
  smallint,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** `created_at` and `updated_at`, shared by the tables that have both (features' tables too). */
export const timestamps = {
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

// ——— sign-in sessions, the credit ledger, rate limits, mail and browser error reports ———

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

export type User = typeof users.$inferSelect;
