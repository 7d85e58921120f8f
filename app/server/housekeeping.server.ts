// What the hourly cron deletes, and after how long: every table written per request or per message, so none only
// grows. docs/operations.md states the same retention; change both together. The features' tables (auth_tokens,
// offline_bundles, live_sessions, live_connections) are named in raw SQL: app/server never imports a feature.
import { lt, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { rowsOf, type DbOrTx } from "./db.server";
import { pruneAttempts } from "./rate-limit.server";
import { clientErrorReports, mailOutbox, sessions } from "./schema";

const DAY_MS = 86_400_000;

export const RETENTION_DAYS = {
  /** Bodies carry signed links (reset, confirmation, unsubscribe): kept a week for support, then gone. */
  mailOutbox: 7,
  /** Sign-in sessions: deleted once expired (30 days after their last renewal). */
  expiredSessions: 0,
  /** Links: a week after they expired (or were used), so an old link still says "expired", not "invalid", for a while. */
  authTokens: 7,
  /** Offline bundles: 30 days after they expired (a late sync still gets "expired"). */
  offlineBundles: 30,
  /** Live conversations (with their minutes; the credit ledger keeps the money): 30 days after they started. */
  liveSessions: 30,
  /** Presence in a lesson's live channel: a row a day old is a connection that never said goodbye. */
  liveConnections: 1,
  /** Error reports from browsers. */
  clientErrorReports: 30,
  /** Rate-limit attempts (no window is longer than a day). */
  rateLimitAttempts: 1,
} as const;

const before = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/** Deletes what is past its retention; returns how many rows each table lost. */
export async function pruneOldRows(db: DbOrTx, now = new Date()) {
  const cutoff = (days: number) => before(now, days);
  const gone = async (table: PgTable, where: SQL | undefined) =>
    (
      await db
        .delete(table)
        .where(where)
        .returning({ one: sql<number>`1` })
    ).length;
  /** A `delete from … where …` of a feature's table; how many rows it deleted. */
  const goneRaw = async (statement: SQL) => rowsOf(await db.execute(sql`${statement} returning 1`)).length;
  const at = (days: number) => cutoff(days).toISOString();
  return {
    mailOutbox: await gone(mailOutbox, lt(mailOutbox.createdAt, cutoff(RETENTION_DAYS.mailOutbox))),
    sessions: await gone(sessions, lt(sessions.expiresAt, cutoff(RETENTION_DAYS.expiredSessions))),
    authTokens: await goneRaw(sql`
      delete from auth_tokens
      where expires_at < ${at(RETENTION_DAYS.authTokens)}::timestamptz
         or (used_at is not null and used_at < ${at(RETENTION_DAYS.authTokens)}::timestamptz)`),
    offlineBundles: await goneRaw(sql`delete from offline_bundles where expires_at < ${at(RETENTION_DAYS.offlineBundles)}::timestamptz`),
    liveSessions: await goneRaw(sql`delete from live_sessions where started_at < ${at(RETENTION_DAYS.liveSessions)}::timestamptz`),
    liveConnections: await goneRaw(sql`delete from live_connections where connected_at < ${at(RETENTION_DAYS.liveConnections)}::timestamptz`),
    clientErrorReports: await gone(clientErrorReports, lt(clientErrorReports.createdAt, cutoff(RETENTION_DAYS.clientErrorReports))),
    rateLimitAttempts: await pruneAttempts(db, now),
  };
}
