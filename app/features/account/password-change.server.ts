// Password change of a signed-in learner (/config/senha, spec §5/§8): the current password is checked
// (a wrong one counts against a limit like sign-in: 5 failures / 15 min, cleared on success); the new
// hash is stored and every OTHER session of the user ends, the one making the change stays.
import { and, eq, ne } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { closeUserConnections, passwordCredentials } from "~/features/auth";
import { forgetUserSessions, type SessionUser } from "~/server/auth.server";
import { hashPassword, verifyPassword } from "~/server/password";
import { claimAttempt, clearAttempts, LIMITS } from "~/server/rate-limit.server";
import { sessions } from "~/server/schema";

export type PasswordChangeResult =
  { status: "changed"; endedSessions: number } | { status: "rate_limited"; retryAfterMs: number } | { status: "wrong_password" };

export async function changePassword(
  context: AppLoadContext,
  user: Pick<SessionUser, "id" | "sessionId">,
  input: { currentPassword: string; newPassword: string },
): Promise<PasswordChangeResult> {
  const { db } = context;
  // Counted per account: the learner is signed in, so the account is the subject being guessed.
  // Claimed before the check, so a burst cannot try more than the limit; a success clears them all.
  const claim = await claimAttempt(db, LIMITS.passwordChange, user.id);
  if (!claim.allowed) return { status: "rate_limited", retryAfterMs: claim.retryAfterMs };

  const [credentials] = await db
    .select({ passwordHash: passwordCredentials.passwordHash })
    .from(passwordCredentials)
    .where(eq(passwordCredentials.userId, user.id));
  // An account without a password (none yet) cannot prove the current one.
  const ok = credentials ? await verifyPassword(input.currentPassword, credentials.passwordHash) : false;
  if (!ok) return { status: "wrong_password" };

  const passwordHash = await hashPassword(input.newPassword);
  const ended = await db.transaction(async (tx) => {
    await tx.update(passwordCredentials).set({ passwordHash, updatedAt: new Date() }).where(eq(passwordCredentials.userId, user.id));
    return tx
      .delete(sessions)
      .where(and(eq(sessions.userId, user.id), ne(sessions.id, user.sessionId)))
      .returning({ id: sessions.id });
  });
  await clearAttempts(db, LIMITS.passwordChange, user.id);
  forgetUserSessions(context, user.id);
  // A live conversation (maybe opened by a session just ended) stops at once.
  await closeUserConnections(context, user.id);
  return { status: "changed", endedSessions: ended.length };
}
