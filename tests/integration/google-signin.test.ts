// Google sign-in (decision 0017) through its routes' loaders and actions, against the fake upstream speaking
// Google's OAuth2/OIDC protocol (tests/fake-upstream/google.mjs): the browser's trip is replayed by hand —
// /auth/google → the consent page (GET, then its form POSTed) → /auth/google/callback — with one cookie jar.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOOGLE_ERROR_MESSAGE, GOOGLE_SIGNUP_DISABLED } from "~/features/auth/google.server";
import { oauthAccounts, passwordCredentials } from "~/features/auth/tables";
import * as googleStart from "~/routes/_auth+/auth.google";
import * as googleCallback from "~/routes/_auth+/auth.google_.callback";
import * as googleWhatsapp from "~/routes/_auth+/auth.google_.whatsapp";
import * as signin from "~/routes/_auth+/signin";
import { createSession, getSessionUser } from "~/server/auth.server";
import { creditPeriod } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import type { Env } from "~/server/env";
import { appConfig, creditLedger, mailOutbox, sessions, users } from "~/server/schema";
import { seedDevelopment } from "../../scripts/lib/seed";
import { freePort, startFakeUpstream } from "./fake-upstream";
import { args, call, contextFor, CookieJar, createTestDb, request, toastOf, type Outcome } from "./harness";

let db: Database;
let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
let counter = 0;
const uniqueEmail = (label = "google") => `${label}-${++counter}-${Date.now().toString(36)}@example.com`;

const googleEnv = (): Partial<Env> => ({
  GOOGLE_CLIENT_ID: "test-google-client",
  GOOGLE_CLIENT_SECRET: "test-google-secret",
  GOOGLE_AUTHORIZATION_URL: `${fake.url}/google/o/oauth2/v2/auth`,
  GOOGLE_TOKEN_URL: `${fake.url}/google/token`,
  GOOGLE_USERINFO_URL: `${fake.url}/google/v1/userinfo`,
});
const ctx = (env: Partial<Env> = {}) => contextFor(db, { ...googleEnv(), ...env });

async function setFlag(key: string, value: boolean) {
  await db.update(appConfig).set({ configValue: value }).where(eq(appConfig.configKey, key));
}

/** Runs `fn` with a flag switched, putting it back afterwards. */
async function withFlag<T>(key: string, value: boolean, fn: () => Promise<T>): Promise<T> {
  await setFlag(key, value);
  try {
    return await fn();
  } finally {
    await setFlag(key, !value);
  }
}

type Identity = { email: string; name?: string; verified?: boolean; sub?: string; decision?: "allow" | "deny" };

/** /auth/google: the redirect to the consent page (the jar keeps the state cookie). */
async function start(jar: CookieJar, query = "", env: Partial<Env> = {}) {
  const outcome = await call(() => googleStart.loader(args(request(`/auth/google${query}`, { jar }), ctx(env))));
  jar.absorb(outcome.headers);
  return outcome;
}

/** The consent page: opened, then its form sent as the person chose. Returns where Google sends the browser back. */
async function consent(authorizeUrl: string, identity: Identity): Promise<URL> {
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const requestId = html.match(/name="request" value="([^"]+)"/)?.[1];
  expect(requestId).toBeTruthy();
  const form = new URLSearchParams({
    request: requestId!,
    email: identity.email,
    name: identity.name ?? "Aluna Google",
    sub: identity.sub ?? "",
  });
  if (identity.verified !== false) form.set("email_verified", "true");
  form.set("decision", identity.decision ?? "allow");
  const answer = await fetch(`${fake.url}/google/o/oauth2/v2/auth/consent`, { method: "POST", body: form, redirect: "manual" });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get("Location")!);
}

/** /auth/google/callback with what Google put in the URL. */
async function callback(back: URL, jar: CookieJar, env: Partial<Env> = {}) {
  const outcome = await call(() => googleCallback.loader(args(request(back.pathname + back.search, { jar }), ctx(env))));
  jar.absorb(outcome.headers);
  return outcome;
}

/** The whole trip; `jar` is the browser's. */
async function signInWithGoogle(identity: Identity, options: { jar?: CookieJar; query?: string } = {}) {
  const jar = options.jar ?? new CookieJar();
  const started = await start(jar, options.query);
  expect(started.status).toBe(302);
  const back = await consent(started.location!, identity);
  const outcome = await callback(back, jar);
  return { outcome, jar, back };
}

const googleSub = async (email: string) =>
  ((await (await fetch(`${fake.url}/__google/sub?email=${encodeURIComponent(email)}`)).json()) as { sub: string }).sub;
const signedInAs = async (jar: CookieJar) => (await getSessionUser(request("/", { jar }), contextFor(db)))?.email ?? null;
const linksOf = (userId: string) => db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, userId));
const userByEmail = async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0];
const sessionCount = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(sessions))[0]!.n;

async function expectGoogleError(outcome: Outcome, description?: string) {
  expect(outcome.status).toBe(302);
  expect(outcome.location).toBe("/signin");
  expect(await toastOf(outcome)).toEqual({ type: "error", title: GOOGLE_ERROR_MESSAGE, ...(description ? { description } : {}) });
  const jar = new CookieJar();
  jar.absorb(outcome.headers);
  expect(jar.has("nika_session")).toBe(false);
}

/** A confirmed account with a password, a WhatsApp number and a session (`jar`). */
async function existingAccount(options: { accountType?: "free" | "blocked"; phone?: string | null; confirmed?: boolean } = {}) {
  const email = uniqueEmail("existente");
  const [user] = await db
    .insert(users)
    .values({
      name: "Conta Existente",
      email,
      phoneNumber: options.phone === undefined ? "+55 11 97777-6666" : options.phone,
      monthlyCredits: 12,
      creditsPeriod: creditPeriod(new Date()),
      emailConfirmedAt: options.confirmed === false ? null : new Date(),
      accountType: options.accountType ?? "free",
    })
    .returning();
  await db.insert(passwordCredentials).values({ userId: user!.id, passwordHash: "pbkdf2-sha256$100000$AAAA$AAAA" });
  const jar = new CookieJar();
  jar.absorb(new Headers({ "Set-Cookie": await createSession(contextFor(db), user!.id, request("/")) }));
  return { user: user!, jar };
}

beforeAll(async () => {
  ({ db } = await createTestDb());
  await seedDevelopment(db, { allowance: 50 });
  fake = await startFakeUpstream(await freePort());
});
afterAll(() => fake?.stop());

describe("the trip to Google", () => {
  it("redirects to the authorization endpoint with PKCE S256, state, the scopes and the callback, keeping state in an httpOnly cookie", async () => {
    const jar = new CookieJar();
    const outcome = await start(jar);
    expect(outcome.status).toBe(302);
    const to = new URL(outcome.location!);
    expect(`${to.origin}${to.pathname}`).toBe(`${fake.url}/google/o/oauth2/v2/auth`);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "test-google-client",
      redirect_uri: "http://nika.test/auth/google/callback",
      scope: "openid email profile",
      code_challenge_method: "S256",
    });
    expect(to.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(to.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stateCookie = outcome.headers.getSetCookie().find((line) => line.startsWith("nika_oauth_google:"))!;
    expect(stateCookie).toContain(`state=${to.searchParams.get("state")}`);
    expect(stateCookie).toMatch(/HttpOnly/);
    expect(stateCookie).toMatch(/SameSite=Lax/);
    expect(stateCookie).not.toMatch(/Secure/);
  });

  it("marks the state cookie Secure in production and builds the redirect URI from APP_URL", async () => {
    const outcome = await start(new CookieJar(), "", { APP_ENV: "production", APP_URL: "https://nika.example" });
    expect(new URL(outcome.location!).searchParams.get("redirect_uri")).toBe("https://nika.example/auth/google/callback");
    const cookies = outcome.headers.getSetCookie();
    expect(cookies.find((line) => line.startsWith("nika_oauth_google:"))).toMatch(/; Secure/);
    expect(cookies.find((line) => line.startsWith("nika_google_return="))).toMatch(/; Secure/);
  });

  it("sends a signed-in visitor home instead", async () => {
    const { jar } = await existingAccount();
    const outcome = await start(jar);
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/");
  });

  it("redeems the code with HTTP Basic client authentication and the PKCE verifier, then reads userinfo with the access token", async () => {
    await fetch(`${fake.url}/__google/reset`, { method: "POST" });
    const { outcome } = await signInWithGoogle({ email: uniqueEmail() });
    expect(outcome.status).toBe(302);
    const seen = (await (await fetch(`${fake.url}/__google/requests`)).json()) as {
      path: string;
      clientAuth?: string;
      body?: Record<string, string>;
      bearer?: boolean;
    }[];
    expect(seen.map((r) => r.path)).toEqual(["/google/token", "/google/v1/userinfo"]);
    expect(seen[0]).toMatchObject({
      clientAuth: "basic",
      body: { grant_type: "authorization_code", redirect_uri: "http://nika.test/auth/google/callback" },
    });
    expect(seen[0]!.body!.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(seen[1]!.bearer).toBe(true);
  });
});

describe("accounts", () => {
  it("signs an existing account in by its verified e-mail and records the link (provider, sub, e-mail)", async () => {
    const { user } = await existingAccount();
    const { outcome, jar } = await signInWithGoogle({ email: user.email.toUpperCase(), name: "Outro Nome" });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/"); // has a WhatsApp number: not asked
    expect(await toastOf(outcome)).toEqual({ type: "success", title: "Login realizado com sucesso!" });
    expect(await signedInAs(jar)).toBe(user.email);

    const links = await linksOf(user.id);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ provider: "google", subject: await googleSub(user.email), email: user.email });
    // Nothing else changed: no second account, the name and the password stay.
    expect(
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(users)
          .where(eq(users.email, user.email))
      )[0]!.n,
    ).toBe(1);
    expect((await userByEmail(user.email))!.name).toBe("Conta Existente");
    expect(await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, user.id))).toHaveLength(1);
  });

  it("finds the account by its link (sub) next time, even after the e-mail changed at Google", async () => {
    const { user } = await existingAccount();
    const sub = await googleSub(user.email);
    await signInWithGoogle({ email: user.email });
    const changed = uniqueEmail("novo-endereco");
    const { outcome, jar } = await signInWithGoogle({ email: changed, sub });
    expect(outcome.location).toBe("/");
    expect(await signedInAs(jar)).toBe(user.email);
    expect(await userByEmail(changed)).toBeUndefined();
    const links = await linksOf(user.id);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ subject: sub, email: changed });
  });

  it("creates a new account: Google's name, e-mail confirmed, no password, this month's credits, the link, a welcome e-mail", async () => {
    const email = uniqueEmail("nova");
    const { outcome, jar } = await signInWithGoogle({ email, name: "  Joana   Souza  " });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/auth/google/whatsapp?redirectTo=%2F");
    expect(await toastOf(outcome)).toEqual({ type: "success", title: "Login realizado com sucesso!" });
    expect(await signedInAs(jar)).toBe(email);

    const user = (await userByEmail(email))!;
    expect(user).toMatchObject({
      name: "Joana Souza",
      phoneNumber: null,
      monthlyCredits: 50,
      accountType: "free",
      creditsPeriod: creditPeriod(new Date()),
    });
    expect(user.emailConfirmedAt).not.toBeNull();
    expect(await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, user.id))).toHaveLength(0);
    expect(
      await db.select({ delta: creditLedger.delta, reason: creditLedger.reason }).from(creditLedger).where(eq(creditLedger.userId, user.id)),
    ).toEqual([{ delta: 50, reason: "signup" }]);
    expect(await linksOf(user.id)).toMatchObject([{ provider: "google", subject: await googleSub(email), email }]);
    expect((await db.select({ kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.toAddress, email))).map((m) => m.kind)).toEqual([
      "welcome",
    ]);
  });

  it("names a new account after its e-mail when Google gives no name", async () => {
    const email = uniqueEmail("semnome");
    await signInWithGoogle({ email, name: "" });
    expect((await userByEmail(email))!.name).toBe(email.split("@")[0]);
  });

  it("refuses a new account while signup_enabled is off, with the message on /signin, and creates nothing", async () => {
    const email = uniqueEmail("fechado");
    const { outcome } = await withFlag("signup_enabled", false, () => signInWithGoogle({ email }));
    await expectGoogleError(outcome, GOOGLE_SIGNUP_DISABLED);
    expect(await userByEmail(email)).toBeUndefined();
    expect(await db.select().from(oauthAccounts).where(eq(oauthAccounts.email, email))).toHaveLength(0);
  });

  it("still signs existing accounts in while signup_enabled is off", async () => {
    const { user } = await existingAccount();
    const { outcome, jar } = await withFlag("signup_enabled", false, () => signInWithGoogle({ email: user.email }));
    expect(outcome.location).toBe("/");
    expect(await signedInAs(jar)).toBe(user.email);
  });

  it("sends a blocked account to /blocked", async () => {
    const { user } = await existingAccount({ accountType: "blocked" });
    const { outcome, jar } = await signInWithGoogle({ email: user.email });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/blocked");
    expect(await signedInAs(jar)).toBe(user.email); // the /blocked page offers "Sair"
  });

  it("confirms an unconfirmed account it links to and drops the password and sessions nobody proved they own", async () => {
    const { user, jar: oldSession } = await existingAccount({ confirmed: false });
    const { outcome, jar } = await signInWithGoogle({ email: user.email });
    expect(outcome.location).toBe("/");
    expect(await signedInAs(jar)).toBe(user.email);
    expect(await signedInAs(oldSession)).toBeNull();
    expect((await userByEmail(user.email))!.emailConfirmedAt).not.toBeNull();
    expect(await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, user.id))).toHaveLength(0);
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
  });

  it("keeps redirectTo (a same-site path only)", async () => {
    const { user } = await existingAccount();
    expect((await signInWithGoogle({ email: user.email }, { query: "?redirectTo=%2Flabs%3Fx%3D1" })).outcome.location).toBe("/labs?x=1");
    expect((await signInWithGoogle({ email: user.email }, { query: "?redirectTo=%2F%2Fevil.example" })).outcome.location).toBe("/");
    expect((await signInWithGoogle({ email: user.email }, { query: "?redirectTo=https%3A%2F%2Fevil.example" })).outcome.location).toBe("/");
  });
});

describe("failures show 'Erro ao fazer login com Google. Tente novamente.' on /signin", () => {
  it("an unverified Google e-mail (even one that matches an account)", async () => {
    const email = uniqueEmail("naoverificado");
    await expectGoogleError((await signInWithGoogle({ email, verified: false })).outcome);
    expect(await userByEmail(email)).toBeUndefined();

    const { user } = await existingAccount();
    await expectGoogleError((await signInWithGoogle({ email: user.email, verified: false })).outcome);
    expect(await linksOf(user.id)).toHaveLength(0);
  });

  it("a state that is not the one in the cookie, a missing state, no state cookie", async () => {
    const email = uniqueEmail("estado");
    const jar = new CookieJar();
    const started = await start(jar);
    const back = await consent(started.location!, { email });

    const forged = new URL(back);
    forged.searchParams.set("state", "estado-forjado-0123456789");
    await expectGoogleError(await callback(forged, jar));

    const missing = new URL(back);
    missing.searchParams.delete("state");
    await expectGoogleError(await callback(missing, jar));

    await expectGoogleError(await callback(back, new CookieJar()));
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("the same callback URL replayed (the state cookie is spent, the code single-use)", async () => {
    const email = uniqueEmail("replay");
    const { outcome, jar, back } = await signInWithGoogle({ email });
    expect(outcome.location).toMatch(/^\/auth\/google\/whatsapp/);
    expect(outcome.headers.getSetCookie().some((line) => /^nika_oauth_google:[^=]+=; Max-Age=0/.test(line))).toBe(true);
    const replayJar = new CookieJar();
    replayJar.absorb(
      new Headers({ "Set-Cookie": `nika_oauth_google:x=state=${back.searchParams.get("state")}&${back.searchParams.get("state")}=v` }),
    );
    await expectGoogleError(await callback(back, replayJar)); // even with a forged cookie: Google refuses the used code
    expect(jar.has("nika_session")).toBe(true);
  });

  it("a denied consent (error=access_denied)", async () => {
    const email = uniqueEmail("negado");
    const { outcome, back } = await signInWithGoogle({ email, decision: "deny" });
    expect(back.searchParams.get("error")).toBe("access_denied");
    await expectGoogleError(outcome);
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("a token endpoint error", async () => {
    await fetch(`${fake.url}/__google/next?fail=token`, { method: "POST" });
    const email = uniqueEmail("token");
    await expectGoogleError((await signInWithGoogle({ email })).outcome);
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("a wrong client secret (invalid_client)", async () => {
    const email = uniqueEmail("segredo");
    const jar = new CookieJar();
    const started = await start(jar);
    const back = await consent(started.location!, { email });
    await expectGoogleError(await callback(back, jar, { GOOGLE_CLIENT_SECRET: "errado" }));
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("an ID token issued to another client", async () => {
    await fetch(`${fake.url}/__google/next?fail=audience`, { method: "POST" });
    const email = uniqueEmail("audiencia");
    await expectGoogleError((await signInWithGoogle({ email })).outcome);
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("a userinfo error", async () => {
    await fetch(`${fake.url}/__google/next?fail=userinfo`, { method: "POST" });
    const email = uniqueEmail("userinfo");
    await expectGoogleError((await signInWithGoogle({ email })).outcome);
    expect(await userByEmail(email)).toBeUndefined();
  });

  // Answers a client must check itself (Google's "validating an ID token"; OIDC Core §5.3.2 for userinfo's sub).
  for (const [fail, label] of [
    ["issuer", "an ID token from another issuer (iss)"],
    ["expired", "an expired ID token (exp)"],
    ["sub", "a userinfo answer about another account (its sub differs from the ID token's)"],
  ] as const) {
    it(`${label}: nothing is stored`, async () => {
      const email = uniqueEmail(fail);
      const sessionsBefore = await sessionCount();
      await fetch(`${fake.url}/__google/next?fail=${fail}`, { method: "POST" });
      await expectGoogleError((await signInWithGoogle({ email })).outcome);
      expect(await userByEmail(email)).toBeUndefined();
      expect(await db.select().from(oauthAccounts).where(eq(oauthAccounts.email, email))).toEqual([]);
      expect(await sessionCount()).toBe(sessionsBefore);
    });
  }
});

describe("availability", () => {
  const whatsappGet = (jar: CookieJar, env: Partial<Env>) =>
    call(() => googleWhatsapp.loader(args(request("/auth/google/whatsapp", { jar }), ctx(env))));

  it("not configured (client id or secret missing): no button, and the routes answer 404", async () => {
    for (const env of [{ GOOGLE_CLIENT_ID: undefined }, { GOOGLE_CLIENT_SECRET: undefined }]) {
      const page = await call<{ googleEnabled: boolean }>(() => signin.loader(args(request("/signin"), ctx(env))));
      expect(page.data.googleEnabled).toBe(false);
      // The app's one refusal shape, like any other 404.
      const missing = await start(new CookieJar(), "", env);
      expect(missing.status).toBe(404);
      expect(missing.data).toEqual({ error: "Página não encontrada", code: "not_found" });
      expect((await call(() => googleCallback.loader(args(request("/auth/google/callback?code=x&state=y"), ctx(env))))).status).toBe(404);
      const { jar } = await existingAccount({ phone: null });
      expect((await whatsappGet(jar, env)).status).toBe(404);
    }
    const page = await call<{ googleEnabled: boolean }>(() => signin.loader(args(request("/signin"), ctx())));
    expect(page.data.googleEnabled).toBe(true);
  });

  it("flag enable_account_creation_on_signin off: no button, and the routes answer 404 (a callback in flight creates nothing)", async () => {
    const email = uniqueEmail("flag");
    const jar = new CookieJar();
    const started = await start(jar);
    const back = await consent(started.location!, { email });
    const { jar: phoneless } = await existingAccount({ phone: null });
    await withFlag("enable_account_creation_on_signin", false, async () => {
      const page = await call<{ googleEnabled: boolean }>(() => signin.loader(args(request("/signin"), ctx())));
      expect(page.data.googleEnabled).toBe(false);
      expect((await start(new CookieJar())).status).toBe(404);
      expect((await callback(back, jar)).status).toBe(404);
      expect((await whatsappGet(phoneless, {})).status).toBe(404);
    });
    expect(await userByEmail(email)).toBeUndefined();
  });
});

describe("the WhatsApp question", () => {
  const whatsappPage = (jar: CookieJar, query = "") =>
    call<{ redirectTo: string }>(() => googleWhatsapp.loader(args(request(`/auth/google/whatsapp${query}`, { jar }), ctx())));
  const answer = (jar: CookieJar, form: Record<string, string>) =>
    call<{ result: { error?: Record<string, string[]> } }>(() =>
      googleWhatsapp.action(args(request("/auth/google/whatsapp", { jar, form }), ctx())),
    );

  it("is asked after the first sign-in of an account without a number, saved with the account tab's rules, then never again", async () => {
    const email = uniqueEmail("zap");
    const first = await signInWithGoogle({ email }, { query: "?redirectTo=%2Flabs" });
    expect(first.outcome.location).toBe("/auth/google/whatsapp?redirectTo=%2Flabs");
    expect((await whatsappPage(first.jar, "?redirectTo=%2Flabs")).data).toMatchObject({ redirectTo: "/labs" });

    const invalid = await answer(first.jar, { intent: "whatsapp", whatsapp: "abc", redirectTo: "/labs" });
    expect(invalid.status).toBe(400);
    expect(invalid.data.result.error?.whatsapp).toEqual(["WhatsApp inválido"]);
    const blank = await answer(first.jar, { intent: "whatsapp", whatsapp: "  ", redirectTo: "/labs" });
    expect(blank.data.result.error?.whatsapp).toEqual(["WhatsApp é obrigatório"]);
    expect((await userByEmail(email))!.phoneNumber).toBeNull();

    const saved = await answer(first.jar, { intent: "whatsapp", whatsapp: " +55 21 98888-1234 ", redirectTo: "/labs" });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/labs");
    expect(await toastOf(saved)).toEqual({ type: "success", title: "WhatsApp salvo" });
    expect((await userByEmail(email))!.phoneNumber).toBe("+55 21 98888-1234");

    // Answered: the page goes straight on, and the next Google sign-in does not ask.
    const again = await whatsappPage(first.jar, "?redirectTo=%2Flabs");
    expect([again.status, again.location]).toEqual([302, "/labs"]);
    expect((await signInWithGoogle({ email })).outcome.location).toBe("/");
  });

  it("can be skipped (Pular): nothing is saved and it is not asked again", async () => {
    const email = uniqueEmail("pular");
    const first = await signInWithGoogle({ email });
    expect(first.outcome.location).toBe("/auth/google/whatsapp?redirectTo=%2F");
    const skipped = await answer(first.jar, { intent: "skip", whatsapp: "", redirectTo: "/" });
    expect([skipped.status, skipped.location]).toEqual([302, "/"]);
    expect((await userByEmail(email))!.phoneNumber).toBeNull();
    expect((await signInWithGoogle({ email })).outcome.location).toBe("/");
  });

  it("is asked once on the first Google sign-in into an existing account without a number", async () => {
    const { user } = await existingAccount({ phone: null });
    expect((await signInWithGoogle({ email: user.email })).outcome.location).toBe("/auth/google/whatsapp?redirectTo=%2F");
    expect((await signInWithGoogle({ email: user.email })).outcome.location).toBe("/");
  });

  it("never overwrites a number, refuses an unknown intent, and is only for signed-in users", async () => {
    const { user, jar } = await existingAccount();
    const kept = await answer(jar, { intent: "whatsapp", whatsapp: "+55 11 91234-5678" });
    expect([kept.status, kept.location]).toEqual([302, "/"]);
    expect((await userByEmail(user.email))!.phoneNumber).toBe("+55 11 97777-6666");
    expect((await answer(jar, { intent: "apagar" })).status).toBe(400);

    const anonymous = await whatsappPage(new CookieJar());
    expect([anonymous.status, anonymous.location]).toEqual([302, "/signin?redirectTo=%2Fauth%2Fgoogle%2Fwhatsapp"]);
  });
});

describe("the fake speaks Google's token endpoint", () => {
  const tokenRequest = (body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${fake.url}/google/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(body),
    });

  it("refuses a wrong client, a wrong verifier and a reused code like Google", async () => {
    const jar = new CookieJar();
    const started = await start(jar);
    const back = await consent(started.location!, { email: uniqueEmail("fake") });
    const code = back.searchParams.get("code")!;
    const basic = `Basic ${btoa("test-google-client:test-google-secret")}`;

    const badClient = await tokenRequest({ grant_type: "authorization_code", code, client_id: "test-google-client", client_secret: "x" });
    expect([badClient.status, ((await badClient.json()) as { error: string }).error]).toEqual([401, "invalid_client"]);
    const badVerifier = await tokenRequest(
      { grant_type: "authorization_code", code, redirect_uri: "http://nika.test/auth/google/callback", code_verifier: "a".repeat(43) },
      { Authorization: basic },
    );
    expect([badVerifier.status, await badVerifier.json()]).toEqual([
      400,
      { error: "invalid_grant", error_description: "Invalid code verifier." },
    ]);
    const reused = await tokenRequest({ grant_type: "authorization_code", code, code_verifier: "a".repeat(43) }, { Authorization: basic });
    expect([reused.status, ((await reused.json()) as { error: string }).error]).toEqual([400, "invalid_grant"]);
  });

  it("refuses an authorization request without PKCE on its error page, never redirecting", async () => {
    const jar = new CookieJar();
    const started = new URL((await start(jar)).location!);
    started.searchParams.delete("code_challenge");
    const page = await fetch(started, { redirect: "manual" });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("Erro 400: invalid_request");
  });
});
