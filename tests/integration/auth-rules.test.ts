// Account rules that a broken line must not get past (issue 8, item 11 — found by mutation testing):
// the password-reset limit (3 e-mails / 15 min per address, silently), and the other limits and
// single-use tokens behind the auth pages, called as the routes call them.
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  confirmEmail,
  isResetTokenValid,
  publicOrigin,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  secondsUntilResend,
  signUp,
} from "~/features/auth/accounts.server";
import { createAuthenticator, InvalidCredentialsError, verifyCredentials } from "~/features/auth/authenticator.server";
import { authTokens, passwordCredentials } from "~/features/auth/tables";
import { consumeToken, findToken, issueToken } from "~/features/auth/tokens.server";
import * as forgotPassword from "~/routes/_auth+/forgot-password";
import * as signin from "~/routes/_auth+/signin";
import {
  ACCESS_MESSAGES,
  checkAccess,
  createSession,
  destroySession,
  getSessionUser,
  redirectIfSignedIn,
  requireAdmin,
  requireUser,
  safeRedirect,
} from "~/server/auth.server";
import { creditPeriod } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { hashPassword, sha256Hex } from "~/server/password";
import { appConfig, creditLedger, mailOutbox, rateLimitAttempts, sessions, userRoles, users } from "~/server/schema";
import { args, call, contextFor, CookieJar, createTestDb, request } from "./harness";

let db: Database;
let n = 0;
const ORIGIN = "http://nika.test";
beforeAll(async () => {
  ({ db } = await createTestDb());
});

async function newUser(email = `regras${++n}@example.com`, password?: string) {
  const [user] = await db.insert(users).values({ name: "Regras", email, emailConfirmedAt: new Date() }).returning();
  if (password) await db.insert(passwordCredentials).values({ userId: user!.id, passwordHash: await hashPassword(password) });
  return user!;
}
const resetMails = (email: string) =>
  db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, "password_reset")));
const attempts = (bucket: string, subject: string) =>
  db
    .select()
    .from(rateLimitAttempts)
    .where(and(eq(rateLimitAttempts.bucket, bucket), eq(rateLimitAttempts.subject, subject)));
const age = (subject: string, interval: string) =>
  db
    .update(rateLimitAttempts)
    .set({ createdAt: sql`now() - ${sql.raw(`interval '${interval}'`)}` })
    .where(eq(rateLimitAttempts.subject, subject));

describe("password reset e-mails", () => {
  it("sends at most 3 per address in 15 minutes, answering the same (silently) after that", async () => {
    const user = await newUser();
    for (let i = 0; i < 3; i++) await expect(requestPasswordReset(contextFor(db), user.email, ORIGIN)).resolves.toBeUndefined();
    expect(await resetMails(user.email)).toHaveLength(3);
    await expect(requestPasswordReset(contextFor(db), user.email, ORIGIN)).resolves.toBeUndefined();
    expect(await resetMails(user.email)).toHaveLength(3);
    // the refused request is not counted (it would extend the wait)
    expect(await attempts("password_reset", user.email)).toHaveLength(3);
    // only the last link works: issuing one voids the older ones
    const tokens = await db
      .select()
      .from(authTokens)
      .where(and(eq(authTokens.userId, user.id), eq(authTokens.purpose, "password_reset")))
      .orderBy(authTokens.id);
    expect(tokens.map((t) => t.usedAt === null)).toEqual([false, false, true]);
  });

  it("opens again once the oldest e-mail of the window is 15 minutes old", async () => {
    const user = await newUser();
    for (let i = 0; i < 3; i++) await requestPasswordReset(contextFor(db), user.email, ORIGIN);
    await age(user.email, "14 minutes");
    await requestPasswordReset(contextFor(db), user.email, ORIGIN);
    expect(await resetMails(user.email)).toHaveLength(3);
    await age(user.email, "16 minutes");
    await requestPasswordReset(contextFor(db), user.email, ORIGIN);
    expect(await resetMails(user.email)).toHaveLength(4);
  });

  it("counts unknown addresses too, and each address on its own", async () => {
    const unknown = `ninguem${++n}@example.com`;
    for (let i = 0; i < 5; i++) await requestPasswordReset(contextFor(db), unknown, ORIGIN);
    expect(await attempts("password_reset", unknown)).toHaveLength(3);
    expect(await resetMails(unknown)).toEqual([]);

    const user = await newUser();
    await requestPasswordReset(contextFor(db), user.email, ORIGIN);
    const [mail] = await resetMails(user.email);
    expect(mail!.textBody).toMatch(/http:\/\/nika\.test\/reset-password\?token=[A-Za-z0-9_-]+/);
  });
});

describe("through the pages", () => {
  it("the forgot-password page gives the 4th request the same answer and mails nothing", async () => {
    const user = await newUser();
    const post = () =>
      call<{ sent: boolean }>(() => forgotPassword.action(args(request("/forgot-password", { form: { email: user.email } }), contextFor(db))));
    for (let i = 0; i < 3; i++) expect((await post()).data.sent).toBe(true);
    const fourth = await post();
    expect([fourth.status, fourth.data.sent]).toEqual([200, true]);
    expect(await resetMails(user.email)).toHaveLength(3);
  });

  it("a successful sign-in clears that address's failed attempts", async () => {
    const password = "Correta123";
    const user = await newUser(undefined, password);
    const signIn = (pass: string) =>
      call(() => signin.action(args(request("/signin", { form: { email: user.email, password: pass } }), contextFor(db))));
    for (let i = 0; i < 4; i++) expect((await signIn("Errada123")).status).toBe(401);
    expect((await signIn(password)).status).toBe(302);
    expect(await attempts("signin", user.email)).toEqual([]);
    // a fresh window: four more mistakes are answered as mistakes, not as a lockout
    for (let i = 0; i < 4; i++) expect((await signIn("Errada123")).status).toBe(401);
    expect((await signIn(password)).status).toBe(302);
  });
});

// ——— sessions, guards and tokens (app/server/auth.server.ts) ———

async function sessionFor(userId: string, userAgent?: string, env: Record<string, string> = {}) {
  const req = new Request("http://nika.test/", { headers: userAgent ? { "User-Agent": userAgent } : {} });
  const setCookie = await createSession(contextFor(db, env), userId, req);
  const jar = new CookieJar();
  jar.absorb(new Headers({ "Set-Cookie": setCookie }));
  return { setCookie, jar };
}
const sessionRows = (userId: string) => db.select().from(sessions).where(eq(sessions.userId, userId));
const load = (jar: CookieJar) => getSessionUser(request("/", { jar }), contextFor(db));

describe("sessions", () => {
  it("the cookie is httpOnly, SameSite=Lax, for the whole site, 30 days, and Secure only in production", async () => {
    const user = await newUser();
    const { setCookie } = await sessionFor(user.id);
    const attributes = setCookie
      .split(";")
      .slice(1)
      .map((a) => a.trim().toLowerCase());
    expect(setCookie.startsWith("nika_session=")).toBe(true);
    expect(attributes).toEqual(expect.arrayContaining(["path=/", "httponly", "samesite=lax", `max-age=${30 * 24 * 60 * 60}`]));
    expect(attributes).not.toContain("secure");
    const production = await sessionFor(user.id, undefined, { APP_ENV: "production" });
    expect(production.setCookie.split(";").map((a) => a.trim().toLowerCase())).toContain("secure");
  });

  it("stores only the token's hash, the user agent (at most 300 characters) and a 30-day expiry", async () => {
    const user = await newUser();
    const before = Date.now();
    const { setCookie } = await sessionFor(user.id, "Mozilla/5.0 " + "x".repeat(400));
    const [row] = await sessionRows(user.id);
    expect(row!.userAgent).toBe(("Mozilla/5.0 " + "x".repeat(400)).slice(0, 300));
    expect(row!.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 30 * 86_400_000 - 1000);
    expect(row!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000 + 1000);
    expect(setCookie).not.toContain(row!.id);
    expect(row!.id).toMatch(/^[0-9a-f]{64}$/);
  });

  it("an expired session is no session", async () => {
    const user = await newUser();
    const { jar } = await sessionFor(user.id);
    expect((await load(jar))?.id).toBe(user.id);
    await db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.userId, user.id));
    expect(await load(jar)).toBeNull();
  });

  it("a tampered or foreign cookie is no session", async () => {
    const user = await newUser();
    await sessionFor(user.id);
    const forged = new CookieJar();
    forged.absorb(new Headers({ "Set-Cookie": `nika_session=${encodeURIComponent(btoa(JSON.stringify("guess")))}.bad; Path=/` }));
    expect(await load(forged)).toBeNull();
    const otherSecret = await createSession(contextFor(db, { SESSION_SECRET: "another-secret" }), user.id, request("/"));
    const foreign = new CookieJar();
    foreign.absorb(new Headers({ "Set-Cookie": otherSecret }));
    expect(await load(foreign)).toBeNull();
    // a signature that is not even base64 (the cookie parser throws on it) is no session either, not a 500
    const garbage = new CookieJar();
    garbage.absorb(new Headers({ "Set-Cookie": "nika_session=abc.!!!; Path=/" }));
    expect(await load(garbage)).toBeNull();
  });

  it("slides the expiry and last-seen at most once an hour", async () => {
    const user = await newUser();
    const { jar } = await sessionFor(user.id);
    const set = (minutesAgo: number) =>
      db
        .update(sessions)
        .set({
          lastSeenAt: sql`now() - ${sql.raw(`interval '${minutesAgo} minutes'`)}`,
          expiresAt: sql`now() + interval '2 days'`,
        })
        .where(eq(sessions.userId, user.id));
    await set(59);
    await load(jar);
    let [row] = await sessionRows(user.id);
    expect(row!.expiresAt.getTime()).toBeLessThan(Date.now() + 3 * 86_400_000);
    const [untouched] = await db.select({ lastSeenAt: users.lastSeenAt }).from(users).where(eq(users.id, user.id));
    expect(untouched!.lastSeenAt).toBeNull();

    await set(61);
    await load(jar);
    [row] = await sessionRows(user.id);
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(row!.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    const [touched] = await db.select({ lastSeenAt: users.lastSeenAt }).from(users).where(eq(users.id, user.id));
    expect(touched!.lastSeenAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("knows admins by their role, and loads the user once per request", async () => {
    const admin = await newUser();
    await db.insert(userRoles).values({ userId: admin.id, role: "admin" });
    const learner = await newUser();
    expect((await load((await sessionFor(admin.id)).jar))?.isAdmin).toBe(true);
    expect((await load((await sessionFor(learner.id)).jar))?.isAdmin).toBe(false);
    const { jar } = await sessionFor(learner.id);
    const context = contextFor(db);
    const first = getSessionUser(request("/", { jar }), context);
    expect(getSessionUser(request("/", { jar }), context)).toBe(first);
  });

  it("sign-out deletes this browser's session only and expires the cookie", async () => {
    const user = await newUser();
    const one = await sessionFor(user.id);
    const two = await sessionFor(user.id);
    const cleared = await destroySession(contextFor(db), request("/", { jar: one.jar }));
    expect(cleared.setCookie.toLowerCase()).toMatch(/nika_session=;.*max-age=0/);
    expect(cleared.userId).toBe(user.id);
    expect(await load(one.jar)).toBeNull();
    expect((await load(two.jar))?.id).toBe(user.id);
    expect(await sessionRows(user.id)).toHaveLength(1);
  });
});

describe("guards", () => {
  it("requireUser: anonymous → /signin (no redirectTo for the home page), blocked → /blocked, else the user", async () => {
    expect((await call(() => requireUser(request("/"), contextFor(db)))).location).toBe("/signin");
    expect((await call(() => requireUser(request("/courses?tab=1"), contextFor(db)))).location).toBe("/signin?redirectTo=%2Fcourses%3Ftab%3D1");
    const blocked = await newUser();
    await db.update(users).set({ accountType: "blocked" }).where(eq(users.id, blocked.id));
    const blockedJar = (await sessionFor(blocked.id)).jar;
    const outcome = await call(() => requireUser(request("/courses", { jar: blockedJar }), contextFor(db)));
    expect([outcome.status, outcome.location]).toEqual([302, "/blocked"]);
    const learner = await newUser();
    expect((await requireUser(request("/", { jar: (await sessionFor(learner.id)).jar }), contextFor(db))).id).toBe(learner.id);
  });

  it("requireAdmin: learners are sent home from GET and HEAD, refused 403 on other methods; blocked admins are blocked", async () => {
    const learner = await newUser();
    const { jar } = await sessionFor(learner.id);
    for (const method of ["GET", "HEAD"]) {
      const outcome = await call(() => requireAdmin(request("/admin", { method, jar }), contextFor(db)));
      expect([method, outcome.status, outcome.location]).toEqual([method, 302, "/"]);
    }
    for (const method of ["POST", "PUT", "DELETE"]) {
      const outcome = await call(() => requireAdmin(request("/admin", { method, jar }), contextFor(db)));
      expect([method, outcome.status]).toEqual([method, 403]);
      expect(outcome.data).toMatchObject({ error: "Acesso restrito a administradores." });
    }
    const admin = await newUser();
    await db.insert(userRoles).values({ userId: admin.id, role: "admin" });
    await db.update(users).set({ accountType: "blocked" }).where(eq(users.id, admin.id));
    const adminJar = (await sessionFor(admin.id)).jar;
    const blockedAdmin = await call(() => requireAdmin(request("/admin", { method: "POST", jar: adminJar }), contextFor(db)));
    expect(blockedAdmin.location).toBe("/blocked");
  });

  it("redirectIfSignedIn: home for users, /blocked for blocked ones, nothing for visitors", async () => {
    await expect(redirectIfSignedIn(request("/signin"), contextFor(db))).resolves.toBeUndefined();
    const learner = await newUser();
    const { jar } = await sessionFor(learner.id);
    expect((await call(() => redirectIfSignedIn(request("/signin", { jar }), contextFor(db)))).location).toBe("/");
    await db.update(users).set({ accountType: "blocked" }).where(eq(users.id, learner.id));
    expect((await call(() => redirectIfSignedIn(request("/signin", { jar }), contextFor(db)))).location).toBe("/blocked");
  });

  it("checkAccess (non-page endpoints): 401 anonymous, 403 blocked, 403 non-admins where admins only, then the flag", async () => {
    const learner = await newUser();
    const admin = await newUser();
    await db.insert(userRoles).values({ userId: admin.id, role: "admin" });
    const blocked = await newUser();
    await db.update(users).set({ accountType: "blocked" }).where(eq(users.id, blocked.id));
    const as = async (userId: string | null, options?: Parameters<typeof checkAccess>[2]) => {
      const jar = userId ? (await sessionFor(userId)).jar : undefined;
      return checkAccess(request("/resources/x", { jar }), contextFor(db), options);
    };
    const refusal = (status: number, code: keyof typeof ACCESS_MESSAGES) => ({ refusal: { status, code, message: ACCESS_MESSAGES[code] } });

    expect(await as(null)).toEqual(refusal(401, "UNAUTHENTICATED"));
    expect(await as(blocked.id)).toEqual(refusal(403, "BLOCKED"));
    expect(await as(blocked.id, { level: "admin" })).toEqual(refusal(403, "BLOCKED"));
    expect(await as(learner.id, { level: "admin" })).toEqual(refusal(403, "FORBIDDEN"));
    expect((await as(learner.id)).user?.id).toBe(learner.id);
    expect((await as(admin.id, { level: "admin" })).user?.id).toBe(admin.id);

    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_teacher_flix"));
    try {
      expect(await as(learner.id, { feature: "feature_teacher_flix" })).toEqual(refusal(403, "FEATURE_DISABLED"));
      expect(await as(admin.id, { level: "admin", feature: "feature_teacher_flix" })).toEqual(refusal(403, "FEATURE_DISABLED"));
      // sign-in comes first: an anonymous visitor is told to sign in, not that the feature is off
      expect(await as(null, { feature: "feature_teacher_flix" })).toEqual(refusal(401, "UNAUTHENTICATED"));
      expect((await as(learner.id, { feature: "feature_chat_game" })).user?.id).toBe(learner.id);
    } finally {
      await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_teacher_flix"));
    }
  });

  it("safeRedirect follows same-site relative paths only", () => {
    expect(safeRedirect("/courses?tab=1#x")).toBe("/courses?tab=1#x");
    for (const unsafe of ["//evil.example", "/\\evil.example", "https://evil.example", "javascript:alert(1)", "", null, undefined]) {
      expect(safeRedirect(unsafe, "/home")).toBe("/home");
    }
    expect(safeRedirect(null)).toBe("/");
  });
});

describe("credentials", () => {
  it("verifies the password of a registered e-mail; a wrong password or an unknown e-mail fail alike", async () => {
    const user = await newUser(undefined, "Segredo123");
    expect(await verifyCredentials(db, user.email, "Segredo123")).toEqual({
      id: user.id,
      email: user.email,
      emailConfirmedAt: user.emailConfirmedAt,
      accountType: "free",
    });
    await expect(verifyCredentials(db, user.email, "segredo123")).rejects.toBeInstanceOf(InvalidCredentialsError);
    await expect(verifyCredentials(db, `x${user.email}`, "Segredo123")).rejects.toBeInstanceOf(InvalidCredentialsError);
  });

  it("the form strategy trims and lower-cases the e-mail", async () => {
    const user = await newUser(undefined, "Segredo123");
    const form = new URLSearchParams({ email: `  ${user.email.toUpperCase()} `, password: "Segredo123" });
    const req = new Request("http://nika.test/signin", {
      method: "POST",
      body: form,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect((await createAuthenticator(contextFor(db)).authenticate("form", req)).id).toBe(user.id);
  });
});

describe("single-use tokens", () => {
  const HOUR = 60 * 60_000;
  it("expire after their purpose's lifetime (1 h for a reset, 24 h for e-mail links)", async () => {
    const user = await newUser();
    const reset = await issueToken(db, user.id, "password_reset");
    const verify = await issueToken(db, user.id, "email_verification");
    const inMs = (ms: number) => new Date(Date.now() + ms);
    expect((await findToken(db, reset, "password_reset", inMs(HOUR - 60_000))).status).toBe("valid");
    expect((await findToken(db, reset, "password_reset", inMs(HOUR + 60_000))).status).toBe("expired");
    expect((await findToken(db, verify, "email_verification", inMs(24 * HOUR - 60_000))).status).toBe("valid");
    expect((await findToken(db, verify, "email_verification", inMs(24 * HOUR + 60_000))).status).toBe("expired");
  });

  it("expire at their expiry instant, not after", async () => {
    const user = await newUser();
    const token = await issueToken(db, user.id, "password_reset");
    const [row] = await db
      .select()
      .from(authTokens)
      .where(eq(authTokens.tokenHash, await sha256Hex(token)));
    expect((await findToken(db, token, "password_reset", new Date(row!.expiresAt.getTime() - 1))).status).toBe("valid");
    expect((await findToken(db, token, "password_reset", row!.expiresAt)).status).toBe("expired");
  });

  it("belong to one purpose, are stored hashed, and are consumed once", async () => {
    const user = await newUser();
    const token = await issueToken(db, user.id, "email_change", "novo@example.com");
    expect((await findToken(db, token, "password_reset")).status).toBe("invalid");
    expect(await db.select().from(authTokens).where(eq(authTokens.tokenHash, token))).toEqual([]);
    const found = await findToken(db, token, "email_change");
    expect(found).toMatchObject({ status: "valid", userId: user.id, newEmail: "novo@example.com" });
    const tokenId = (found as { tokenId: number }).tokenId;
    expect(await consumeToken(db, tokenId)).toBe(true);
    expect(await consumeToken(db, tokenId)).toBe(false);
    expect(await findToken(db, token, "email_change")).toEqual({ status: "used", userId: user.id });
  });

  it("issuing one voids the older unused tokens of the same purpose only", async () => {
    const user = await newUser();
    const oldReset = await issueToken(db, user.id, "password_reset");
    const verify = await issueToken(db, user.id, "email_verification");
    const newReset = await issueToken(db, user.id, "password_reset");
    expect((await findToken(db, oldReset, "password_reset")).status).toBe("used");
    expect((await findToken(db, newReset, "password_reset")).status).toBe("valid");
    expect((await findToken(db, verify, "email_verification")).status).toBe("valid");
  });
});

// ——— account workflows (app/features/auth/accounts.server.ts) ———

async function withConfirmation<T>(required: boolean, run: () => Promise<T>): Promise<T> {
  await db.update(appConfig).set({ configValue: required }).where(eq(appConfig.configKey, "email_confirmation_required"));
  try {
    return await run();
  } finally {
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "email_confirmation_required"));
  }
}
const signupInput = (email: string) => ({ name: "Joana Prado", email, whatsapp: "+55 21 97777-6666", password: "Ingles2025" });
const mailsTo = (email: string, kind: string) =>
  db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, kind)));
const tokenIn = (text: string, param: string) => new URL(text.match(/https?:\/\/\S+/)![0]).searchParams.get(param)!;

describe("sign-up", () => {
  it("gives the configured allowance for the current period, with a 'signup' ledger entry", async () => {
    const email = `novo${++n}@example.com`;
    const result = await signUp(contextFor(db, { MONTHLY_CREDITS: "30" }), signupInput(email), ORIGIN);
    expect(result).toMatchObject({ status: "created", emailConfirmationRequired: false });
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ monthlyCredits: 30, creditsPeriod: creditPeriod(new Date()), phoneNumber: "+55 21 97777-6666" });
    expect(user!.emailConfirmedAt).not.toBeNull();
    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, user!.id));
    expect(ledger.map((l) => [l.delta, l.balanceAfter, l.reason])).toEqual([[30, 30, "signup"]]);
    expect(await mailsTo(email, "email_verification")).toEqual([]);
  });

  it("with confirmation required: unconfirmed, one confirmation e-mail, and the resend wait starts", async () => {
    const email = `confirmar${++n}@example.com`;
    const result = await withConfirmation(true, () => signUp(contextFor(db), signupInput(email), ORIGIN));
    expect(result).toMatchObject({ status: "created", emailConfirmationRequired: true });
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user!.emailConfirmedAt).toBeNull();
    const [mail] = await mailsTo(email, "email_verification");
    expect(mail!.textBody).toContain(`${ORIGIN}/confirm-email?token_hash=`);
    expect(mail!.textBody).toContain("&type=signup");
    expect(await secondsUntilResend(contextFor(db), email)).toBeGreaterThan(40);
    expect(await secondsUntilResend(contextFor(db), `outro${email}`)).toBe(0);
  });

  it("creates one account when the same e-mail signs up twice at once", async () => {
    const email = `corrida${++n}@example.com`;
    const results = await Promise.all([signUp(contextFor(db), signupInput(email), ORIGIN), signUp(contextFor(db), signupInput(email), ORIGIN)]);
    expect(results.map((r) => r.status).sort()).toEqual(["created", "email_exists"]);
    expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });
});

describe("verification e-mails", () => {
  it("resends to an unconfirmed account only, and the 45 s wait applies to any address", async () => {
    const unconfirmed = await newUser();
    await db.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, unconfirmed.id));
    const confirmed = await newUser();
    const unknown = `desconhecido${++n}@example.com`;
    for (const email of [unconfirmed.email, confirmed.email, unknown]) {
      expect(await resendVerification(contextFor(db), email, ORIGIN)).toEqual({ status: "sent" });
      const again = await resendVerification(contextFor(db), email, ORIGIN);
      expect(again.status).toBe("rate_limited");
      expect((again as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(40_000);
    }
    expect(await mailsTo(unconfirmed.email, "email_verification")).toHaveLength(1);
    expect(await mailsTo(confirmed.email, "email_verification")).toEqual([]);
    expect(await mailsTo(unknown, "email_verification")).toEqual([]);
  });
});

describe("confirming an e-mail", () => {
  it("a sign-up link confirms once and signs in; used again it is a success without sign-in", async () => {
    const user = await newUser();
    await db.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, user.id));
    const token = await issueToken(db, user.id, "email_verification");
    expect(await confirmEmail(contextFor(db), token, "email_change")).toEqual({ status: "invalid" });
    expect(await confirmEmail(contextFor(db), token, "signup")).toEqual({ status: "confirmed", userId: user.id, signIn: true, kind: "signup" });
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row!.emailConfirmedAt).not.toBeNull();
    expect(await confirmEmail(contextFor(db), token, "signup")).toEqual({ status: "confirmed", userId: user.id, signIn: false, kind: "signup" });
  });

  it("an older link voided by a newer one is invalid while the account is unconfirmed; expired links say so", async () => {
    const user = await newUser();
    await db.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, user.id));
    const old = await issueToken(db, user.id, "email_verification");
    const fresh = await issueToken(db, user.id, "email_verification");
    expect(await confirmEmail(contextFor(db), old, "signup")).toEqual({ status: "invalid" });
    await db
      .update(authTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(authTokens.userId, user.id));
    expect(await confirmEmail(contextFor(db), fresh, "signup")).toEqual({ status: "expired", kind: "signup" });
    expect(await confirmEmail(contextFor(db), "nao-existe", "signup")).toEqual({ status: "invalid" });
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row!.emailConfirmedAt).toBeNull();
  });

  it("an e-mail change link moves the account to the new address once", async () => {
    const user = await newUser();
    const newEmail = `trocado${++n}@example.com`;
    await db.update(users).set({ newEmail }).where(eq(users.id, user.id));
    const token = await issueToken(db, user.id, "email_change", newEmail);
    expect(await confirmEmail(contextFor(db), token, "signup")).toEqual({ status: "invalid" });
    expect(await confirmEmail(contextFor(db), token, "email_change")).toEqual({
      status: "confirmed",
      userId: user.id,
      signIn: true,
      kind: "email_change",
    });
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ email: newEmail, newEmail: null });
    expect(await confirmEmail(contextFor(db), token, "email_change")).toEqual({
      status: "confirmed",
      userId: user.id,
      signIn: false,
      kind: "email_change",
    });
  });

  it("an e-mail change to an address someone took meanwhile is refused and changes nothing", async () => {
    const user = await newUser();
    const taken = await newUser();
    await db.update(users).set({ newEmail: taken.email }).where(eq(users.id, user.id));
    const token = await issueToken(db, user.id, "email_change", taken.email);
    expect(await confirmEmail(contextFor(db), token, "email_change")).toEqual({ status: "invalid" });
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ email: user.email, newEmail: taken.email });
    // a used change link while the change is still pending is not a success
    expect(await confirmEmail(contextFor(db), token, "email_change")).toEqual({ status: "invalid" });
  });
});

describe("resetting the password", () => {
  it("a valid link sets the password and ends every session, once", async () => {
    const user = await newUser(undefined, "Antiga123");
    await sessionFor(user.id);
    await sessionFor(user.id);
    await requestPasswordReset(contextFor(db), user.email, ORIGIN);
    const [mail] = await resetMails(user.email);
    const token = tokenIn(mail!.textBody, "token");
    expect(await isResetTokenValid(contextFor(db), token)).toBe(true);
    expect(await resetPassword(contextFor(db), token, "Nova12345")).toBe(true);
    expect(await sessionRows(user.id)).toEqual([]);
    expect((await verifyCredentials(db, user.email, "Nova12345")).id).toBe(user.id);
    await expect(verifyCredentials(db, user.email, "Antiga123")).rejects.toBeInstanceOf(InvalidCredentialsError);
    expect(await isResetTokenValid(contextFor(db), token)).toBe(false);
    expect(await resetPassword(contextFor(db), token, "Outra12345")).toBe(false);
    expect((await verifyCredentials(db, user.email, "Nova12345")).id).toBe(user.id);
  });

  it("an expired or unknown link changes nothing; an account without a password gets one", async () => {
    const user = await newUser(undefined, "Antiga123");
    await sessionFor(user.id);
    const token = await issueToken(db, user.id, "password_reset");
    await db
      .update(authTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(authTokens.userId, user.id));
    expect(await isResetTokenValid(contextFor(db), token)).toBe(false);
    expect(await resetPassword(contextFor(db), token, "Nova12345")).toBe(false);
    expect(await resetPassword(contextFor(db), "inventado", "Nova12345")).toBe(false);
    expect(await sessionRows(user.id)).toHaveLength(1);
    expect((await verifyCredentials(db, user.email, "Antiga123")).id).toBe(user.id);

    const noPassword = await newUser();
    const fresh = await issueToken(db, noPassword.id, "password_reset");
    expect(await resetPassword(contextFor(db), fresh, "Primeira123")).toBe(true);
    expect((await verifyCredentials(db, noPassword.email, "Primeira123")).id).toBe(noPassword.id);
  });
});

describe("links in e-mails", () => {
  it("use APP_URL without a trailing slash, else the request's origin", () => {
    const req = new Request("https://preview.nika.app/forgot-password");
    expect(publicOrigin(contextFor(db, { APP_URL: "https://nika.app/" }), req)).toBe("https://nika.app");
    expect(publicOrigin(contextFor(db, { APP_URL: "" }), req)).toBe("https://preview.nika.app");
  });
});

// ——— found by mutation testing: the renewal on a session's first request of a month, admins through
// requireAdmin, and a malformed sign-in form ———

describe("more guards and sessions", () => {
  it("the first request of a new month renews the credits and shows the renewed balance", async () => {
    const user = await newUser();
    await db.update(users).set({ monthlyCredits: 3, creditsPeriod: "2000-01" }).where(eq(users.id, user.id));
    const { jar } = await sessionFor(user.id);
    const loaded = await getSessionUser(request("/", { jar }), contextFor(db, { MONTHLY_CREDITS: "40" }));
    expect(loaded?.monthlyCredits).toBe(40);
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect([row!.monthlyCredits, row!.creditsPeriod]).toEqual([40, creditPeriod(new Date())]);
    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger.map((l) => [l.delta, l.balanceAfter])).toEqual([[37, 40]]);
  });

  it("requireAdmin lets admins through on every method", async () => {
    const admin = await newUser();
    await db.insert(userRoles).values({ userId: admin.id, role: "admin" });
    const { jar } = await sessionFor(admin.id);
    for (const method of ["GET", "HEAD", "POST", "DELETE"]) {
      const outcome = await call(() => requireAdmin(request("/admin", { method, jar }), contextFor(db)));
      expect([method, outcome.status, (outcome.data as { id?: string }).id]).toEqual([method, 200, admin.id]);
    }
  });

  it("a sign-in form without a valid e-mail or a password is wrong credentials, not an error", async () => {
    const user = await newUser(undefined, "Segredo123");
    const attempt = (form: Record<string, string>) =>
      createAuthenticator(contextFor(db)).authenticate(
        "form",
        new Request("http://nika.test/signin", {
          method: "POST",
          body: new URLSearchParams(form),
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        }),
      );
    await expect(attempt({ email: user.email })).rejects.toBeInstanceOf(InvalidCredentialsError);
    await expect(attempt({ email: "", password: "Segredo123" })).rejects.toBeInstanceOf(InvalidCredentialsError);
    await expect(attempt({ password: "Segredo123" })).rejects.toBeInstanceOf(InvalidCredentialsError);
  });
});
