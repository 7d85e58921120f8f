// "Meu caderno": the learner's mistakes, one row per mistake (same kind and corrected form), each an FSRS item.
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, real, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { chatConversations, chatMessages } from "~/features/conversation";
import { users } from "~/server/schema";

export const NOTEBOOK_KINDS = ["grammar", "vocabulary", "word_choice", "false_friend", "portuguese_word", "spelling", "pronunciation"] as const;
export type NotebookKind = (typeof NOTEBOOK_KINDS)[number];

/** Where the mistake was last made. */
export const NOTEBOOK_SOURCES = ["chat", "voice", "live", "lesson", "pronunciation", "flashcards"] as const;
export type NotebookSource = (typeof NOTEBOOK_SOURCES)[number];

export const NOTEBOOK_STATES = ["new", "practising", "mastered"] as const;
export type NotebookState = (typeof NOTEBOOK_STATES)[number];

/** Field limits, also the review answer's (a longer correction is dropped, never cut). */
export const NOTEBOOK_LIMITS = { wrong: 200, right: 200, explanation: 300, alternative: 200 } as const;

/**
 * Where the mistake was made, beyond its turn: the learner's sentence (a conversation turn's, or a pronunciation
 * level's), a pronunciation attempt's level and score, a flashcard's card and category.
 */
export type NotebookDetails = { level?: number; sentence?: string; score?: number; cardId?: string; category?: string };

export const notebookEntries = pgTable(
  "notebook_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTEBOOK_KINDS }).notNull(),
    /** The learner's words, as they said or wrote them. */
    wrong: text("wrong").notNull(),
    /** The corrected form. */
    right: text("right").notNull(),
    /** `right` folded (lower case, single spaces): with the kind, what makes two mistakes the same one. */
    rightKey: text("right_key").notNull(),
    /** One sentence in pt-BR. */
    explanation: text("explanation").notNull(),
    /** Three wrong-but-plausible forms for the practice card. */
    alternatives: jsonb("alternatives").$type<string[]>().notNull(),
    source: text("source", { enum: NOTEBOOK_SOURCES }).notNull(),
    /** The conversation turn it was last made in (chat, voice, live, lesson practice). */
    conversationId: uuid("conversation_id").references(() => chatConversations.id, { onDelete: "set null" }),
    messageId: uuid("message_id").references(() => chatMessages.id, { onDelete: "set null" }),
    details: jsonb("details").$type<NotebookDetails>(),
    /** How many times it was made. */
    count: integer("count").notNull().default(1),
    state: text("state", { enum: NOTEBOOK_STATES }).notNull().default("new"),
    /** When "Já sei" (or, later, FSRS) marked it mastered; the admin's "mastered within 30 days". */
    masteredAt: timestamp("mastered_at", { withTimezone: true }),
    /** "Essa correção está errada": kept (counted, and never added again), never shown. */
    dismissedAt: timestamp("dismissed_at", { withTimezone: true }),
    // FSRS, ts-fsrs field names in snake case (as flashcard_memory).
    due: timestamp("due", { withTimezone: true }).notNull().defaultNow(),
    stability: real("stability").notNull().default(0),
    difficulty: real("difficulty").notNull().default(0),
    elapsedDays: integer("elapsed_days").notNull().default(0),
    scheduledDays: integer("scheduled_days").notNull().default(0),
    reps: integer("reps").notNull().default(0),
    lapses: integer("lapses").notNull().default(0),
    /** ts-fsrs State: 0 new, 1 learning, 2 review, 3 relearning. */
    fsrsState: smallint("fsrs_state").notNull().default(0),
    lastReview: timestamp("last_review", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("notebook_entries_mistake_idx").on(t.userId, t.kind, t.rightKey),
    index("notebook_entries_due_idx")
      .on(t.userId, t.due)
      .where(sql`${t.dismissedAt} is null`),
    check("notebook_entries_count_positive", sql`${t.count} > 0`),
    check(
      "notebook_entries_lengths",
      sql`char_length(${t.wrong}) between 1 and ${sql.raw(String(NOTEBOOK_LIMITS.wrong))}
        and char_length(${t.right}) between 1 and ${sql.raw(String(NOTEBOOK_LIMITS.right))}
        and char_length(${t.explanation}) <= ${sql.raw(String(NOTEBOOK_LIMITS.explanation))}`,
    ),
  ],
);

export const SIGHTING_KINDS = ["made", "used_right"] as const;
export type SightingKind = (typeof SIGHTING_KINDS)[number];

/**
 * Each time an entry shows up in a conversation: made again (a correction), or used right unprompted (an FSRS Good).
 * What "Resumo da conversa" reads, and the exact turn an entry links to.
 */
export const notebookSightings = pgTable(
  "notebook_sightings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => notebookEntries.id, { onDelete: "cascade" }),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => chatConversations.id, { onDelete: "cascade" }),
    messageId: uuid("message_id").references(() => chatMessages.id, { onDelete: "set null" }),
    kind: text("kind", { enum: SIGHTING_KINDS }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("notebook_sightings_conversation_idx").on(t.conversationId, t.createdAt),
    index("notebook_sightings_entry_idx").on(t.entryId),
    check("notebook_sightings_kind_check", sql`${t.kind} in ('made', 'used_right')`),
  ],
);
