// Buying credits: the Stripe Checkout Sessions of credit packs (the credits themselves go through the credit ledger).
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamps, users } from "~/server/schema";

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
