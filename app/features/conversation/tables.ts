// The conversations with Nika and their messages, shared by the text chat and Conversa ao vivo (both reach them
// through ~/features/conversation). A lesson's conversation points at its lesson (~/features/courses).
import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { lessons } from "~/features/courses";
import { timestamps, users } from "~/server/schema";

/**
 * A learner's mistake a conversation brings back (spec: Nika creates a chance to use the right form, never lists
 * it). Chosen when the conversation starts, from "Meu caderno"'s due entries, and kept so every turn's prompt and
 * the conversation's summary see the same ones.
 */
export type ConversationFocusItem = { entryId: string; kind: string; wrong: string; right: string };

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
    /** Up to 5 due mistakes this conversation brings back (empty: none were due). */
    focus: jsonb("focus").$type<ConversationFocusItem[]>().notNull().default([]),
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

export type ChatConversation = typeof chatConversations.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;
