// Sessions and access: database sessions behind a signed httpOnly cookie, the session's user (kept per
// isolate for page loads), and the guards of loaders, actions and other endpoints. How a user proves who
// they are (password, Google) and the e-mail tokens live with the auth feature (app/features/auth).
import { and, eq, gt, sql } from "drizzle-orm";
import { createCookie, data, redirect, type AppLoadContext } from "react-router";
import { sitePath } from "~/lib/safe-redirect";
import { creditPeriod, monthlyAllowance, renewCreditsIfDue } from "./credits.server";
import type { DbOrTx } from "./db.server";
import { isProduction, type Env } from "./env";
import { isFeatureEnabled, type FlagKey } from "./flags.server";
import { randomToken, sha256Hex } from "./password";
import { sessions, users, type User } from "./schema";
import { verifyingSecrets } from "./signed-token.server";
import { redirectWithToast, type Toast } from "./toast.server";

const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;
/** Sliding expiry and last-seen are written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60 * 60_000;

export type SessionUser = Omit<User, "createdAt" | "updatedAt"> & { isAdmin: boolean; sessionId: string };

function sessionCookie(env: Pick<Env, "SESSION_SECRET" | "SESSION_SECRET_PREVIOUS" | "APP_ENV">) {
  return createCookie("nika_session", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isProduction(env),
    secrets: verifyingSecrets(env), // signs with the first; a rotated-out secret's cookies still open
    maxAge: SESSION_TTL_MS / 1000,
  });
}

// ——— sessions ———

/** Creates a session row (in `db`: a caller's transaction, if any) and returns the Set-Cookie header value. */
export async function createSession(context: AppLoadContext, userId: string, request: Request, db: DbOrTx = context.db): Promise<string> {
  const token = randomToken();
  await db.insert(sessions).values({
    id: await sha256Hex(token),
    userId,
    userAgent: request.headers.get("User-Agent")?.slice(0, 300) ?? null,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  return sessionCookie(context.cloudflare.env).serialize(token);
}

async function sessionIdFrom(request: Request, env: Env): Promise<string | null> {
  // A cookie that is not one we signed (tampered, not base64) reads as signed out, never as a 500.
  const token = await sessionCookie(env)
    .parse(request.headers.get("Cookie"))
    .catch(() => null);
  return typeof token === "string" && token.length > 0 ? sha256Hex(token) : null;
}

/** Ends the current session (if any) and returns the header that clears the cookie. */
/** Ends the request's session: the Set-Cookie that clears it, and whose session it was (null: none, or already gone). */
export async function destroySession(context: AppLoadContext, request: Request): Promise<{ setCookie: string; userId: string | null }> {
  const sessionId = await sessionIdFrom(request, context.cloudflare.env);
  if (sessionId) keptSessions(context).delete(sessionId);
  // A session that is already gone (or a failing delete) still ends in a signed-out browser.
  const [ended] = sessionId
    ? await context.db
        .delete(sessions)
        .where(eq(sessions.id, sessionId))
        .returning({ userId: sessions.userId })
        .catch((error: unknown) => (console.error(error), []))
    : [];
  return { setCookie: await sessionCookie(context.cloudflare.env).serialize("", { maxAge: 0 }), userId: ended?.userId ?? null };
}

export async function destroyAllSessions(db: DbOrTx, userId: string) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

// ——— the session's user, kept per isolate for page loads (decision 0019) ———

/**
 * How stale an isolate's copy of a session's user may be when a page is loaded (GET/HEAD): a session ended
 * or an account blocked in another isolate is refused within this. Every other method reads the database,
 * and what changes a user here (an admin's action, a purchase, an e-mail confirmation, a password reset,
 * signing out) forgets it in this isolate at once.
 */
export const SESSION_STALE_MS = 5_000;
const MAX_KEPT_SESSIONS = 2_000;

type KeptSession = {
  user: SessionUser;
  readAt: number;
  /** What keptWithSession computed for this copy: it lives and dies with it. */
  alongside?: Map<string, { deps: readonly unknown[]; value: unknown }>;
};
/** Per isolate (workerd hands every request of an isolate the same env object), by session id. */
const isolateSessions = new WeakMap<object, Map<string, KeptSession>>();

function keptSessions(context: AppLoadContext) {
  let kept = isolateSessions.get(context.cloudflare.env);
  if (!kept) isolateSessions.set(context.cloudflare.env, (kept = new Map()));
  return kept;
}

/** After a change to `userId` (or to its sessions): this isolate reads its sessions again on next use. */
export function forgetUserSessions(context: AppLoadContext, userId: string) {
  const kept = keptSessions(context);
  for (const [sessionId, entry] of kept) if (entry.user.id === userId) kept.delete(sessionId);
}

const isPageLoad = (request: Request) => request.method === "GET" || request.method === "HEAD";

/** The signed-in user of this request, or null. Computed once per request. */
export function getSessionUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  const cached = context.memo.get("sessionUser") as Promise<SessionUser | null> | undefined;
  if (cached) return cached;
  const loading = loadSessionUser(request, context);
  context.memo.set("sessionUser", loading);
  return loading;
}

async function loadSessionUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  const env = context.cloudflare.env;
  const sessionId = await sessionIdFrom(request, env);
  if (!sessionId) return null;
  const now = new Date();
  const kept = keptSessions(context);
  const entry = kept.get(sessionId);
  if (!isPageLoad(request)) kept.delete(sessionId);
  else if (entry && now.getTime() - entry.readAt < SESSION_STALE_MS && entry.user.creditsPeriod === creditPeriod(now)) return { ...entry.user };
  const user = await readSessionUser(context, sessionId, now);
  if (user && isPageLoad(request)) {
    if (kept.size >= MAX_KEPT_SESSIONS) kept.delete(kept.keys().next().value!);
    kept.set(sessionId, { user: { ...user }, readAt: now.getTime() });
  } else if (!user) kept.delete(sessionId);
  return user;
}

async function readSessionUser(context: AppLoadContext, sessionId: string, now: Date): Promise<SessionUser | null> {
  const env = context.cloudflare.env;
  const [row] = await context.db
    .select({
      user: users,
      lastSeenAt: sessions.lastSeenAt,
      isAdmin: sql<boolean>`exists (select 1 from user_roles r where r.user_id = ${users.id} and r.role = 'admin')`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now)));
  if (!row) return null;

  const { createdAt: _c, updatedAt: _u, ...user } = row.user;
  const sessionUser: SessionUser = { ...user, isAdmin: Boolean(row.isAdmin), sessionId };

  if (user.creditsPeriod !== creditPeriod(now)) {
    const balance = await renewCreditsIfDue(context.db, user.id, monthlyAllowance(env), now);
    if (balance !== null) Object.assign(sessionUser, { monthlyCredits: balance, creditsPeriod: creditPeriod(now) });
  }
  if (now.getTime() - new Date(row.lastSeenAt).getTime() > TOUCH_EVERY_MS) {
    await context.db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
      .where(eq(sessions.id, sessionId));
    await context.db.update(users).set({ lastSeenAt: now }).where(eq(users.id, user.id));
  }
  return sessionUser;
}

/**
 * A page's value read from the learner's own data (their "Hoje" plan), kept with this isolate's copy of their session
 * and dropped with it: by any request of the session other than a page load (the action that completes a lesson,
 * answers a game, saves the goal), by forgetUserSessions, after SESSION_STALE_MS. So a learner's own change reads at
 * once in the isolate that made it; from another isolate or device, within SESSION_STALE_MS (decision 0019). It is
 * recomputed when any of `deps` differs (Object.is: the São Paulo day, the flags object) and computed without keeping
 * when the isolate holds no fresh copy of the session (a request that is not a page load).
 */
export async function keptWithSession<T>(
  context: AppLoadContext,
  user: SessionUser,
  key: string,
  deps: readonly unknown[],
  compute: () => Promise<T>,
): Promise<T> {
  const isFresh = (entry: KeptSession | undefined): entry is KeptSession =>
    entry?.user.id === user.id && Date.now() - entry.readAt < SESSION_STALE_MS;
  const entry = keptSessions(context).get(user.sessionId);
  if (!isFresh(entry)) return compute();
  const kept = entry.alongside?.get(key);
  if (kept && kept.deps.length === deps.length && kept.deps.every((dep, i) => Object.is(dep, deps[i]))) return kept.value as T;
  // The value, not the promise, is kept: a request never awaits another request's I/O (workerd forbids it).
  const value = await compute();
  // Kept only on the copy it was computed for: an action meanwhile dropped or replaced that copy.
  if (keptSessions(context).get(user.sessionId) === entry && isFresh(entry)) (entry.alongside ??= new Map()).set(key, { deps, value });
  return value;
}

/**
 * The session's user for an action whose own statement re-checks the session (a chat message: its credit spend
 * is the first statement, and a second one before it would delay Nika's first token). A session never changes
 * hands, so the user this isolate last read for it, however old, names who is asking; `recheck` is then the
 * session id that the statement must test with `sessionStillValid` before it spends anything. Without a kept
 * copy (or one kept as blocked) the session is read now and `recheck` is null.
 */
export async function sessionUserForStatement(
  request: Request,
  context: AppLoadContext,
): Promise<{ user: SessionUser; recheck: string | null; refusal?: undefined } | { refusal: AccessRefusal }> {
  const sessionId = await sessionIdFrom(request, context.cloudflare.env);
  const entry = sessionId ? keptSessions(context).get(sessionId) : undefined;
  if (entry && !accessRefusal(entry.user, "user")) {
    // The action changes the user (credits, level): the next page load reads it again; the identity stays kept.
    entry.readAt = Number.NEGATIVE_INFINITY;
    entry.alongside = undefined;
    return { user: { ...entry.user }, recheck: entry.user.sessionId };
  }
  const { user, refusal } = await checkAccess(request, context);
  return refusal ? { refusal } : { user, recheck: null };
}

/**
 * SQL, true while the session is what getSessionUser would accept without a read-and-fix: it exists for `userId`,
 * has not expired, the account is not blocked and its credits are of this São Paulo month (else the renewal is due).
 */
export function sessionStillValid(sessionId: string, userId: string, now = new Date()) {
  return sql`exists (select 1 from ${sessions} s join ${users} u on u.id = s.user_id
    where s.id = ${sessionId} and s.user_id = ${userId} and s.expires_at > now() and u.account_type <> 'blocked'
      and u.credits_period = ${creditPeriod(now)})`;
}

/** When sessionStillValid said no: forget this isolate's copy and read the session again (refusal or user). */
export function recheckSession(request: Request, context: AppLoadContext, sessionId: string) {
  keptSessions(context).delete(sessionId);
  context.memo.delete("sessionUser");
  return checkAccess(request, context);
}

/**
 * checkAccess with the session read from the database now, not this isolate's kept copy: the session check
 * of open pages (/resources/session) sees a block or a revocation at once.
 */
export async function checkAccessNow(request: Request, context: AppLoadContext) {
  const sessionId = await sessionIdFrom(request, context.cloudflare.env);
  return sessionId ? recheckSession(request, context, sessionId) : checkAccess(request, context);
}

// ——— guards ———

/** Relative path + query of the request, to come back to after signing in. */
function returnPath(request: Request) {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** Only paths on our own site are followed after sign-in (app/lib/safe-redirect.ts); anything else goes to `fallback`. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  return sitePath(to) ?? fallback;
}

/** Why a user may not use a protected route: the one place the blocked and admin rules live. */
export type AccessRefusal = {
  status: 401 | 403;
  code: "UNAUTHENTICATED" | "BLOCKED" | "FORBIDDEN" | "FEATURE_DISABLED";
  message: string;
};

export const ACCESS_MESSAGES = {
  UNAUTHENTICATED: "Sua sessão expirou. Entre novamente.",
  BLOCKED: "Conta bloqueada.",
  FORBIDDEN: "Acesso restrito a administradores.",
  FEATURE_DISABLED: "Recurso Temporariamente Indisponível",
} as const;

const refuse = (status: 401 | 403, code: AccessRefusal["code"]): AccessRefusal => ({ status, code, message: ACCESS_MESSAGES[code] });

export function accessRefusal(user: SessionUser | null, level: "user" | "admin"): AccessRefusal | null {
  if (!user) return refuse(401, "UNAUTHENTICATED");
  if (user.accountType === "blocked") return refuse(403, "BLOCKED");
  if (level === "admin" && !user.isAdmin) return refuse(403, "FORBIDDEN");
  return null;
}

/**
 * The guard of endpoints that are not pages (SSE, WebSocket upgrades, media, JSON): the user, or the
 * refusal that each transport formats its own way. Checks sign-in, blocked, role, then the flag.
 */
export async function checkAccess(
  request: Request,
  context: AppLoadContext,
  options: { level?: "user" | "admin"; feature?: FlagKey } = {},
): Promise<{ user: SessionUser; refusal?: undefined } | { user?: undefined; refusal: AccessRefusal }> {
  const user = await getSessionUser(request, context);
  const refusal = accessRefusal(user, options.level ?? "user");
  if (refusal) return { refusal };
  if (options.feature && !(await isFeatureEnabled(context, options.feature))) return { refusal: refuse(403, "FEATURE_DISABLED") };
  return { user: user! };
}

/**
 * Pages that tell an anonymous visitor why they were sent to /signin (spec §2: the pronunciation game's
 * 'Você precisa estar logado para jogar'). By path, because the signed-in layout's loader, which runs
 * alongside the page's own, redirects first.
 */
const SIGN_IN_TOASTS: readonly [prefix: string, toast: Toast][] = [
  ["/pronunciation-game", { type: "error", title: "Você precisa estar logado para jogar" }],
];

const signInToastFor = (path: string) =>
  SIGN_IN_TOASTS.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`))?.[1];

/** Signed in and not blocked, or a redirect: anonymous → /signin (keeping the target), blocked → /blocked. */
export async function requireUser(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await getSessionUser(request, context);
  const refusal = accessRefusal(user, "user");
  if (refusal?.code === "UNAUTHENTICATED") {
    const target = returnPath(request);
    const signIn = target === "/" ? "/signin" : `/signin?redirectTo=${encodeURIComponent(target)}`;
    const toast = signInToastFor(target);
    throw toast ? await redirectWithToast(context.cloudflare.env, signIn, toast) : redirect(signIn);
  }
  if (refusal) throw redirect("/blocked");
  return user!;
}

/** Admins only: other users are sent to / from pages and get a 403 from actions (before the body is read). */
export async function requireAdmin(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await requireUser(request, context);
  const refusal = accessRefusal(user, "admin");
  if (refusal) {
    if (request.method === "GET" || request.method === "HEAD") throw redirect("/");
    throw data({ error: refusal.message, code: refusal.code }, { status: refusal.status });
  }
  return user;
}

/** For public auth pages: a signed-in user goes home instead. */
export async function redirectIfSignedIn(request: Request, context: AppLoadContext) {
  const user = await getSessionUser(request, context);
  if (user) throw redirect(user.accountType === "blocked" ? "/blocked" : "/");
}
