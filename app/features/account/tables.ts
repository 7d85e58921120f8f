// Account settings: the record of the changes learners make to their profiles.
import { sql } from "drizzle-orm";
import { bigserial, check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "~/server/schema";

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
