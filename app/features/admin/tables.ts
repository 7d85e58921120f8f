// The admin console: the audit log of what admins did to users.
import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "~/server/schema";

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
