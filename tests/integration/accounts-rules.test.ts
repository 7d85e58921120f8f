// Account workflow rules of accounts.server.ts that a broken line must not get past (issue 8, item 11,
// found by mutation testing), called as the auth pages call them: sign-up off, its limit of 3 per hour
// per address, the welcome e-mail, and links opened twice at the same moment (one wins, once).
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { confirmEmail, requestPasswordReset, resetPassword, secondsUntilResend, signUp } from "~/features/auth/accounts.server";
import { verifyCredentials } from "~/features/auth/authenticator.server";
import { passwordCredentials } from "~/features/auth/tables";
import { issueToken } from "~/features/auth/tokens.server";
import type { Database } from "~/server/db.server";
import { hashPassword } from "~/server/password";
import { appConfig, creditLedger, mailOutbox, rateLimitAttempts, sessions, users } from "~/server/schema";
import { contextFor, createTestDb } from "./harness";

let db: Database;
let n = 0;
const ORIGIN = "http://nika.test";
beforeAll(async () => {
  ({ db } = await createTestDb());
});

const input = (email: string) => ({ name: "Rita Lopes", email, whatsapp: "+55 11 98888-7777", password: "Ingles2025" });
const email = () => `contas${++n}@example.com`;
const usersWith = (address: string) => db.select().from(users).where(eq(users.email, address));
const mailsTo = (address: string, kind: string) =>
  db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, address), eq(mailOutbox.kind, kind)));
const attempts = (bucket: string, subject: string) =>
  db
    .select()
    .from(rateLimitAttempts)
    .where(and(eq(rateLimitAttempts.bucket, bucket), eq(rateLimitAttempts.subject, subject)));
async function withFlag<T>(key: string, value: boolean, run: () => Promise<T>): Promise<T> {
  const [before] = await db.select().from(appConfig).where(eq(appConfig.configKey, key));
  await db.update(appConfig).set({ configValue: value }).where(eq(appConfig.configKey, key));
  try {
    return await run();
  } finally {
    await db.update(appConfig).set({ configValue: before!.configValue }).where(eq(appConfig.configKey, key));
  }
}
async function newUser(password?: string) {
  const [user] = await db.insert(users).values({ name: "Conta", email: email(), emailConfirmedAt: new Date() }).returning();
  if (password) await db.insert(passwordCredentials).values({ userId: user!.id, passwordHash: await hashPassword(password) });
  return user!;
}

describe("sign-up", () => {
  it("with signup_enabled off: disabled, and nothing is created, counted or mailed", async () => {
    const address = email();
    expect(await withFlag("signup_enabled", false, () => signUp(contextFor(db), input(address), ORIGIN))).toEqual({ status: "disabled" });
    expect(await usersWith(address)).toEqual([]);
    expect(await attempts("signup", address)).toEqual([]);
    expect(await mailsTo(address, "welcome")).toEqual([]);
  });

  it("3 attempts per address per hour: the 4th is rate_limited for about an hour, uncounted; other addresses go on", async () => {
    const taken = (await newUser()).email;
    for (let i = 0; i < 3; i++) expect(await signUp(contextFor(db), input(taken), ORIGIN)).toEqual({ status: "email_exists" });
    const fourth = await signUp(contextFor(db), input(taken), ORIGIN);
    expect(fourth.status).toBe("rate_limited");
    const wait = (fourth as { retryAfterMs: number }).retryAfterMs;
    expect(wait).toBeGreaterThan(59 * 60_000);
    expect(wait).toBeLessThanOrEqual(60 * 60_000);
    expect(await attempts("signup", taken)).toHaveLength(3);
    expect((await signUp(contextFor(db), input(email()), ORIGIN)).status).toBe("created");
  });

  it("an address that has an account is email_exists: no second account, no credits, no e-mail", async () => {
    const existing = await newUser();
    expect(await signUp(contextFor(db), input(existing.email), ORIGIN)).toEqual({ status: "email_exists" });
    expect(await usersWith(existing.email)).toHaveLength(1);
    expect(await db.select().from(creditLedger).where(eq(creditLedger.userId, existing.id))).toEqual([]);
    expect(await mailsTo(existing.email, "welcome")).toEqual([]);
  });

  it("a new account gets its password, one welcome e-mail, and no confirmation e-mail when none is required", async () => {
    const address = email();
    const result = await withFlag("email_confirmation_required", false, () => signUp(contextFor(db), input(address), ORIGIN));
    expect(result).toMatchObject({ status: "created", emailConfirmationRequired: false });
    expect((await verifyCredentials(db, address, "Ingles2025")).id).toBe((result as { userId: string }).userId);
    const welcome = await mailsTo(address, "welcome");
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.textBody).toContain("Olá, Rita!");
    expect(await mailsTo(address, "email_verification")).toEqual([]);
    expect(await secondsUntilResend(contextFor(db), address)).toBe(0);
  });

  it("with confirmation required, the resend wait is at most 45 s", async () => {
    const address = email();
    await withFlag("email_confirmation_required", true, () => signUp(contextFor(db), input(address), ORIGIN));
    const seconds = await secondsUntilResend(contextFor(db), address);
    expect(seconds).toBeGreaterThan(40);
    expect(seconds).toBeLessThanOrEqual(45);
  });
});

describe("links opened twice at once", () => {
  it("a sign-up link confirms and signs in once; the other opening is a success without sign-in", async () => {
    const user = await newUser();
    await db.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, user.id));
    const token = await issueToken(db, user.id, "email_verification");
    const results = await Promise.all([confirmEmail(contextFor(db), token, "signup"), confirmEmail(contextFor(db), token, "signup")]);
    expect(results.map((r) => (r as { signIn: boolean }).signIn).sort()).toEqual([false, true]);
    expect(results.every((r) => r.status === "confirmed")).toBe(true);
  });

  it("a reset link sets the password once", async () => {
    const user = await newUser("Antiga123");
    await requestPasswordReset(contextFor(db), user.email, ORIGIN);
    const [mail] = await mailsTo(user.email, "password_reset");
    const token = new URL(mail!.textBody.match(/https?:\/\/\S+/)![0]).searchParams.get("token")!;
    const results = await Promise.all([resetPassword(contextFor(db), token, "Primeira123"), resetPassword(contextFor(db), token, "Segunda123")]);
    expect(results.sort()).toEqual([false, true]);
    const accepted = await Promise.all(
      ["Primeira123", "Segunda123"].map((password) =>
        verifyCredentials(db, user.email, password).then(
          () => password,
          () => null,
        ),
      ),
    );
    // exactly one of the two passwords is the account's now
    expect(accepted.filter(Boolean)).toHaveLength(1);
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
  });
});

describe("e-mail change links", () => {
  it("a change link that carries no new address is invalid and changes nothing", async () => {
    const user = await newUser();
    const token = await issueToken(db, user.id, "email_change");
    expect(await confirmEmail(contextFor(db), token, "email_change")).toEqual({ status: "invalid" });
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row!.email).toBe(user.email);
  });
});
