// Unexpected failures of the auth forms (sign-in, sign-up, reset-password, resend verification): the database
// refuses a statement mid-way, and the form comes back with the spec's message (status 500, logged) instead of
// the error page, with nothing half-written. A database that cannot be reached at all is rethrown to the app's
// 503 screen instead (features/auth/failure.server.ts).
import { and, eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { isResetTokenValid } from "~/features/auth/accounts.server";
import { verifyCredentials } from "~/features/auth/authenticator.server";
import { FAILURE_MESSAGES } from "~/features/auth/failure.server";
import { authTokens, passwordCredentials } from "~/features/auth/tables";
import { issueToken } from "~/features/auth/tokens.server";
import * as emailVerification from "~/routes/_auth+/email-verification";
import * as resetPassword from "~/routes/_auth+/reset-password";
import * as signin from "~/routes/_auth+/signin";
import * as signup from "~/routes/_auth+/signup";
import { createSession } from "~/server/auth.server";
import { createRequestDb, isDatabaseUnavailable, type Database } from "~/server/db.server";
import { hashPassword } from "~/server/password";
import { LIMITS } from "~/server/rate-limit.server";
import { appConfig, mailOutbox, rateLimitAttempts, sessions, users } from "~/server/schema";
import { seedDevelopment } from "../../scripts/lib/seed";
import { freePort } from "./fake-upstream";
import { args, call, contextFor, CookieJar, createTestDb, request } from "./harness";

let db: Database;
let n = 0;
const uniqueEmail = () => `falha${++n}-${Date.now().toString(36)}@example.com`;
const PASSWORD = "Ingles2024";

type FormReply = { result: { error: Record<string, string[]>; initialValue?: Record<string, unknown> }; code: string | null };

beforeAll(async () => {
  ({ db } = await createTestDb());
  await seedDevelopment(db, { allowance: 50 });
});

let logged: ReturnType<typeof vi.spyOn>;
beforeAll(() => {
  logged = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => logged.mockClear());

async function setFlag(key: string, value: boolean) {
  await db.update(appConfig).set({ configValue: value }).where(eq(appConfig.configKey, key));
}

/** Runs `body` while the database refuses every `op` on `table` (a statement error, not an outage). */
async function refusing(table: string, op: "insert" | "insert or update", body: () => Promise<void>) {
  await db.execute(
    sql.raw(`create or replace function refuse_write() returns trigger language plpgsql as $$
      begin raise exception 'write refused on %', tg_table_name; end $$`),
  );
  await db.execute(sql.raw(`create trigger refuse_write before ${op} on ${table} for each row execute function refuse_write()`));
  try {
    await body();
  } finally {
    await db.execute(sql.raw(`drop trigger refuse_write on ${table}`));
  }
}

async function newAccount(email = uniqueEmail()) {
  const [user] = await db.insert(users).values({ name: "Conta", email, emailConfirmedAt: new Date() }).returning();
  await db.insert(passwordCredentials).values({ userId: user!.id, passwordHash: await hashPassword(PASSWORD) });
  return user!;
}

const signIn = (email: string, password: string) =>
  call<FormReply>(() => signin.action(args(request("/signin", { form: { email, password } }), contextFor(db))));

const signupForm = (email: string) => ({
  name: "Maria Silva",
  email,
  whatsapp: "+55 11 98888-7777",
  password: PASSWORD,
  confirmPassword: PASSWORD,
});
const signUp = (email: string, jar = new CookieJar()) =>
  call<FormReply>(() => signup.action(args(request("/signup", { form: signupForm(email), jar }), contextFor(db)))).then((outcome) => {
    jar.absorb(outcome.headers);
    return outcome;
  });

const sessionsOf = (userId: string) => db.select().from(sessions).where(eq(sessions.userId, userId));
const setsSession = (headers: Headers) => headers.getSetCookie().some((line) => line.startsWith("nika_session=") && !/Max-Age=0/i.test(line));

function expectFormFailure(outcome: { status: number; data: FormReply }, message: string) {
  expect(outcome.status).toBe(500);
  expect(outcome.data.result.error[""]).toEqual([message]);
  expect(outcome.data.result.initialValue?.password).toBeUndefined(); // never sent back
  expect(logged).toHaveBeenCalled();
}

describe("sign-in", () => {
  it("credentials that cannot be checked: 'Erro ao fazer login. Tente novamente.', the e-mail kept, no session", async () => {
    const user = await newAccount();
    await db.execute(sql`alter table password_credentials rename to password_credentials_away`);
    let outcome;
    try {
      outcome = await signIn(user.email, PASSWORD);
    } finally {
      await db.execute(sql`alter table password_credentials_away rename to password_credentials`);
    }
    expectFormFailure(outcome, FAILURE_MESSAGES.signin);
    expect(outcome.data.code).toBe("unexpected");
    expect(outcome.data.result.initialValue?.email).toBe(user.email);
    expect(setsSession(outcome.headers)).toBe(false);
    expect(await sessionsOf(user.id)).toEqual([]);
  });

  it("a failure after the credentials were accepted: 'Erro inesperado. Tente novamente.', no session, the failed attempts still counted", async () => {
    const user = await newAccount();
    expect((await signIn(user.email, "Errada123")).status).toBe(401);
    await refusing("sessions", "insert", async () => {
      const outcome = await signIn(user.email, PASSWORD);
      expectFormFailure(outcome, FAILURE_MESSAGES.unexpected);
      expect(setsSession(outcome.headers)).toBe(false);
    });
    expect(await sessionsOf(user.id)).toEqual([]);
    // Clearing the attempts and opening the session are one write: neither happened.
    const attempts = await db
      .select()
      .from(rateLimitAttempts)
      .where(and(eq(rateLimitAttempts.bucket, LIMITS.signin.bucket), eq(rateLimitAttempts.subject, user.email)));
    expect(attempts).toHaveLength(1);
    expect((await signIn(user.email, PASSWORD)).status).toBe(302);
  });
});

describe("sign-up: 'Erro ao criar conta. Tente novamente.' and no account", () => {
  for (const [label, confirmation, table] of [
    ["its first credits cannot be written", false, "credit_ledger"],
    ["its session cannot be opened", false, "sessions"],
    ["its confirmation link cannot be stored", true, "auth_tokens"],
  ] as const) {
    it(label, async () => {
      await setFlag("email_confirmation_required", confirmation);
      const email = uniqueEmail();
      await refusing(table, "insert", async () => {
        const outcome = await signUp(email);
        expectFormFailure(outcome, FAILURE_MESSAGES.signup);
        expect(outcome.data.result.initialValue?.email).toBe(email);
        expect(setsSession(outcome.headers)).toBe(false);
      });
      expect(await db.select().from(users).where(eq(users.email, email))).toEqual([]);
      expect(await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).toEqual([]);
      // Nothing stands in the way of trying again.
      const again = await signUp(email);
      expect(again.status).toBe(302);
      expect(again.location).toBe(confirmation ? "/email-verification" : "/");
    });
  }
});

describe("reset-password", () => {
  it("a password that cannot be stored: 'Erro ao atualizar senha. Tente novamente.'; the link, the password and the sessions stay", async () => {
    const user = await newAccount();
    await createSession(contextFor(db), user.id, request("/"));
    const token = await issueToken(db, user.id, "password_reset");
    const form = { token, password: "NovaSenha9", confirmPassword: "NovaSenha9" };
    const reset = () => call<FormReply>(() => resetPassword.action(args(request("/reset-password", { form }), contextFor(db))));
    await refusing("password_credentials", "insert or update", async () => {
      expectFormFailure(await reset(), FAILURE_MESSAGES.resetPassword);
    });
    expect(await isResetTokenValid(contextFor(db), token)).toBe(true);
    expect((await verifyCredentials(db, user.email, PASSWORD)).id).toBe(user.id);
    expect(await sessionsOf(user.id)).toHaveLength(1);
    expect((await reset()).location).toBe("/reset-password?done=1");
  });
});

describe("resend verification", () => {
  it("a link that cannot be stored: 'Erro ao reenviar email de verificação. Tente novamente.', the button back at once, the last link still valid", async () => {
    await setFlag("email_confirmation_required", true);
    const email = uniqueEmail();
    const jar = new CookieJar();
    expect((await signUp(email, jar)).location).toBe("/email-verification");
    const [first] = await db.select().from(authTokens).innerJoin(users, eq(users.id, authTokens.userId)).where(eq(users.email, email));
    await db
      .update(rateLimitAttempts)
      .set({ createdAt: sql`now() - interval '46 seconds'` })
      .where(eq(rateLimitAttempts.subject, email));
    const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));

    await refusing("auth_tokens", "insert", async () => {
      const outcome = await call<{ error: string; waitSeconds: number }>(() =>
        emailVerification.action(args(request("/email-verification", { form: {}, jar }), contextFor(db))),
      );
      expect(outcome.status).toBe(500);
      expect(outcome.data).toEqual({ error: FAILURE_MESSAGES.resendVerification, waitSeconds: 0 });
      expect(logged).toHaveBeenCalled();
    });
    // Voiding the older link and storing the new one are one write: the e-mail already sent still works.
    const [still] = await db.select().from(authTokens).where(eq(authTokens.id, first!.auth_tokens.id));
    expect(still!.usedAt).toBeNull();
    expect(await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).toHaveLength(mails.length);
  });
});

describe("a database that cannot be reached", () => {
  it("is not the form's failure: each action rethrows it for the app-wide 503 screen", async () => {
    const unreachable = createRequestDb({ DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${await freePort()}/postgres` });
    const context = () => contextFor(unreachable.db);
    const jar = new CookieJar();
    await setFlag("email_confirmation_required", true);
    expect((await signUp(uniqueEmail(), jar)).location).toBe("/email-verification"); // the pending-address cookie
    try {
      const actions = [
        () => signin.action(args(request("/signin", { form: { email: uniqueEmail(), password: PASSWORD } }), context())),
        () => signup.action(args(request("/signup", { form: signupForm(uniqueEmail()) }), context())),
        () =>
          resetPassword.action(
            args(request("/reset-password", { form: { token: "x", password: "NovaSenha9", confirmPassword: "NovaSenha9" } }), context()),
          ),
        () => emailVerification.action(args(request("/email-verification", { form: {}, jar }), context())),
      ];
      for (const action of actions) {
        let thrown: unknown = null;
        try {
          await action();
        } catch (error) {
          thrown = error;
        }
        expect(isDatabaseUnavailable(thrown)).toBe(true);
      }
      expect(logged).not.toHaveBeenCalled();
    } finally {
      await unreachable.close();
    }
  });
});
