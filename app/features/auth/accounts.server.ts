// Account workflows behind the auth pages: sign-up, e-mail verification, password reset.
// Routes stay thin and call these; every rule here is the server's, whatever the browser did.
import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { createSession, destroyAllSessions, forgetUserSessions } from "~/server/auth.server";
import { creditPeriod, grantSignupCredits, monthlyAllowance } from "~/server/credits.server";
import { getFlags } from "~/server/flags.server";
import { sendMail } from "~/server/mail.server";
import { hashPassword } from "~/server/password";
import { checkLimit, claimAttempt, LIMITS, recordAttempt } from "~/server/rate-limit.server";
import { users } from "~/server/schema";
import { confirmEmailChange } from "./email-change.server";
import { confirmationEmail, passwordResetEmail, welcomeEmail } from "./emails.server";
import { closeUserConnections } from "./sockets.server";
import { passwordCredentials } from "./tables";
import { consumeToken, findToken, issueToken } from "./tokens.server";

export function publicOrigin(context: AppLoadContext, request: Request) {
  return (context.cloudflare.env.APP_URL || new URL(request.url).origin).replace(/\/$/, "");
}

export type SignupInput = { name: string; email: string; whatsapp: string; password: string };
export type SignupResult =
  | {
      status: "created";
      userId: string;
      emailConfirmationRequired: boolean;
      /** The new session's Set-Cookie, when no confirmation is required and the request was given. */
      sessionCookie: string | null;
    }
  | { status: "disabled" }
  | { status: "rate_limited"; retryAfterMs: number }
  | { status: "email_exists" };

/**
 * Creates the account — user, password, first credits, and its confirmation link or (given `request`) its
 * session — in one transaction: a failure leaves no account behind. The e-mails go after it; their failure
 * does not undo the sign-up (the confirmation e-mail can be sent again from /email-verification).
 */
export async function signUp(context: AppLoadContext, input: SignupInput, origin: string, request?: Request): Promise<SignupResult> {
  const { db } = context;
  const flags = await getFlags(context);
  if (!flags.signup_enabled) return { status: "disabled" };

  const claim = await claimAttempt(db, LIMITS.signup, input.email);
  if (!claim.allowed) return { status: "rate_limited", retryAfterMs: claim.retryAfterMs };

  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email));
  if (existing) return { status: "email_exists" };

  const now = new Date();
  const allowance = monthlyAllowance(context.cloudflare.env);
  const passwordHash = await hashPassword(input.password);
  const created = await db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        name: input.name,
        email: input.email,
        phoneNumber: input.whatsapp,
        monthlyCredits: allowance,
        creditsPeriod: creditPeriod(now),
        emailConfirmedAt: flags.email_confirmation_required ? null : now,
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!user) return null; // a parallel sign-up with the same e-mail won the race
    await tx.insert(passwordCredentials).values({ userId: user.id, passwordHash });
    await grantSignupCredits(tx, user.id, allowance);
    if (flags.email_confirmation_required) {
      return { userId: user.id, token: await issueToken(tx, user.id, "email_verification"), sessionCookie: null };
    }
    return { userId: user.id, token: null, sessionCookie: request ? await createSession(context, user.id, request, tx) : null };
  });
  if (!created) return { status: "email_exists" };
  const { userId, token, sessionCookie } = created;

  // The welcome e-mail is a courtesy: its failure never fails the sign-up.
  await sendMail(db, context.cloudflare.env, welcomeEmail(input.email, input.name)).catch(() => {});
  if (token) {
    // The first link starts the resend wait, as a resend would.
    await recordAttempt(db, LIMITS.verificationResend, input.email);
    await mailVerificationLink(context, { email: input.email, name: input.name }, token, origin).catch((error: unknown) =>
      console.error("sign-up: the confirmation e-mail was not sent", error),
    );
  }
  return { status: "created", userId, emailConfirmationRequired: flags.email_confirmation_required, sessionCookie };
}

/** Mails a confirmation link; its caller has counted it against the resend limit. */
async function mailVerificationLink(context: AppLoadContext, user: { email: string; name: string }, token: string, origin: string) {
  const link = `${origin}/confirm-email?token_hash=${encodeURIComponent(token)}&type=signup`;
  await sendMail(context.db, context.cloudflare.env, confirmationEmail(user.email, user.name, link));
}

/** Seconds until another verification e-mail may be sent to this address (0 = now). */
export async function secondsUntilResend(context: AppLoadContext, email: string): Promise<number> {
  const limit = await checkLimit(context.db, LIMITS.verificationResend, email);
  return limit.allowed ? 0 : Math.ceil(limit.retryAfterMs / 1000);
}

export type ResendResult = { status: "sent" } | { status: "rate_limited"; retryAfterMs: number };

/**
 * Resends the confirmation e-mail. Answers "sent" for unknown or already confirmed addresses too, so
 * the page reveals nothing about who is registered; the 45 s limit applies either way.
 */
export async function resendVerification(context: AppLoadContext, email: string, origin: string): Promise<ResendResult> {
  const claim = await claimAttempt(context.db, LIMITS.verificationResend, email);
  if (!claim.allowed) return { status: "rate_limited", retryAfterMs: claim.retryAfterMs };
  const [user] = await context.db
    .select({ id: users.id, name: users.name, confirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.email, email));
  if (user && !user.confirmedAt) {
    const token = await issueToken(context.db, user.id, "email_verification");
    await mailVerificationLink(context, { email, name: user.name }, token, origin);
  }
  return { status: "sent" };
}

export type ConfirmResult =
  | { status: "confirmed"; userId: string; signIn: boolean; kind: "signup" | "email_change" }
  | { status: "expired"; kind: "signup" | "email_change" }
  | { status: "invalid" };

/**
 * Confirms a sign-up or an e-mail change (email-change.server.ts), signing the learner in the first
 * time. A link already used by a confirmed user counts as success (without a new session).
 */
export async function confirmEmail(context: AppLoadContext, token: string, kind: "signup" | "email_change"): Promise<ConfirmResult> {
  const { db } = context;
  if (kind === "email_change") {
    const outcome = await confirmEmailChange(context, token);
    if (outcome.status === "confirmed") {
      forgetUserSessions(context, outcome.userId);
      // The account's address changed: a live conversation opened before ends (the next one is opened anew).
      if (outcome.fresh) await closeUserConnections(context, outcome.userId);
      return { status: "confirmed", userId: outcome.userId, signIn: outcome.fresh, kind };
    }
    if (outcome.status === "expired") return { status: "expired", kind };
    return { status: "invalid" };
  }
  const found = await findToken(db, token, "email_verification");
  if (found.status === "invalid") return { status: "invalid" };
  if (found.status === "expired") return { status: "expired", kind };

  const [user] = await db.select({ confirmedAt: users.emailConfirmedAt }).from(users).where(eq(users.id, found.userId));
  if (!user) return { status: "invalid" };
  if (found.status === "used")
    return user.confirmedAt !== null ? { status: "confirmed", userId: found.userId, signIn: false, kind } : { status: "invalid" };
  if (!(await consumeToken(db, found.tokenId))) return { status: "confirmed", userId: found.userId, signIn: false, kind };

  const now = new Date();
  await db.update(users).set({ emailConfirmedAt: now, updatedAt: now }).where(eq(users.id, found.userId));
  forgetUserSessions(context, found.userId);
  return { status: "confirmed", userId: found.userId, signIn: true, kind };
}

/** Sends a reset link when the address is registered; silent otherwise (and when rate-limited). */
export async function requestPasswordReset(context: AppLoadContext, email: string, origin: string) {
  const { db } = context;
  const claim = await claimAttempt(db, LIMITS.passwordReset, email);
  if (!claim.allowed) return;
  const [user] = await db.select({ id: users.id, name: users.name }).from(users).where(eq(users.email, email));
  if (!user) return;
  const token = await issueToken(db, user.id, "password_reset");
  const link = `${origin}/reset-password?token=${encodeURIComponent(token)}`;
  await sendMail(db, context.cloudflare.env, passwordResetEmail(email, user.name, link));
}

export async function isResetTokenValid(context: AppLoadContext, token: string) {
  return (await findToken(context.db, token, "password_reset")).status === "valid";
}

/** Sets the new password and ends every session of that user. False when the link is not usable. */
export async function resetPassword(context: AppLoadContext, token: string, password: string): Promise<boolean> {
  const { db } = context;
  const found = await findToken(db, token, "password_reset");
  if (found.status !== "valid") return false;
  const passwordHash = await hashPassword(password);
  const reset = await db.transaction(async (tx) => {
    if (!(await consumeToken(tx, found.tokenId))) return false;
    await tx
      .insert(passwordCredentials)
      .values({ userId: found.userId, passwordHash })
      .onConflictDoUpdate({ target: passwordCredentials.userId, set: { passwordHash, updatedAt: new Date() } });
    await destroyAllSessions(tx, found.userId);
    return true;
  });
  if (reset) {
    forgetUserSessions(context, found.userId);
    await closeUserConnections(context, found.userId); // every session ended: what they had open ends too
  }
  return reset;
}
