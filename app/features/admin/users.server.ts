// The admin console's users: search (name or e-mail, paginated), one user's page (profile, statistics,
// credits, ledger, audit log) and the actions on a user. Every action writes its admin_audit_log row
// (who, what, when, before/after) in the same transaction as the change itself.
import { and, count, desc, eq, ilike, or, sql } from "drizzle-orm";
import { data, type AppLoadContext } from "react-router";
import { closeUserConnections } from "~/features/auth";
import { forgetUserSessions, type SessionUser } from "~/server/auth.server";
import { adjustCredits } from "~/server/credits.server";
import { rowsOf, type DbOrTx } from "~/server/db.server";
import { parseForm } from "~/server/request.server";
import { creditLedger, sessions, userRoles, users } from "~/server/schema";
import { redirectWithToast } from "~/server/toast.server";
import { USER_MESSAGES, USERS_PER_PAGE, userActionSchema, type UserActionData, type UserIntent } from "./schemas";
import { adminAuditLog } from "./tables";

/** How long a blocked user's sessions still exist (showing only /blocked) before they expire. */
export const BLOCKED_SESSION_GRACE_MS = 60 * 60_000;

export type UserListItem = {
  id: string;
  name: string;
  email: string;
  accountType: "free" | "blocked";
  isAdmin: boolean;
  monthlyCredits: number;
  createdAt: string;
};

/** `%`, `_` and `\` typed by the admin are literal characters, not patterns. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page of users matching `q` (name or e-mail, case-insensitive), newest first, with the total. One statement. */
export async function searchUsers(db: DbOrTx, q: string, page: number) {
  const where = q ? or(ilike(users.name, likePattern(q)), ilike(users.email, likePattern(q))) : undefined;
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      accountType: users.accountType,
      monthlyCredits: users.monthlyCredits,
      createdAt: users.createdAt,
      isAdmin: sql<boolean>`exists (select 1 from user_roles r where r.user_id = "users"."id" and r.role = 'admin')`,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), users.id)
    .limit(USERS_PER_PAGE)
    .offset((page - 1) * USERS_PER_PAGE);
  let total = rows[0]?.total ?? 0;
  // A page past the end has no row to carry the total: count once more (rare).
  if (rows.length === 0 && page > 1) total = (await db.select({ n: count() }).from(users).where(where))[0]?.n ?? 0;
  const items: UserListItem[] = rows.map(({ total: _t, createdAt, ...row }) => ({
    ...row,
    isAdmin: Boolean(row.isAdmin),
    createdAt: createdAt.toISOString(),
  }));
  return { items, total, page, pages: Math.max(1, Math.ceil(total / USERS_PER_PAGE)) };
}

export async function loadUserDetail(db: DbOrTx, userId: string) {
  const [user] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      newEmail: users.newEmail,
      phoneNumber: users.phoneNumber,
      emailConfirmedAt: users.emailConfirmedAt,
      accountType: users.accountType,
      monthlyCredits: users.monthlyCredits,
      conversationsStarted: users.conversationsStarted,
      flashcardsPlayed: users.flashcardsPlayed,
      lessonsWatched: users.lessonsWatched,
      modulesCompleted: users.modulesCompleted,
      courseCompletion: users.courseCompletion,
      englishLevel: users.englishLevel,
      avatar: users.avatar,
      createdAt: users.createdAt,
      lastSeenAt: sql<
        string | null
      >`greatest("users"."last_seen_at", (select max(s.last_seen_at) from sessions s where s.user_id = "users"."id"))`,
      activeSessions: sql<number>`(select count(*)::int from sessions s where s.user_id = "users"."id" and s.expires_at > now())`.mapWith(
        Number,
      ),
      isAdmin: sql<boolean>`exists (select 1 from user_roles r where r.user_id = "users"."id" and r.role = 'admin')`,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return null;
  const [ledger, audit] = await Promise.all([
    db
      .select({
        id: creditLedger.id,
        delta: creditLedger.delta,
        balanceAfter: creditLedger.balanceAfter,
        reason: creditLedger.reason,
        createdAt: creditLedger.createdAt,
      })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .orderBy(desc(creditLedger.id))
      .limit(50),
    db
      .select({
        id: adminAuditLog.id,
        action: adminAuditLog.action,
        before: adminAuditLog.before,
        after: adminAuditLog.after,
        reason: adminAuditLog.reason,
        createdAt: adminAuditLog.createdAt,
        adminName: users.name,
        adminEmail: users.email,
      })
      .from(adminAuditLog)
      .leftJoin(users, eq(users.id, adminAuditLog.adminId))
      .where(eq(adminAuditLog.targetUserId, userId))
      .orderBy(desc(adminAuditLog.id))
      .limit(50),
  ]);
  const activities = user.conversationsStarted + user.flashcardsPlayed;
  return {
    user: {
      ...user,
      isAdmin: Boolean(user.isAdmin),
      createdAt: user.createdAt.toISOString(),
      emailConfirmedAt: user.emailConfirmedAt?.toISOString() ?? null,
      lastSeenAt: user.lastSeenAt ? new Date(user.lastSeenAt).toISOString() : null,
      engagement: Math.min(100, activities * 10),
    },
    ledger: ledger.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    audit: audit.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
}
export type UserDetail = NonNullable<Awaited<ReturnType<typeof loadUserDetail>>>;

type Outcome = { ok: true; toast: string } | { ok: false; status: number; code: string; title: string; description?: string };
const refused = (status: number, code: string, title: string, description?: string): Outcome => ({
  ok: false,
  status,
  code,
  title,
  description,
});

/** What the route gives the action for the one step that lives in another feature (the auth e-mails). */
export type ResendConfirmation = (email: string) => Promise<{ status: "sent" } | { status: "rate_limited"; retryAfterMs: number }>;

async function audit(db: DbOrTx, adminId: string, targetUserId: string, action: UserIntent, before: unknown, after: unknown, reason?: string) {
  await db.insert(adminAuditLog).values({ adminId, targetUserId, action, before, after, reason: reason ?? null });
}

async function runAction(
  context: AppLoadContext,
  admin: SessionUser,
  userId: string,
  action: ReturnType<typeof userActionSchema.parse>,
  resend: ResendConfirmation,
): Promise<Outcome> {
  const db = context.db;
  switch (action.intent) {
    case "block":
    case "unblock": {
      const blocking = action.intent === "block";
      if (blocking && userId === admin.id) return refused(409, "self_block", USER_MESSAGES.selfBlock);
      const outcome = await db.transaction(async (tx) => {
        const [target] = await tx.select({ accountType: users.accountType }).from(users).where(eq(users.id, userId)).for("update");
        if (!target) return refused(404, "not_found", USER_MESSAGES.notFound);
        if (blocking && target.accountType === "blocked") return refused(409, "already_blocked", USER_MESSAGES.alreadyBlocked);
        if (!blocking && target.accountType !== "blocked") return refused(409, "not_blocked", USER_MESSAGES.notBlocked);
        await tx
          .update(users)
          .set({ accountType: blocking ? "blocked" : "free", updatedAt: new Date() })
          .where(eq(users.id, userId));
        // Blocking: every session stops granting access on its next request (the guard reads the
        // account with the session) and expires within the grace period, showing only /blocked until
        // then. Unblocking deletes what is left: the user signs in again.
        const ended = blocking
          ? await tx
              .update(sessions)
              .set({ expiresAt: sql`least(${sessions.expiresAt}, now() + ${`${BLOCKED_SESSION_GRACE_MS / 1000} seconds`}::interval)` })
              .where(eq(sessions.userId, userId))
              .returning({ id: sessions.id })
          : await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
        await audit(
          tx,
          admin.id,
          userId,
          action.intent,
          { accountType: target.accountType },
          { accountType: blocking ? "blocked" : "free", sessionsEnded: ended.length },
        );
        return { ok: true, toast: blocking ? USER_MESSAGES.blocked : USER_MESSAGES.unblocked } as const;
      });
      if (outcome.ok && blocking) {
        const closing = closeUserConnections(context, userId);
        context.cloudflare.ctx.waitUntil(closing);
      }
      return outcome;
    }
    case "make_admin":
    case "remove_admin": {
      const making = action.intent === "make_admin";
      return db.transaction(async (tx) => {
        // Serialises role changes: two admins removing each other cannot leave none.
        await tx.execute(sql`lock table user_roles in share row exclusive mode`);
        const rows = rowsOf<{ exists_user: boolean; is_admin: boolean; admins: number }>(
          await tx.execute(sql`
            select exists (select 1 from users where id = ${userId}) as exists_user,
              exists (select 1 from user_roles where user_id = ${userId} and role = 'admin') as is_admin,
              (select count(*)::int from user_roles where role = 'admin') as admins`),
        );
        const state = rows[0]!;
        if (!state.exists_user) return refused(404, "not_found", USER_MESSAGES.notFound);
        if (making && state.is_admin) return refused(409, "already_admin", USER_MESSAGES.alreadyAdmin);
        if (!making && !state.is_admin) return refused(409, "not_admin", USER_MESSAGES.notAdmin);
        if (!making && Number(state.admins) <= 1) return refused(409, "last_admin", USER_MESSAGES.lastAdmin, USER_MESSAGES.lastAdminDescription);
        if (making) await tx.insert(userRoles).values({ userId, role: "admin" });
        else await tx.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.role, "admin")));
        await audit(tx, admin.id, userId, action.intent, { isAdmin: !making }, { isAdmin: making });
        return { ok: true, toast: making ? USER_MESSAGES.madeAdmin : USER_MESSAGES.removedAdmin } as const;
      });
    }
    case "credits": {
      return db.transaction(async (tx) => {
        const result = await adjustCredits(tx, userId, action.amount, `admin_${action.amount > 0 ? "grant" : "removal"}:${action.reason}`);
        if (!result.ok) {
          return result.balance === null
            ? refused(404, "not_found", USER_MESSAGES.notFound)
            : refused(409, "insufficient_credits", USER_MESSAGES.belowZero, USER_MESSAGES.belowZeroDescription);
        }
        await audit(tx, admin.id, userId, "credits", { credits: result.before }, { credits: result.balance }, action.reason);
        return { ok: true, toast: USER_MESSAGES.creditsSaved } as const;
      });
    }
    case "resend_confirmation": {
      const [target] = await db.select({ email: users.email, confirmedAt: users.emailConfirmedAt }).from(users).where(eq(users.id, userId));
      if (!target) return refused(404, "not_found", USER_MESSAGES.notFound);
      if (target.confirmedAt) return refused(409, "already_confirmed", USER_MESSAGES.alreadyConfirmed);
      const sent = await resend(target.email);
      if (sent.status === "rate_limited") {
        return refused(
          429,
          "rate_limited",
          USER_MESSAGES.resendLimited,
          `Tente novamente em ${Math.max(1, Math.ceil(sent.retryAfterMs / 1000))} s.`,
        );
      }
      await audit(db, admin.id, userId, "resend_confirmation", null, { email: target.email });
      return { ok: true, toast: USER_MESSAGES.confirmationSent };
    }
  }
}

/**
 * The user page's action (the route has checked the path id and the admin): one of the intents of
 * userActionSchema. Success redirects back to the page with a flash toast; a refusal answers conform's form errors [title, description] and a code.
 */
export async function handleUserAction(
  request: Request,
  context: AppLoadContext,
  admin: SessionUser,
  userId: string,
  resend: ResendConfirmation,
) {
  const submission = await parseForm(request, userActionSchema);
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [USER_MESSAGES.invalid] }), code: "invalid" } satisfies UserActionData, {
      status: 400,
    });
  }
  const outcome = await runAction(context, admin, userId, submission.value, resend);
  // Blocked, made admin, credits changed…: this isolate reads the user's sessions again (decision 0019).
  forgetUserSessions(context, userId);
  if (!outcome.ok) {
    const formErrors = outcome.description ? [outcome.title, outcome.description] : [outcome.title];
    return data({ result: submission.reply({ formErrors }), code: outcome.code } satisfies UserActionData, { status: outcome.status });
  }
  // Post/redirect/get back to the user's page: the flash toast shows there, with JS or without.
  return redirectWithToast(context.cloudflare.env, new URL(request.url).pathname, { type: "success", title: outcome.toast });
}
