// Every limit of LIMITS against a burst of parallel requests through its route: the burst gets exactly what is left
// of the limit (claimAttempt), never "all of them, because each counted before any recorded".
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { offlineBundles } from "~/features/flashcards/tables";
import * as config from "~/routes/_app+/config._index";
import * as emailVerification from "~/routes/_auth+/email-verification";
import * as forgotPassword from "~/routes/_auth+/forgot-password";
import * as signin from "~/routes/_auth+/signin";
import * as signup from "~/routes/_auth+/signup";
import * as bundleRoute from "~/routes/resources+/offline.bundle";
import type { Database } from "~/server/db.server";
import { LIMITS, type Limit } from "~/server/rate-limit.server";
import { appConfig, mailOutbox, rateLimitAttempts } from "~/server/schema";
import { DEV_ACCOUNTS, seedDevelopment } from "../../scripts/lib/seed";
import { args, call, contextFor, CookieJar, createTestDb, insertLearner, request } from "./harness";

let db: Database;
let n = 0;
const uniqueEmail = () => `rajada${++n}-${Date.now().toString(36)}@example.com`;
const PASSWORD = "Ingles2024";

beforeAll(async () => {
  ({ db } = await createTestDb());
  await seedDevelopment(db, { allowance: 50 });
});

const burst = <T>(size: number, send: (i: number) => Promise<T>) => Promise.all(Array.from({ length: size }, (_, i) => send(i)));
const statuses = (outcomes: { status: number }[]) => outcomes.map((o) => o.status).sort((a, b) => a - b);
const countOf = (list: number[], status: number) => list.filter((s) => s === status).length;
const attemptsOf = async (limit: Limit, subject: string) =>
  (
    await db
      .select()
      .from(rateLimitAttempts)
      .where(and(eq(rateLimitAttempts.bucket, limit.bucket), eq(rateLimitAttempts.subject, subject)))
  ).length;
const mailsTo = async (address: string) => (await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, address))).length;
const download = (learner: { jar: CookieJar }, slug: string) =>
  call(() =>
    bundleRoute.action(
      args(
        new Request("http://nika.test/resources/offline/bundle", {
          method: "POST",
          headers: { "Content-Type": "application/json", Cookie: learner.jar.header() },
          body: JSON.stringify({ target: "category", slug }),
        }),
        contextFor(db),
      ),
    ),
  );
const setFlag = (key: string, value: boolean) => db.update(appConfig).set({ configValue: value }).where(eq(appConfig.configKey, key));

describe("a burst of parallel requests gets what is left of each limit", () => {
  it("sign-in: 40 wrong passwords for one address at once check 5; the other 35 are 429", async () => {
    const email = DEV_ACCOUNTS.learner.email;
    const outcomes = await burst(40, () =>
      call(() => signin.action(args(request("/signin", { form: { email, password: "Errada123" } }), contextFor(db)))),
    );
    const got = statuses(outcomes);
    expect(countOf(got, 401)).toBe(LIMITS.signin.max);
    expect(countOf(got, 429)).toBe(40 - LIMITS.signin.max);
    expect(await attemptsOf(LIMITS.signin, email)).toBe(LIMITS.signin.max);
    // The right password is refused too until the window passes, as for failures one at a time.
    const right = await call(() =>
      signin.action(args(request("/signin", { form: { email, password: DEV_ACCOUNTS.learner.password } }), contextFor(db))),
    );
    expect(right.status).toBe(429);
    await db.delete(rateLimitAttempts).where(eq(rateLimitAttempts.subject, email));
  });

  it("sign-up: 10 at once for one address are 3 attempts (one account), 7 are 429", async () => {
    const email = uniqueEmail();
    const form = { name: "Maria Silva", email, whatsapp: "+55 11 98888-7777", password: PASSWORD, confirmPassword: PASSWORD };
    const outcomes = await burst(10, () => call(() => signup.action(args(request("/signup", { form }), contextFor(db)))));
    const got = statuses(outcomes);
    expect(countOf(got, 429)).toBe(10 - LIMITS.signup.max);
    expect(await attemptsOf(LIMITS.signup, email)).toBe(LIMITS.signup.max);
  });

  it("password reset: 10 requests at once mail 3 links", async () => {
    const { email } = DEV_ACCOUNTS.admin;
    const before = await mailsTo(email);
    await burst(10, () => call(() => forgotPassword.action(args(request("/forgot-password", { form: { email } }), contextFor(db)))));
    expect((await mailsTo(email)) - before).toBe(LIMITS.passwordReset.max);
    expect(await attemptsOf(LIMITS.passwordReset, email)).toBe(LIMITS.passwordReset.max);
  });

  it("confirmation resend: 10 at once, 45 s after the last e-mail, send one", async () => {
    await setFlag("email_confirmation_required", true);
    try {
      const email = uniqueEmail();
      const jar = new CookieJar();
      const form = { name: "Maria Silva", email, whatsapp: "+55 11 98888-7777", password: PASSWORD, confirmPassword: PASSWORD };
      jar.absorb((await call(() => signup.action(args(request("/signup", { form, jar }), contextFor(db))))).headers);
      await db
        .update(rateLimitAttempts)
        .set({ createdAt: sql`now() - interval '46 seconds'` })
        .where(eq(rateLimitAttempts.subject, email));
      const before = await mailsTo(email);
      const outcomes = await burst(10, () =>
        call(() => emailVerification.action(args(request("/email-verification", { form: {}, jar }), contextFor(db)))),
      );
      expect(countOf(statuses(outcomes), 429)).toBe(9);
      expect((await mailsTo(email)) - before).toBe(1);
    } finally {
      await setFlag("email_confirmation_required", false);
    }
  });

  it("e-mail change: 10 confirmed changes at once mail at most 3 links", async () => {
    const learner = await insertLearner(db);
    const targets = Array.from({ length: 10 }, () => uniqueEmail());
    await burst(10, (i) =>
      call(() =>
        config.action(
          args(request("/config", { form: { intent: "email", email: targets[i]!, confirmed: "1" }, jar: learner.jar }), contextFor(db)),
        ),
      ),
    );
    const links = (await Promise.all(targets.map(mailsTo))).reduce((a, b) => a + b, 0);
    expect(links).toBeGreaterThanOrEqual(1);
    expect(links).toBeLessThanOrEqual(LIMITS.emailChange.max);
    expect(await attemptsOf(LIMITS.emailChange, learner.id)).toBe(links);
  });

  it("offline bundles: 40 downloads at once issue 30; 10 are 429 and store nothing", async () => {
    const learner = await insertLearner(db);
    const outcomes = await burst(40, () => download(learner, "animais"));
    const got = statuses(outcomes);
    expect(countOf(got, 200)).toBe(LIMITS.offlineBundle.max);
    expect(countOf(got, 429)).toBe(40 - LIMITS.offlineBundle.max);
    expect((await db.select().from(offlineBundles).where(eq(offlineBundles.userId, learner.id))).length).toBe(LIMITS.offlineBundle.max);
  });

  it("a refused bundle (unknown category) gives its claim back", async () => {
    const learner = await insertLearner(db);
    const refused = await download(learner, "nao-existe");
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await attemptsOf(LIMITS.offlineBundle, learner.id)).toBe(0);
  });
});
