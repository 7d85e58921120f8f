// What the hourly cron deletes, and after how long: every table written per request or per message, so none only
// grows. The README's operations section states the same retention; change both together.
import { and, isNotNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "./db.server";
import { pruneAttempts } from "./rate-limit.server";
import { authTokens, clientErrorReports, liveConnections, liveSessions, mailOutbox, offlineBundles, sessions } from "./schema";

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
  const deleted = async (rows: Promise<unknown[]>) => (await rows).length;
  const id = { one: sql<number>`1` };
  return {
    mailOutbox: await deleted(
      db
        .delete(mailOutbox)
        .where(lt(mailOutbox.createdAt, before(now, RETENTION_DAYS.mailOutbox)))
        .returning(id),
    ),
    sessions: await deleted(
      db
        .delete(sessions)
        .where(lt(sessions.expiresAt, before(now, RETENTION_DAYS.expiredSessions)))
        .returning(id),
    ),
    authTokens: await deleted(
      db
        .delete(authTokens)
        .where(
          or(
            lt(authTokens.expiresAt, before(now, RETENTION_DAYS.authTokens)),
            and(isNotNull(authTokens.usedAt), lt(authTokens.usedAt, before(now, RETENTION_DAYS.authTokens))),
          ),
        )
        .returning(id),
    ),
    offlineBundles: await deleted(
      db
        .delete(offlineBundles)
        .where(lt(offlineBundles.expiresAt, before(now, RETENTION_DAYS.offlineBundles)))
        .returning(id),
    ),
    liveSessions: await deleted(
      db
        .delete(liveSessions)
        .where(lt(liveSessions.startedAt, before(now, RETENTION_DAYS.liveSessions)))
        .returning(id),
    ),
    liveConnections: await deleted(
      db
        .delete(liveConnections)
        .where(lt(liveConnections.connectedAt, before(now, RETENTION_DAYS.liveConnections)))
        .returning(id),
    ),
    clientErrorReports: await deleted(
      db
        .delete(clientErrorReports)
        .where(lt(clientErrorReports.createdAt, before(now, RETENTION_DAYS.clientErrorReports)))
        .returning(id),
    ),
    rateLimitAttempts: await pruneAttempts(db, now),
  };
}
