// Conversa ao vivo's tables: a learner's live spoken sessions (in a conversation of ~/features/conversation) and
// every minute of them that was paid for.
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { chatConversations } from "~/features/conversation";
import { users } from "~/server/schema";

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
