import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { authTokens } from "~/features/auth/tables";
import * as blocked from "~/routes/_auth+/blocked";
import * as confirmEmail from "~/routes/_auth+/confirm-email";
import * as emailVerification from "~/routes/_auth+/email-verification";
import * as forgotPassword from "~/routes/_auth+/forgot-password";
import * as resetPassword from "~/routes/_auth+/reset-password";
import * as signin from "~/routes/_auth+/signin";
import * as signout from "~/routes/_auth+/signout";
import * as signup from "~/routes/_auth+/signup";
import * as devMailbox from "~/routes/dev+/mailbox";
import { getSessionUser, requireAdmin, requireUser } from "~/server/auth.server";
import type { Database } from "~/server/db.server";
import { appConfig, mailOutbox, rateLimitAttempts, sessions, users } from "~/server/schema";
import { DEV_ACCOUNTS, seedDevelopment } from "../../scripts/lib/seed";
import { args, call, contextFor, CookieJar, createTestDb, request } from "./harness";

let db: Database;
let counter = 0;
const uniqueEmail = () => `pessoa${++counter}-${Date.now()}@example.com`;
const PASSWORD = "Ingles2024";

const signupForm = (email: string, overrides: Record<string, string> = {}) => ({
  name: "Maria Silva",
  email,
  whatsapp: "+55 11 98888-7777",
  password: PASSWORD,
  confirmPassword: PASSWORD,
  ...overrides,
});

async function setFlag(key: string, value: boolean) {
  await db.update(appConfig).set({ configValue: value }).where(eq(appConfig.configKey, key));
}
async function lastMailTo(email: string) {
  const [mail] = await db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, email))
    .orderBy(sql`${mailOutbox.id} desc`)
    .limit(1);
  return mail;
}
const linkIn = (text: string) => new URL(text.match(/https?:\/\/\S+/)![0]);

async function doSignup(form: Record<string, string>, jar = new CookieJar()) {
  const outcome = await call(() => signup.action(args(request("/signup", { form, jar }), contextFor(db))));
  jar.absorb(outcome.headers);
  return { outcome, jar };
}
async function doSignin(email: string, password: string, extra: Record<string, string> = {}, jar = new CookieJar()) {
  const outcome = await call<{ result: { error: Record<string, string[]> }; code: string | null }>(() =>
    signin.action(args(request("/signin", { form: { email, password, ...extra }, jar }), contextFor(db))),
  );
  jar.absorb(outcome.headers);
  return { outcome, jar };
}

beforeAll(async () => {
  ({ db } = await createTestDb());
  await seedDevelopment(db, { allowance: 50 });
});

describe("sign-up", () => {
  it("creates the account with credits, signs in and greets when confirmation is off", async () => {
    await setFlag("email_confirmation_required", false);
    const email = uniqueEmail();
    const { outcome, jar } = await doSignup(signupForm(email.toUpperCase()));
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/");
    expect(jar.has("nika_session")).toBe(true);
    expect(outcome.headers.getSetCookie().join()).toContain("nika_toast");

    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ name: "Maria Silva", phoneNumber: "+55 11 98888-7777", monthlyCredits: 50, accountType: "free" });
    expect(user!.emailConfirmedAt).not.toBeNull();
    expect((await lastMailTo(email))?.kind).toBe("welcome");

    const sessionUser = await getSessionUser(request("/", { jar }), contextFor(db));
    expect(sessionUser?.email).toBe(email);
  });

  it("still signs up when the mail API is down, keeping the welcome e-mail in the outbox as failed", async () => {
    await setFlag("email_confirmation_required", false);
    const email = uniqueEmail();
    const context = contextFor(db, { MAIL_API_URL: "http://127.0.0.1:9", MAIL_API_KEY: "k" });
    const outcome = await call(() => signup.action(args(request("/signup", { form: signupForm(email) }), context)));
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/");
    const mail = await lastMailTo(email);
    expect(mail).toMatchObject({ kind: "welcome", status: "failed" });
    expect(mail!.error).toBeTruthy();
  });

  it("sends a confirmation e-mail and goes to /email-verification when confirmation is required", async () => {
    await setFlag("email_confirmation_required", true);
    const email = uniqueEmail();
    const { outcome, jar } = await doSignup(signupForm(email));
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/email-verification");
    expect(jar.has("nika_session")).toBe(false);
    expect(jar.has("nika_pending_email")).toBe(true);

    const page = await call<{ email: string; waitSeconds: number }>(() =>
      emailVerification.loader(args(request("/email-verification", { jar }), contextFor(db))),
    );
    expect(page.data.email).toBe(email);
    expect(page.data.waitSeconds).toBeGreaterThan(40);

    const mail = await lastMailTo(email);
    expect(mail?.kind).toBe("email_verification");
    const link = linkIn(mail!.textBody);
    expect(link.pathname).toBe("/confirm-email");

    // Signing in before confirming is refused with the spec's message.
    const early = await doSignin(email, PASSWORD);
    expect(early.outcome.status).toBe(403);
    expect(early.outcome.data.result.error[""]![0]).toBe("Email não confirmado");
    expect(early.outcome.data.code).toBe("email_not_confirmed");

    const confirmJar = new CookieJar();
    const confirmed = await call<{ state: string; next: string }>(() =>
      confirmEmail.loader(args(request(link.pathname + link.search), contextFor(db))),
    );
    confirmJar.absorb(confirmed.headers);
    expect(confirmed.data).toEqual({ state: "success", next: "/" });
    expect(confirmJar.has("nika_session")).toBe(true);

    // The same link again: already confirmed counts as success, but signs nobody in.
    const again = await call<{ state: string }>(() => confirmEmail.loader(args(request(link.pathname + link.search), contextFor(db))));
    expect(again.data.state).toBe("success");
    expect(again.headers.getSetCookie()).toHaveLength(0);

    const after = await doSignin(email, PASSWORD);
    expect(after.outcome.status).toBe(302);
  });

  it("validates on the server with the spec's messages and keeps what was typed", async () => {
    const { outcome } = await doSignup(signupForm("nao-e-email", { name: "", whatsapp: "", confirmPassword: "Outra2024" }));
    expect(outcome.status).toBe(400);
    const result = (outcome.data as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }).result;
    expect(result.error.name).toEqual(["Nome é obrigatório"]);
    expect(result.error.email).toEqual(["Email inválido"]);
    expect(result.error.whatsapp).toEqual(["WhatsApp é obrigatório"]);
    expect(result.error.confirmPassword).toEqual(["Senhas não coincidem"]);
    expect(result.initialValue.email).toBe("nao-e-email");
    expect(result.initialValue.password).toBeUndefined();
  });

  it("refuses an e-mail that already has an account", async () => {
    const { outcome } = await doSignup(signupForm(DEV_ACCOUNTS.learner.email));
    expect(outcome.status).toBe(409);
    expect((outcome.data as { result: { error: Record<string, string[]> }; code: string }).result.error[""]).toEqual(["Email já cadastrado"]);
    expect((outcome.data as { code: string }).code).toBe("email_exists");
  });

  it("allows 3 sign-ups per hour per e-mail", async () => {
    const email = DEV_ACCOUNTS.admin.email.replace("admin", "limite");
    await db.insert(users).values({ name: "x", email }); // every attempt below hits "email exists"
    for (let i = 0; i < 3; i++) expect((await doSignup(signupForm(email))).outcome.status).toBe(409);
    const fourth = await doSignup(signupForm(email));
    expect(fourth.outcome.status).toBe(429);
    expect((fourth.outcome.data as { result: { error: Record<string, string[]> } }).result.error[""]).toEqual([
      "Aguarde 60 minutos antes de tentar criar outra conta.",
    ]);
  });

  it("is refused on the server when signup_enabled is off", async () => {
    await setFlag("signup_enabled", false);
    try {
      const email = uniqueEmail();
      const { outcome } = await doSignup(signupForm(email));
      expect(outcome.status).toBe(403);
      expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    } finally {
      await setFlag("signup_enabled", true);
    }
  });
});

describe("sign-in", () => {
  it("signs in with a trimmed, lower-cased e-mail and follows a safe redirect", async () => {
    const { outcome, jar } = await doSignin(`  ${DEV_ACCOUNTS.learner.email.toUpperCase()} `, DEV_ACCOUNTS.learner.password, {
      redirectTo: "/labs",
    });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/labs");
    expect(jar.has("nika_session")).toBe(true);
  });

  it("never redirects off-site", async () => {
    const { outcome } = await doSignin(DEV_ACCOUNTS.learner.email, DEV_ACCOUNTS.learner.password, { redirectTo: "//evil.example" });
    expect(outcome.location).toBe("/");
  });

  it("answers wrong credentials with the spec's message", async () => {
    const { outcome } = await doSignin(DEV_ACCOUNTS.learner.email, "Errada123");
    expect(outcome.status).toBe(401);
    expect(outcome.data.result.error[""]).toEqual(["Email ou senha incorretos. Tente novamente."]);
    expect(outcome.data.code).toBe("invalid_credentials");
    const unknown = await doSignin("ninguem@example.com", "Errada123");
    expect(unknown.outcome.data.result.error[""]).toEqual(["Email ou senha incorretos. Tente novamente."]);
  });

  it("validates the form", async () => {
    const { outcome } = await doSignin("abc", "");
    expect(outcome.status).toBe(400);
    const result = outcome.data.result;
    expect(result.error.email).toEqual(["Por favor, insira um email válido."]);
    expect(result.error.password).toEqual(["Por favor, insira sua senha."]);
  });

  it("refuses the sixth attempt in 15 minutes, even with the right password", async () => {
    const email = uniqueEmail();
    await setFlag("email_confirmation_required", false);
    await doSignup(signupForm(email));
    for (let i = 0; i < 5; i++) expect((await doSignin(email, "Errada123")).outcome.status).toBe(401);
    const sixth = await doSignin(email, PASSWORD);
    expect(sixth.outcome.status).toBe(429);
    expect(sixth.outcome.data.result.error[""]).toEqual(["Muitas tentativas", "Aguarde 15 minutos antes de tentar novamente."]);
    expect(sixth.outcome.data.code).toBe("rate_limited");
    expect(sixth.jar.has("nika_session")).toBe(false);

    // 15 minutes later the window has passed.
    await db
      .update(rateLimitAttempts)
      .set({ createdAt: sql`now() - interval '16 minutes'` })
      .where(eq(rateLimitAttempts.subject, email));
    expect((await doSignin(email, PASSWORD)).outcome.status).toBe(302);
  });
});

describe("guards", () => {
  it("sends anonymous users to /signin keeping where they were going", async () => {
    const outcome = await call(() => requireUser(request("/labs?x=1"), contextFor(db)));
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/signin?redirectTo=%2Flabs%3Fx%3D1");
  });

  it("sends blocked users to /blocked", async () => {
    const email = uniqueEmail();
    await setFlag("email_confirmation_required", false);
    const { jar } = await doSignup(signupForm(email));
    await db.update(users).set({ accountType: "blocked" }).where(eq(users.email, email));
    const outcome = await call(() => requireUser(request("/", { jar }), contextFor(db)));
    expect(outcome.location).toBe("/blocked");
    const page = await call<{ signedIn: boolean; supportEmail: string }>(() =>
      blocked.loader(args(request("/blocked", { jar }), contextFor(db))),
    );
    expect(page.data.signedIn).toBe(true);
  });

  it("keeps admin-only pages and actions for admins", async () => {
    const learner = await doSignin(DEV_ACCOUNTS.learner.email, DEV_ACCOUNTS.learner.password);
    const page = await call(() => requireAdmin(request("/admin", { jar: learner.jar }), contextFor(db)));
    expect(page.location).toBe("/");
    const action = await call(() => requireAdmin(request("/admin", { method: "POST", jar: learner.jar }), contextFor(db)));
    expect(action.status).toBe(403);

    const admin = await doSignin(DEV_ACCOUNTS.admin.email, DEV_ACCOUNTS.admin.password);
    const user = await requireAdmin(request("/admin", { method: "POST", jar: admin.jar }), contextFor(db));
    expect(user.isAdmin).toBe(true);
  });

  it("ends the session on sign-out", async () => {
    const { jar } = await doSignin(DEV_ACCOUNTS.learner.email, DEV_ACCOUNTS.learner.password);
    const before = await db.select().from(sessions);
    const outcome = await call(() => signout.action(args(request("/signout", { method: "POST", jar }), contextFor(db))));
    expect(outcome.location).toBe("/signin");
    expect((await db.select().from(sessions)).length).toBe(before.length - 1);
    expect(await getSessionUser(request("/", { jar }), contextFor(db))).toBeNull();
  });
});

describe("e-mail verification", () => {
  it("needs the pending address, otherwise goes to /signup", async () => {
    const outcome = await call(() => emailVerification.loader(args(request("/email-verification"), contextFor(db))));
    expect(outcome.location).toBe("/signup");
  });

  it("allows a resend only 45 s after the last e-mail", async () => {
    await setFlag("email_confirmation_required", true);
    const email = uniqueEmail();
    const { jar } = await doSignup(signupForm(email));
    const early = await call<{ error: string; waitSeconds: number }>(() =>
      emailVerification.action(args(request("/email-verification", { form: {}, jar }), contextFor(db))),
    );
    expect(early.status).toBe(429);
    expect(early.data.error).toMatch(/^Por segurança, aguarde \d+ segundos antes de tentar novamente\.$/);
    expect(early.data.waitSeconds).toBeGreaterThan(45); // server wait + 5 s

    await db
      .update(rateLimitAttempts)
      .set({ createdAt: sql`now() - interval '46 seconds'` })
      .where(eq(rateLimitAttempts.subject, email));
    const mailsBefore = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
    const later = await call(() => emailVerification.action(args(request("/email-verification", { form: {}, jar }), contextFor(db))));
    expect(later.status).toBe(302);
    expect(later.headers.getSetCookie().join()).toContain("nika_toast");
    const mailsAfter = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
    expect(mailsAfter.length).toBe(mailsBefore.length + 1);
  });

  it("explains missing parameters, invalid and expired links", async () => {
    const missing = await call<{ state: string; message: string }>(() => confirmEmail.loader(args(request("/confirm-email"), contextFor(db))));
    expect(missing.status).toBe(400);
    expect(missing.data.message).toMatch(/^Parâmetros de confirmação não encontrados/);

    const invalid = await call<{ state: string }>(() =>
      confirmEmail.loader(args(request("/confirm-email?token_hash=nope&type=signup"), contextFor(db))),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.data.state).toBe("error");

    await setFlag("email_confirmation_required", true);
    const email = uniqueEmail();
    await doSignup(signupForm(email));
    const link = linkIn((await lastMailTo(email))!.textBody);
    await db
      .update(authTokens)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(authTokens.purpose, "email_verification"));
    const expired = await call<{ state: string }>(() => confirmEmail.loader(args(request(link.pathname + link.search), contextFor(db))));
    expect(expired.status).toBe(410);
    expect(expired.data.state).toBe("expired");
  });
});

describe("password reset", () => {
  it("answers the same for registered and unknown addresses, mailing only the registered", async () => {
    const email = uniqueEmail();
    await setFlag("email_confirmation_required", false);
    await doSignup(signupForm(email));
    const known = await call(() => forgotPassword.action(args(request("/forgot-password", { form: { email } }), contextFor(db))));
    const unknown = await call(() => forgotPassword.action(args(request("/forgot-password", { form: { email: "x" + email } }), contextFor(db))));
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect((known.data as { sent: boolean }).sent).toBe(true);
    expect((unknown.data as { sent: boolean }).sent).toBe(true);
    expect((await lastMailTo(email))?.kind).toBe("password_reset");
    expect(await lastMailTo("x" + email)).toBeUndefined();
  });

  it("sets a new password, ends every session and works once", async () => {
    const email = uniqueEmail();
    await setFlag("email_confirmation_required", false);
    const { jar: firstBrowser } = await doSignup(signupForm(email));
    const { jar: secondBrowser } = await doSignin(email, PASSWORD);
    await call(() => forgotPassword.action(args(request("/forgot-password", { form: { email } }), contextFor(db))));
    const link = linkIn((await lastMailTo(email))!.textBody);
    const token = link.searchParams.get("token")!;

    const page = await call<{ state: string }>(() => resetPassword.loader(args(request(link.pathname + link.search), contextFor(db))));
    expect(page.data.state).toBe("ready");

    const weak = await call<{ result: { error: Record<string, string[]> } }>(() =>
      resetPassword.action(
        args(request("/reset-password", { form: { token, password: "semnumero", confirmPassword: "semnumero" } }), contextFor(db)),
      ),
    );
    expect(weak.status).toBe(400);
    expect(weak.data.result.error.password).toEqual(["A senha deve conter pelo menos uma letra e um número."]);

    const done = await call(() =>
      resetPassword.action(
        args(request("/reset-password", { form: { token, password: "novaSenha9", confirmPassword: "novaSenha9" } }), contextFor(db)),
      ),
    );
    expect(done.location).toBe("/reset-password?done=1");
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    expect(await db.select().from(sessions).where(eq(sessions.userId, user!.id))).toHaveLength(0);
    expect(await getSessionUser(request("/", { jar: firstBrowser }), contextFor(db))).toBeNull();
    expect(await getSessionUser(request("/", { jar: secondBrowser }), contextFor(db))).toBeNull();

    expect((await doSignin(email, PASSWORD)).outcome.status).toBe(401);
    expect((await doSignin(email, "novaSenha9")).outcome.status).toBe(302);

    const reuse = await call<{ state: string }>(() => resetPassword.loader(args(request(link.pathname + link.search), contextFor(db))));
    expect(reuse.status).toBe(400);
    expect(reuse.data.state).toBe("error");
    const used = await db
      .select()
      .from(authTokens)
      .where(and(eq(authTokens.userId, user!.id), eq(authTokens.purpose, "password_reset")));
    expect(used.every((t) => t.usedAt !== null)).toBe(true);
  });
});

describe("dev mailbox", () => {
  it("lists the outbox in development and does not exist in production", async () => {
    const list = await call<{ messages: unknown[] }>(() => devMailbox.loader(args(request("/dev/mailbox"), contextFor(db))));
    expect(list.data.messages.length).toBeGreaterThan(0);
    const prod = await call(() => devMailbox.loader(args(request("/dev/mailbox"), contextFor(db, { APP_ENV: "production" }))));
    expect(prod.status).toBe(404);
  });
});
