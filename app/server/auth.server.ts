// Authentication: database sessions behind a signed httpOnly cookie, the remix-auth authenticator
// (e-mail + password, and Google through remix-auth-oauth2), guards for loaders/actions, and single-use
// e-mail tokens.
import { parseWithZod } from "@conform-to/zod/v4";
import { createCookie, data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { OAuth2Strategy } from "remix-auth-oauth2";
import { z } from "zod";
import { creditPeriod, monthlyAllowance, renewCreditsIfDue } from "./credits.server";
import type { DbOrTx } from "./db.server";
import { isProduction, type Env } from "./env";
import { isFeatureEnabled, type FlagKey } from "./flags.server";
import { randomToken, sha256Hex, verifyPassword } from "./password";
import { authTokens, passwordCredentials, sessions, users, type User } from "./schema";
import { redirectWithToast, type Toast } from "./toast.server";

const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;
/** Sliding expiry and last-seen are written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60 * 60_000;

export type SessionUser = Omit<User, "createdAt" | "updatedAt"> & { isAdmin: boolean; sessionId: string };

function sessionCookie(env: Pick<Env, "SESSION_SECRET" | "APP_ENV">) {
  return createCookie("nika_session", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isProduction(env),
    secrets: [env.SESSION_SECRET],
    maxAge: SESSION_TTL_MS / 1000,
  });
}

// ——— sessions ———

/** Creates a session row and returns the Set-Cookie header value. */
export async function createSession(context: AppLoadContext, userId: string, request: Request): Promise<string> {
  const token = randomToken();
  await context.db.insert(sessions).values({
    id: await sha256Hex(token),
    userId,
    userAgent: request.headers.get("User-Agent")?.slice(0, 300) ?? null,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  return sessionCookie(context.cloudflare.env).serialize(token);
}

async function sessionIdFrom(request: Request, env: Env): Promise<string | null> {
  const token = await sessionCookie(env).parse(request.headers.get("Cookie"));
  return typeof token === "string" && token.length > 0 ? sha256Hex(token) : null;
}

/** Ends the current session (if any) and returns the header that clears the cookie. */
export async function destroySession(context: AppLoadContext, request: Request): Promise<string> {
  const sessionId = await sessionIdFrom(request, context.cloudflare.env);
  if (sessionId) keptSessions(context).delete(sessionId);
  // A session that is already gone (or a failing delete) still ends in a signed-out browser.
  if (sessionId)
    await context.db
      .delete(sessions)
      .where(eq(sessions.id, sessionId))
      .catch((error) => console.error(error));
  return sessionCookie(context.cloudflare.env).serialize("", { maxAge: 0 });
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

type KeptSession = { user: SessionUser; readAt: number };
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

// ——— guards ———

/** Relative path + query of the request, to come back to after signing in. */
function returnPath(request: Request) {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** Only same-site relative paths are followed after sign-in. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
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
    throw toast ? await redirectWithToast(signIn, toast) : redirect(signIn);
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

// ——— credentials (remix-auth) ———

export class InvalidCredentialsError extends Error {
  constructor() {
    super("invalid_credentials");
  }
}

export type AuthenticatedUser = Pick<User, "id" | "email" | "emailConfirmedAt" | "accountType">;

export async function verifyCredentials(db: DbOrTx, email: string, password: string): Promise<AuthenticatedUser> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      emailConfirmedAt: users.emailConfirmedAt,
      accountType: users.accountType,
      passwordHash: passwordCredentials.passwordHash,
    })
    .from(users)
    .innerJoin(passwordCredentials, eq(passwordCredentials.userId, users.id))
    .where(eq(users.email, email));
  // Hash even when the user does not exist, so timing does not reveal registered e-mails.
  const ok = await verifyPassword(password, row?.passwordHash ?? DUMMY_HASH);
  if (!row || !ok) throw new InvalidCredentialsError();
  const { passwordHash: _p, ...user } = row;
  return user;
}
const DUMMY_HASH = "pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

const credentialsSchema = z.object({ email: z.string().trim().toLowerCase(), password: z.string().min(1) });

// ——— Google (OpenID Connect: authorization code + PKCE, decision 0017) ———

/** Google's endpoints (https://accounts.google.com/.well-known/openid-configuration); settings override them for tests. */
export const GOOGLE_ENDPOINTS = {
  authorization: "https://accounts.google.com/o/oauth2/v2/auth",
  token: "https://oauth2.googleapis.com/token",
  userinfo: "https://openidconnect.googleapis.com/v1/userinfo",
} as const;
export const GOOGLE_SCOPES = ["openid", "email", "profile"];
export const GOOGLE_CALLBACK_PATH = "/auth/google/callback";
/** remix-auth-oauth2 keeps each attempt's state and PKCE verifier in a cookie named `<this>:<uuid>`. */
export const GOOGLE_STATE_COOKIE = "nika_oauth_google";
/** The `iss` of Google's ID tokens (https://developers.google.com/identity/openid-connect/openid-connect#validatinganidtoken). */
const GOOGLE_ISSUERS = new Set(["https://accounts.google.com", "accounts.google.com"]);

export type GoogleSettings = { clientId: string; clientSecret: string; authorizationUrl: string; tokenUrl: string; userinfoUrl: string };

/** Google sign-in's settings, or null when it is not configured (client id or secret missing). */
export function googleSettings(env: Env): GoogleSettings | null {
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return null;
  return {
    clientId: env.GOOGLE_CLIENT_ID,
    clientSecret: env.GOOGLE_CLIENT_SECRET,
    authorizationUrl: env.GOOGLE_AUTHORIZATION_URL ?? GOOGLE_ENDPOINTS.authorization,
    tokenUrl: env.GOOGLE_TOKEN_URL ?? GOOGLE_ENDPOINTS.token,
    userinfoUrl: env.GOOGLE_USERINFO_URL ?? GOOGLE_ENDPOINTS.userinfo,
  };
}

/** Who Google says signed in. Whether to trust the e-mail (`emailVerified`) is the account logic's call. */
export type GoogleIdentity = { sub: string; email: string; emailVerified: boolean; name: string };

/** Anything that went wrong between Google and us after the consent page (the user only sees one message). */
export class GoogleProtocolError extends Error {
  override name = "GoogleProtocolError";
}

const userinfoSchema = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().trim().min(3).max(254),
  // A boolean in the userinfo JSON; older Google answers sent the string "true".
  email_verified: z.union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")]).default(false),
  name: z.string().optional(),
});

/** The claims of an ID token received straight from the token endpoint over TLS (OIDC Core §3.1.3.7: no signature check needed). */
function idTokenClaims(idToken: string): Record<string, unknown> {
  const payload = idToken.split(".")[1];
  if (!payload) throw new GoogleProtocolError("malformed id_token");
  try {
    const bytes = Uint8Array.from(atob(payload.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    throw new GoogleProtocolError("malformed id_token");
  }
}

/**
 * The verify step of the Google strategy: the ID token must be ours (aud = client id, Google's iss, not
 * expired), then the userinfo endpoint (Bearer access token) names the user, with the same `sub`
 * (OIDC Core §5.3.2).
 */
async function googleIdentity(settings: GoogleSettings, tokens: OAuth2Strategy.VerifyOptions["tokens"]): Promise<GoogleIdentity> {
  const claims = idTokenClaims(tokens.idToken());
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audience.includes(settings.clientId)) throw new GoogleProtocolError("id_token for another client");
  if (typeof claims.iss !== "string" || !GOOGLE_ISSUERS.has(claims.iss)) throw new GoogleProtocolError("id_token from another issuer");
  if (typeof claims.exp !== "number" || claims.exp * 1000 < Date.now()) throw new GoogleProtocolError("expired id_token");

  const response = await fetch(settings.userinfoUrl, {
    headers: { Authorization: `Bearer ${tokens.accessToken()}`, Accept: "application/json" },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new GoogleProtocolError(`userinfo answered ${response.status}`);
  const parsed = userinfoSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new GoogleProtocolError("unexpected userinfo body");
  if (parsed.data.sub !== claims.sub) throw new GoogleProtocolError("userinfo sub differs from the id_token's");
  const { sub, email, email_verified: emailVerified, name } = parsed.data;
  return { sub, email: email.toLowerCase(), emailVerified, name: name?.trim() ?? "" };
}

/** What each strategy verifies: `authenticate("form", …)` a user, `authenticate("google", …)` a Google identity. */
export interface NikaAuthenticator {
  authenticate(strategy: "form", request: Request): Promise<AuthenticatedUser>;
  authenticate(strategy: "google", request: Request): Promise<GoogleIdentity>;
}

/**
 * One authenticator per request: strategies need this request's database. Google is plugged in when it
 * is configured and the public origin is known (APP_URL, else `request`'s), for its redirect URI.
 */
export function createAuthenticator(context: AppLoadContext, request?: Request): NikaAuthenticator {
  const env = context.cloudflare.env;
  const authenticator = new Authenticator<AuthenticatedUser | GoogleIdentity>();
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      // The route has validated the sign-in form (features/auth signinSchema); here only its two fields are read.
      const submission = parseWithZod(form, { schema: credentialsSchema });
      if (submission.status !== "success") throw new InvalidCredentialsError();
      return verifyCredentials(context.db, submission.value.email, submission.value.password);
    }),
    "form",
  );
  const google = googleSettings(env);
  const origin = env.APP_URL ?? (request ? new URL(request.url).origin : null);
  if (google && origin) {
    authenticator.use(
      new OAuth2Strategy<GoogleIdentity>(
        {
          cookie: { name: GOOGLE_STATE_COOKIE, maxAge: 10 * 60, ...(isProduction(env) ? { secure: true } : {}) },
          clientId: google.clientId,
          clientSecret: google.clientSecret,
          authorizationEndpoint: google.authorizationUrl,
          tokenEndpoint: google.tokenUrl,
          redirectURI: `${origin.replace(/\/$/, "")}${GOOGLE_CALLBACK_PATH}`,
          scopes: GOOGLE_SCOPES,
        },
        ({ tokens }) => googleIdentity(google, tokens),
      ),
      "google",
    );
  }
  // Each name is registered with the strategy whose result the interface gives it.
  return authenticator as NikaAuthenticator;
}

// ——— single-use e-mail tokens ———

export type TokenPurpose = "email_verification" | "password_reset" | "email_change";
export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  email_verification: 24 * 60 * 60_000,
  password_reset: 60 * 60_000,
  email_change: 24 * 60 * 60_000,
};

/** Issues a token (only its hash is stored) and invalidates older unused ones of the same purpose. */
export async function issueToken(db: DbOrTx, userId: string, purpose: TokenPurpose, newEmail?: string) {
  const token = randomToken();
  await db
    .update(authTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt)));
  await db.insert(authTokens).values({
    tokenHash: await sha256Hex(token),
    userId,
    purpose,
    newEmail: newEmail ?? null,
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS[purpose]),
  });
  return token;
}

export type TokenLookup =
  | { status: "valid"; userId: string; newEmail: string | null; tokenId: number }
  | { status: "expired"; userId: string }
  | { status: "used"; userId: string }
  | { status: "invalid" };

export async function findToken(db: DbOrTx, token: string, purpose: TokenPurpose, now = new Date()): Promise<TokenLookup> {
  const [row] = await db
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, await sha256Hex(token)), eq(authTokens.purpose, purpose)));
  if (!row) return { status: "invalid" };
  if (row.usedAt) return { status: "used", userId: row.userId };
  if (row.expiresAt.getTime() <= now.getTime()) return { status: "expired", userId: row.userId };
  return { status: "valid", userId: row.userId, newEmail: row.newEmail, tokenId: row.id };
}

/** Marks a token used; false if another request used it first. */
export async function consumeToken(db: DbOrTx, tokenId: number): Promise<boolean> {
  const used = await db
    .update(authTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(authTokens.id, tokenId), isNull(authTokens.usedAt)))
    .returning({ id: authTokens.id });
  return used.length === 1;
}
