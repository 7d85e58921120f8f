// Attempt limiter backed by the rate_limit_attempts table, so limits hold across worker isolates. A limit that guards
// an action is taken with `claimAttempt`, never `checkLimit` then `recordAttempt`: between those two a burst of parallel
// requests would all see the same count and all pass.
import { and, count, eq, gt, lt, min, sql } from "drizzle-orm";
import type { DbOrTx } from "./db.server";
import { rateLimitAttempts } from "./schema";

export type Limit = { bucket: string; max: number; windowMs: number };

export const LIMITS = {
  signin: { bucket: "signin", max: 5, windowMs: 15 * 60_000 },
  signup: { bucket: "signup", max: 3, windowMs: 60 * 60_000 },
  verificationResend: { bucket: "verification_resend", max: 1, windowMs: 45_000 },
  passwordReset: { bucket: "password_reset", max: 3, windowMs: 15 * 60_000 },
  /** Spec §8 'Limite de emails excedido': editing the e-mail is then blocked for 10 minutes. */
  emailChange: { bucket: "email_change", max: 3, windowMs: 10 * 60_000 },
  /** A wrong current password on /config is limited like sign-in. */
  passwordChange: { bucket: "password_change", max: 5, windowMs: 15 * 60_000 },
  /** Checkout Sessions a learner may open (each is a call to Stripe). */
  checkout: { bucket: "checkout", max: 10, windowMs: 10 * 60_000 },
  /** Offline bundles a learner may download (each is stored until it expires). */
  offlineBundle: { bucket: "offline_bundle", max: 30, windowMs: 60 * 60_000 },
  /** Live conversation connections (new or resumed) a learner may open: each one reaches the provider. */
  liveConnect: { bucket: "live_connect", max: 30, windowMs: 10 * 60_000 },
} satisfies Record<string, Limit>;

export type LimitState = { allowed: true } | { allowed: false; retryAfterMs: number };

export async function checkLimit(db: DbOrTx, limit: Limit, subject: string, now = new Date()): Promise<LimitState> {
  const since = new Date(now.getTime() - limit.windowMs);
  const [row] = await db
    .select({ attempts: count(), oldest: min(rateLimitAttempts.createdAt) })
    .from(rateLimitAttempts)
    .where(and(eq(rateLimitAttempts.bucket, limit.bucket), eq(rateLimitAttempts.subject, subject), gt(rateLimitAttempts.createdAt, since)));
  if (!row || row.attempts < limit.max || !row.oldest) return { allowed: true };
  const retryAfterMs = Math.max(1000, new Date(row.oldest).getTime() + limit.windowMs - now.getTime());
  return { allowed: false, retryAfterMs };
}

/** An attempt claimed under its limit; `id` lets the caller give it back when the action turns out not to count. */
export type Claim = { allowed: true; id: number } | { allowed: false; retryAfterMs: number };

/**
 * Records an attempt only while `subject` is under `limit`, atomically: a transaction-scoped advisory lock on the
 * (bucket, subject) pair makes parallel claims take turns, so a burst of N gets exactly what is left of the limit.
 */
export async function claimAttempt(db: DbOrTx, limit: Limit, subject: string, now = new Date()): Promise<Claim> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${limit.bucket}:${subject}`}, 0))`);
    const state = await checkLimit(tx, limit, subject, now);
    if (!state.allowed) return state;
    const [row] = await tx
      .insert(rateLimitAttempts)
      .values({ bucket: limit.bucket, subject, createdAt: now })
      .returning({ id: rateLimitAttempts.id });
    return { allowed: true, id: row!.id };
  });
}

/** Gives a claimed attempt back (the action it was claimed for did not happen, or does not count). */
export async function releaseAttempt(db: DbOrTx, claim: { id: number }) {
  await db.delete(rateLimitAttempts).where(eq(rateLimitAttempts.id, claim.id));
}

/** Records an attempt that already happened (a mail sent as part of another action); no limit is checked. */
export async function recordAttempt(db: DbOrTx, limit: Limit, subject: string, now = new Date()) {
  await db.insert(rateLimitAttempts).values({ bucket: limit.bucket, subject, createdAt: now });
}

export async function clearAttempts(db: DbOrTx, limit: Limit, subject: string) {
  await db.delete(rateLimitAttempts).where(and(eq(rateLimitAttempts.bucket, limit.bucket), eq(rateLimitAttempts.subject, subject)));
}

/** Housekeeping: attempts older than a day are useless to every limit. */
export async function pruneAttempts(db: DbOrTx, now = new Date()): Promise<number> {
  const gone = await db
    .delete(rateLimitAttempts)
    .where(lt(rateLimitAttempts.createdAt, new Date(now.getTime() - 86_400_000)))
    .returning({ id: rateLimitAttempts.id });
  return gone.length;
}

export const minutesLeft = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));
export const secondsLeft = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
