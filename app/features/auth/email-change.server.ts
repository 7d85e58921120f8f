// The e-mail change (spec §4, §5, §8): a link mailed to the NEW address (and a notice to the current
// one), one change at a time, at most LIMITS.emailChange links per window; hitting that limit blocks
// editing for 10 minutes. The confirmation swaps the address and records a profile update.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { rowsOf, uniqueViolation } from "~/server/db.server";
import { sendMail } from "~/server/mail.server";
import { sha256Hex } from "~/server/password";
import { checkLimit, claimAttempt, LIMITS, recordAttempt, type Limit } from "~/server/rate-limit.server";
import { users } from "~/server/schema";
import { emailChangeEmail, emailChangeNoticeEmail } from "./emails.server";
import { authTokens } from "./tables";
import { issueToken } from "./tokens.server";

/** Spec §9: after 'Limite de emails excedido', editing the e-mail stays blocked for 10 minutes. */
export const EMAIL_CHANGE_BLOCK: Limit = { bucket: "email_change_block", max: 1, windowMs: 10 * 60_000 };

export type EmailChangeUser = { id: string; name: string; email: string; newEmail: string | null };

export type EmailChangeRefusal =
  | { status: "change_in_progress"; pendingEmail: string }
  | { status: "rate_limited"; retryAfterMs: number }
  | { status: "email_exists" }
  | { status: "nothing_pending" };

export type EmailChangeResult = { status: "sent"; email: string } | EmailChangeRefusal;

const confirmLink = (origin: string, token: string) => `${origin}/confirm-email?token_hash=${encodeURIComponent(token)}&type=email_change`;

/** A change is in progress while its link is usable (unused, not expired). */
async function pendingLinkExists(context: AppLoadContext, userId: string) {
  const [row] = await context.db
    .select({ id: authTokens.id })
    .from(authTokens)
    .where(
      and(
        eq(authTokens.userId, userId),
        eq(authTokens.purpose, "email_change"),
        isNull(authTokens.usedAt),
        sql`${authTokens.expiresAt} > now()`,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** The 10-minute block, or the send limit (whose refusal starts the block). Read only: `claimLink` takes the limit. */
async function limitRefusal(context: AppLoadContext, userId: string): Promise<EmailChangeRefusal | null> {
  const block = await checkLimit(context.db, EMAIL_CHANGE_BLOCK, userId);
  if (!block.allowed) return { status: "rate_limited", retryAfterMs: block.retryAfterMs };
  const limit = await checkLimit(context.db, LIMITS.emailChange, userId);
  return limit.allowed ? null : startBlock(context, userId);
}

async function startBlock(context: AppLoadContext, userId: string): Promise<EmailChangeRefusal> {
  if ((await checkLimit(context.db, EMAIL_CHANGE_BLOCK, userId)).allowed) await recordAttempt(context.db, EMAIL_CHANGE_BLOCK, userId);
  return { status: "rate_limited", retryAfterMs: EMAIL_CHANGE_BLOCK.windowMs };
}

/** Takes one link of the limit, atomically (a burst of requests gets only what is left), or starts the block. */
async function claimLink(context: AppLoadContext, userId: string): Promise<EmailChangeRefusal | null> {
  const claim = await claimAttempt(context.db, LIMITS.emailChange, userId);
  return claim.allowed ? null : startBlock(context, userId);
}

async function sendLink(context: AppLoadContext, user: EmailChangeUser, newEmail: string, origin: string) {
  const token = await issueToken(context.db, user.id, "email_change", newEmail);
  await sendMail(context.db, context.cloudflare.env, emailChangeEmail(newEmail, user.name, confirmLink(origin, token)));
}

/** What refuses a change to `newEmail` (one at a time, the limit, an address in use), without sending anything. */
export async function checkEmailChange(context: AppLoadContext, user: EmailChangeUser, newEmail: string): Promise<EmailChangeRefusal | null> {
  if (user.newEmail && (await pendingLinkExists(context, user.id))) return { status: "change_in_progress", pendingEmail: user.newEmail };
  const refusal = await limitRefusal(context, user.id);
  if (refusal) return refusal;
  const [taken] = await context.db.select({ id: users.id }).from(users).where(eq(users.email, newEmail));
  return taken ? { status: "email_exists" } : null;
}

/** Starts a change to `newEmail` (already validated: trimmed, lower-cased, a valid address, not the current one). */
export async function requestEmailChange(
  context: AppLoadContext,
  user: EmailChangeUser,
  newEmail: string,
  origin: string,
): Promise<EmailChangeResult> {
  const refusal = (await checkEmailChange(context, user, newEmail)) ?? (await claimLink(context, user.id));
  if (refusal) return refusal;
  await context.db.update(users).set({ newEmail, updatedAt: new Date() }).where(eq(users.id, user.id));
  await sendLink(context, user, newEmail, origin);
  // The notice is a courtesy: its failure never fails the change.
  await sendMail(context.db, context.cloudflare.env, emailChangeNoticeEmail(user.email, user.name, newEmail)).catch(() => {});
  return { status: "sent", email: newEmail };
}

/** A new link for the pending change (the old one stops working). */
export async function resendEmailChange(context: AppLoadContext, user: EmailChangeUser, origin: string): Promise<EmailChangeResult> {
  if (!user.newEmail) return { status: "nothing_pending" };
  const refusal = (await limitRefusal(context, user.id)) ?? (await claimLink(context, user.id));
  if (refusal) return refusal;
  await sendLink(context, user, user.newEmail, origin);
  return { status: "sent", email: user.newEmail };
}

/** Drops the pending change: the address stays, the link stops working. */
export async function cancelEmailChange(context: AppLoadContext, userId: string) {
  await context.db.execute(sql`
    with voided as (
      update auth_tokens set used_at = now()
      where user_id = ${userId} and purpose = 'email_change' and used_at is null
    )
    update users set new_email = null, updated_at = now() where id = ${userId}`);
}

export type EmailChangeConfirmation =
  | { status: "confirmed"; userId: string; email: string; /** false when the link had been used before */ fresh: boolean }
  | { status: "expired"; userId: string }
  | { status: "email_exists" }
  | { status: "invalid" };

/**
 * Confirms the change of the link: in one statement the token is used, the address swapped (unless
 * another account took it meanwhile) and a profile update recorded. A link already used for the
 * address the account has now counts as success; a cancelled or superseded one does not.
 */
export async function confirmEmailChange(context: AppLoadContext, token: string): Promise<EmailChangeConfirmation> {
  const { db } = context;
  const [row] = await db
    .select({
      id: authTokens.id,
      userId: authTokens.userId,
      newEmail: authTokens.newEmail,
      usedAt: authTokens.usedAt,
      expiresAt: authTokens.expiresAt,
    })
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, await sha256Hex(token)), eq(authTokens.purpose, "email_change")));
  if (!row || !row.newEmail) return { status: "invalid" };
  if (row.usedAt) {
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.userId));
    return user?.email === row.newEmail ? { status: "confirmed", userId: row.userId, email: row.newEmail, fresh: false } : { status: "invalid" };
  }
  if (row.expiresAt.getTime() <= Date.now()) return { status: "expired", userId: row.userId };

  try {
    const result = await db.execute(sql`
      with used as (
        update auth_tokens set used_at = now() where id = ${row.id} and used_at is null returning user_id, new_email
      ), swapped as (
        update users u set email = used.new_email, new_email = null, email_confirmed_at = now(), updated_at = now()
        from used
        where u.id = used.user_id and not exists (select 1 from users other where other.email = used.new_email and other.id <> u.id)
        returning u.id
      ), recorded as (
        insert into profile_updates (user_id, field) select id, 'email' from swapped
      )
      select (select count(*)::int from used) as used, (select count(*)::int from swapped) as swapped`);
    const outcome = rowsOf(result)[0] ?? {};
    if (Number(outcome.swapped) === 1) return { status: "confirmed", userId: row.userId, email: row.newEmail, fresh: true };
    if (Number(outcome.used) === 0) return confirmEmailChange(context, token); // a parallel click used it first
    return { status: "email_exists" };
  } catch (error) {
    // The unique index caught a parallel sign-up or change to the same address.
    if (uniqueViolation(error) === "users_email_unique") return { status: "email_exists" };
    throw error;
  }
}
