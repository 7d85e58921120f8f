// Everything the end-to-end journeys share. Specs import `test` and `expect` from here, not from
// @playwright/test:
//  • `test` has account fixtures in the manner of the Epic Stack: `learner`, `admin` and `blocked` are
//    fresh users INSERTed into the database together with a session row, whose cookie (signed exactly
//    as the app signs it) is put on the test's browser context, so `page` starts signed in without
//    going through /signin (only accounts.spec.ts uses the form). `createAccount` makes more accounts,
//    `pageAs` opens another browser signed in as one, `createCourse` arranges a module with lessons.
//  • `expect` has `toHaveRedirectedTo(path)` and `toShowToast(title)`.
//  • database access (`withDb`), axe-core checks, the local mailbox, hydration, course page locators.
// The js and no-js projects run in parallel against one database, so every test makes its own rows.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import {
  expect as baseExpect,
  test as base,
  type Browser,
  type BrowserContext,
  type Cookie,
  type Locator,
  type Page,
  type TestInfo,
} from "@playwright/test";
import { and, eq, sql } from "drizzle-orm";
import { createCookie } from "react-router";
import { passwordCredentials } from "../../app/features/auth/tables";
import { lessons, modules } from "../../app/features/courses/tables";
import { encodeWav } from "../../app/lib/audio/wav";
import { creditPeriod } from "../../app/server/credits.server";
import { FLAGS_STALE_MS } from "../../app/server/flags.server";
import { hashPassword, randomToken, sha256Hex } from "../../app/server/password";
import { appConfig, sessions, userRoles, users } from "../../app/server/schema";
import { connect, loadEnv } from "../../scripts/lib/node-db";

export { budget } from "./budget";

const E2E_VARS = "tests/e2e/e2e.vars";
export const FAKE_UPSTREAM = "http://127.0.0.1:4010";
/** The password of every account the tests create. */
export const PASSWORD = "Ingles2024";

export const uniqueEmail = (testInfo: TestInfo, label = "pessoa") =>
  `${label}-${testInfo.project.name}-${testInfo.workerIndex}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

export const jsEnabled = (testInfo: TestInfo) => testInfo.project.name === "js";

// ——— database ———

/** Direct database access for arranging a test (node-postgres over TCP, the driver the worker uses). */
export async function withDb<T>(fn: (db: ReturnType<typeof connect>["db"]) => Promise<T>): Promise<T> {
  const { pool, db } = connect(loadEnv(E2E_VARS));
  try {
    return await fn(db);
  } finally {
    await pool.end();
  }
}

/**
 * Sets a flag in the database, as an operator's SQL would (only tests/serial do this). The worker keeps the flags
 * it read for FLAGS_STALE_MS (decision 0019), so when the value changed this waits that long: after it, every
 * request sees the new value.
 */
export async function setFlagInDatabase(key: string, value: boolean) {
  const changed = await withDb((db) =>
    db
      .update(appConfig)
      .set({ configValue: value })
      .where(and(eq(appConfig.configKey, key), sql`${appConfig.configValue} is distinct from ${value}`))
      .returning({ id: appConfig.id }),
  );
  if (changed.length > 0) await new Promise((resolve) => setTimeout(resolve, FLAGS_STALE_MS + 250));
}

/**
 * Holds the requests to `url` (of `method`, when given) until `release()` is called: a test sees a loading
 * state for as long as it needs, whatever the machine's speed, instead of guessing a delay.
 */
export async function holdRequests(page: Page, url: RegExp, method?: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    if (!method || route.request().method() === method) await released;
    await route.continue();
  });
  return release;
}

export async function userByEmail(email: string) {
  return withDb(async (db) => (await db.select().from(users).where(eq(users.email, email)))[0]);
}

export const userById = (id: string) => withDb(async (db) => (await db.select().from(users).where(eq(users.id, id)))[0]!);
export const moduleRecord = (id: string) => withDb(async (db) => (await db.select().from(modules).where(eq(modules.id, id)))[0]!);
export const lessonRecord = (id: string) => withDb(async (db) => (await db.select().from(lessons).where(eq(lessons.id, id)))[0]!);

// ——— accounts and sessions ———

export type Role = "learner" | "admin" | "blocked";

export type Account = {
  id: string;
  email: string;
  name: string;
  /** Always PASSWORD; kept here for the sign-in form. */
  password: string;
  role: Role;
  /** `nika_session=…` of the account's session, for requests made outside a browser (fetch, ws). */
  cookie: string;
  /** The same cookie as the browser keeps it. */
  browserCookie: Cookie;
};

export type AccountOptions = { name?: string; credits?: number; label?: string };

const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;

/**
 * The app's session cookie (app/server/auth.server.ts `sessionCookie`): the same name, options and
 * secret (wrangler reads SESSION_SECRET from tests/e2e/e2e.vars), so it serializes byte for byte what
 * the app issues. accounts.spec.ts checks that a cookie from the sign-in form matches it.
 */
export const sessionCookie = createCookie("nika_session", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  secure: false, // APP_ENV=development in e2e.vars
  secrets: [parseEnv(readFileSync(E2E_VARS, "utf8")).SESSION_SECRET!],
  maxAge: SESSION_TTL_MS / 1000,
});

let passwordHash: Promise<string> | undefined; // PBKDF2 once per worker: every account shares PASSWORD

/**
 * Inserts a confirmed user (50 credits unless told) with PASSWORD — an admin_role row for admins,
 * account_type 'blocked' for blocked accounts — and a session row keyed by the SHA-256 of a random
 * token, as createSession does. Signed in nowhere yet: see the `learner`/`admin`/`blocked` fixtures
 * and `pageAs`.
 */
export async function insertAccount(testInfo: TestInfo, role: Role = "learner", options: AccountOptions = {}): Promise<Account> {
  const email = uniqueEmail(testInfo, options.label ?? role);
  const name = options.name ?? { learner: "Aluna Teste", admin: "Admin Teste", blocked: "Conta Bloqueada Teste" }[role];
  const token = randomToken();
  const now = new Date();
  passwordHash ??= hashPassword(PASSWORD);
  const hash = await passwordHash;
  const id = await withDb((db) =>
    db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          name,
          email,
          phoneNumber: "+55 11 90000-0001",
          emailConfirmedAt: now,
          accountType: role === "blocked" ? "blocked" : "free",
          monthlyCredits: options.credits ?? 50,
          creditsPeriod: creditPeriod(now),
        })
        .returning({ id: users.id });
      await tx.insert(passwordCredentials).values({ userId: user!.id, passwordHash: hash });
      if (role === "admin") await tx.insert(userRoles).values({ userId: user!.id, role: "admin" });
      await tx.insert(sessions).values({
        id: await sha256Hex(token),
        userId: user!.id,
        userAgent: "playwright fixture",
        expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      });
      return user!.id;
    }),
  );
  const [pair] = (await sessionCookie.serialize(token)).split(";");
  const value = pair!.slice("nika_session=".length);
  const browserCookie: Cookie = {
    name: "nika_session",
    value,
    domain: new URL(String(testInfo.project.use.baseURL)).hostname,
    path: "/",
    expires: Math.floor((now.getTime() + SESSION_TTL_MS) / 1000),
    httpOnly: true,
    secure: false,
    sameSite: "Lax",
  };
  return { id, email, name, password: PASSWORD, role, cookie: pair!, browserCookie };
}

type Fixtures = {
  /** A fresh learner, signed in on the test's own browser context (`page`). */
  learner: Account;
  /** A fresh admin (user_roles 'admin'), signed in on the test's own browser context (`page`). */
  admin: Account;
  /** A fresh blocked account (account_type 'blocked'), signed in on the test's own browser context (`page`). */
  blocked: Account;
  /** Another fresh account with a session, signed in nowhere (see `pageAs`). */
  createAccount: (role?: Role, options?: AccountOptions) => Promise<Account>;
  /** Another browser (own cookies, this test's settings) signed in as `account`; closed after the test. */
  pageAs: (account: Account) => Promise<Page>;
  /** A module of its own with lessons, deleted (with its lessons, progress and comments) after the test. */
  createCourse: (options?: CourseOptions) => Promise<TestCourse>;
  _pageAccount: { role?: Role };
};

const signedInOnPage =
  (role: Role) =>
  async (
    { context, _pageAccount }: { context: BrowserContext; _pageAccount: { role?: Role } },
    use: (account: Account) => Promise<void>,
    testInfo: TestInfo,
  ) => {
    if (_pageAccount.role) {
      throw new Error(
        `"${_pageAccount.role}" and "${role}" would share one browser: take one as a fixture, make the other with createAccount() and open it with pageAs().`,
      );
    }
    _pageAccount.role = role;
    const account = await insertAccount(testInfo, role);
    await context.addCookies([account.browserCookie]);
    await use(account);
  };

export const test = base.extend<Fixtures>({
  _pageAccount: async ({}, use) => use({}),
  learner: signedInOnPage("learner"),
  admin: signedInOnPage("admin"),
  blocked: signedInOnPage("blocked"),
  createAccount: async ({}, use, testInfo) => use((role, options) => insertAccount(testInfo, role, options)),
  pageAs: async (
    { browser, baseURL, javaScriptEnabled, locale, timezoneId, viewport, isMobile, hasTouch, userAgent, deviceScaleFactor },
    use,
  ) => {
    const contexts: BrowserContext[] = [];
    await use(async (account) => {
      const context = await browser.newContext({
        baseURL,
        javaScriptEnabled,
        locale,
        timezoneId,
        viewport,
        isMobile,
        hasTouch,
        userAgent,
        deviceScaleFactor,
        acceptDownloads: true,
      });
      contexts.push(context);
      await context.addCookies([account.browserCookie]);
      return context.newPage();
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
  createCourse: async ({}, use, testInfo) => {
    const created: TestCourse[] = [];
    await use(async (options) => {
      const course = await insertCourse(testInfo, options);
      created.push(course);
      return course;
    });
    for (const course of created) await withDb((db) => db.delete(modules).where(eq(modules.id, course.moduleId)));
  },
});

// ——— matchers ———

const pathAndSearch = (url: string | URL) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

/** The notifications region: flash toasts are server-rendered there, so it works without JS too. */
const toastRegion = (page: Page) => page.getByRole("region", { name: "Notificações" });

export const expect = baseExpect.extend({
  /**
   * The page ended up at `expected` — path and query compared exactly (a RegExp is tested against
   * them), the hash ignored — retrying until the timeout like toHaveURL.
   */
  async toHaveRedirectedTo(page: Page, expected: string | RegExp, options: { timeout?: number } = {}) {
    const matches = (path: string) => (typeof expected === "string" ? path === expected : expected.test(path));
    let pass: boolean;
    try {
      await baseExpect(page).toHaveURL((url) => matches(pathAndSearch(url)) !== this.isNot, { timeout: options.timeout ?? this.timeout });
      pass = !this.isNot;
    } catch {
      pass = this.isNot;
    }
    const actual = pathAndSearch(page.url());
    return {
      name: "toHaveRedirectedTo",
      pass,
      expected,
      actual,
      message: () =>
        `${this.utils.matcherHint("toHaveRedirectedTo", undefined, undefined, { isNot: this.isNot })}\n\n` +
        `Expected path: ${this.isNot ? "not " : ""}${this.utils.printExpected(expected)}\n` +
        `Received path: ${this.utils.printReceived(actual)}`,
    };
  },

  /**
   * A toast titled `title` (and described `description`, when given) is visible in the notifications
   * region — the server-rendered flash toast without JavaScript, the client store's with it. Toasts
   * hide themselves after 4 s, so assert soon after the action.
   */
  async toShowToast(page: Page, title: string, options: { description?: string; timeout?: number } = {}) {
    let toast: Locator = toastRegion(page)
      .getByRole("listitem")
      .filter({ has: page.getByText(title, { exact: true }) });
    if (options.description) toast = toast.filter({ has: page.getByText(options.description, { exact: true }) });
    let pass: boolean;
    try {
      const expectation = this.isNot ? baseExpect(toast.first()).not : baseExpect(toast.first());
      await expectation.toBeVisible({ timeout: options.timeout ?? this.timeout });
      pass = !this.isNot;
    } catch {
      pass = this.isNot;
    }
    const shown = await toastRegion(page)
      .getByRole("listitem")
      .allInnerTexts()
      .catch(() => []);
    const expected = options.description ? `${title} — ${options.description}` : title;
    return {
      name: "toShowToast",
      pass,
      expected,
      actual: shown,
      message: () =>
        `${this.utils.matcherHint("toShowToast", undefined, undefined, { isNot: this.isNot })}\n\n` +
        `Expected toast: ${this.isNot ? "not " : ""}${this.utils.printExpected(expected)}\n` +
        `Toasts shown:   ${this.utils.printReceived(shown.map((text) => text.replace(/\s*\n+\s*/g, " — ")))}`,
    };
  },
});

// ——— pages ———

/** Opens `path`, checks the session kept the page there (no detour to /signin), waits for hydration with JS. */
export async function visit(page: Page, path: string) {
  await page.goto(path);
  await expect(page).toHaveRedirectedTo(path.replace(/#.*$/, ""));
  if (test.info().project.use.javaScriptEnabled !== false) await waitForHydration(page);
}

/** Fills and submits /signin. The session fixtures replace it everywhere but accounts.spec.ts. */
export async function signInWithForm(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

/** Resolves once React has hydrated the page (JS-only controls respond from then on). */
export async function waitForHydration(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * Fails on any serious or critical axe-core violation of the current page. axe runs inside the page,
 * so with JavaScript disabled the exact HTML the browser received is replayed in a JS-enabled page
 * (same URL, same styles, the app's own scripts blocked) and checked there.
 *
 * axe runs in its legacy mode: one `axe.run` in the page, instead of a partial run per frame finished in
 * an extra blank page, which costs a page per check. Only same-origin frames are checked that way; the
 * app has none of its own (a lesson's video frame is the video host's).
 */
export async function expectAccessible(page: Page) {
  const replay = test.info().project.use.javaScriptEnabled === false ? await replayWithoutScripts(page) : null;
  const results = await new AxeBuilder({ page: replay ?? page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .setLegacyMode()
    .analyze()
    .finally(() => replay?.close());
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

/** The replays' JS-enabled context, one per browser (so per worker): a context per check cost a second each. */
const replayContexts = new WeakMap<Browser, Promise<BrowserContext>>();

async function replayWithoutScripts(page: Page): Promise<Page> {
  const html = await page.content();
  const url = page.url();
  const browser = page.context().browser()!;
  if (!replayContexts.has(browser)) replayContexts.set(browser, browser.newContext({ javaScriptEnabled: true }));
  const replay = await (await replayContexts.get(browser)!).newPage();
  await replay.route(url, (route) => route.fulfill({ body: html, contentType: "text/html; charset=utf-8" }));
  await replay.route(/\.js(\?|$)/, (route) => route.abort());
  await replay.goto(url);
  // Judged at rest: a toast fading in would otherwise be measured mid-animation, at part of its contrast.
  await replay.addStyleTag({ content: "*, *::before, *::after { animation: none !important; transition: none !important; }" });
  return replay;
}

// ——— mail ———

/** Opens the newest link to `path` that the local mailbox (/dev/mailbox) shows for `email`. */
export async function followMailLink(page: Page, email: string, path: string) {
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`);
  const link = page.getByRole("link", { name: new RegExp(`${path.replace("/", "\\/")}\\?`) }).first();
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  await page.goto(new URL(href!).pathname + new URL(href!).search);
}

export async function emailsSentTo(email: string): Promise<{ subject: string; text: string }[]> {
  const response = await fetch(`${FAKE_UPSTREAM}/__emails?to=${encodeURIComponent(email)}`);
  return response.json();
}

// ——— Teacher FLIX ———

export type CourseOptions = {
  /** How many lessons (default 1), each 1 to 5 minutes long; the first has no description. */
  lessons?: number;
  label?: string;
  /**
   * "first" (default): an order_index far below every real module, so the module never becomes
   * another module's "next lesson" target and has no "Praticar com a Nika". "last": a positive one
   * after every real module, as the admin forms require (order ≥ 0) and "Praticar com a Nika" needs (≥ 1).
   */
  position?: "first" | "last";
};

export type TestCourse = { moduleId: string; title: string; orderIndex: number; lessons: { id: string; title: string }[] };

async function insertCourse(
  testInfo: TestInfo,
  { lessons: count = 1, label = "Curso", position = "first" }: CourseOptions = {},
): Promise<TestCourse> {
  const title = `${label} ${testInfo.project.name} ${testInfo.workerIndex}-${Date.now().toString(36)}`;
  const spread = Math.floor(Math.random() * 1_000_000);
  const order = position === "first" ? -2_000_000 - spread : 1_000_000 + spread;
  return withDb(async (db) => {
    const [module] = await db
      .insert(modules)
      .values({ title, description: `Módulo de teste: ${title}.`, orderIndex: order, available: "yes" })
      .returning({ id: modules.id });
    const created = await db
      .insert(lessons)
      .values(
        Array.from({ length: count }, (_, index) => ({
          moduleId: module!.id,
          title: `${title} · aula ${index + 1}`,
          description: index === 0 ? null : `Descrição da aula ${index + 1}.`,
          durationSeconds: (index + 1) * 60 + 30,
          orderIndex: index + 1,
          videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        })),
      )
      .returning({ id: lessons.id, title: lessons.title, orderIndex: lessons.orderIndex });
    created.sort((a, b) => a.orderIndex - b.orderIndex);
    return { moduleId: module!.id, title, orderIndex: order, lessons: created.map(({ id, title }) => ({ id, title })) };
  });
}

/** Keeps video players from reaching the internet. */
export const blockVideoHosts = (page: Page) => page.route(/youtube\.com|vimeo\.com|ytimg\.com/, (route) => route.abort());

/** The admin panel of a nested route: a dialog with JavaScript, a page section without. */
export function adminPanel(page: Page, testInfo: TestInfo, title: string): Locator {
  return jsEnabled(testInfo) ? page.getByRole("dialog", { name: title }) : page.getByRole("region", { name: title });
}

/** Selects a lesson tab: an ARIA tab once hydrated, a plain link (server-rendered panel) without JS. */
export async function openLessonTab(page: Page, name: RegExp | string, js: boolean) {
  if (js) {
    await waitForHydration(page);
    await page.getByRole("tab", { name }).click();
    await expect(page.getByRole("tab", { name })).toHaveAttribute("aria-selected", "true");
  } else {
    await page.getByRole("link", { name }).click();
    await expect(page).toHaveURL(/[?&]tab=/);
  }
}

/** The module card of a course on /courses. */
export const moduleCard = (page: Page, title: string) => page.getByTestId("module-card").filter({ hasText: title });

/** Height of a card's hover details (0 = collapsed). */
export const detailsHeight = (page: Page, title: string) =>
  moduleCard(page, title)
    .getByTestId("module-card-details")
    .evaluate((element) => element.getBoundingClientRect().height);

/** A lesson's row on its module page. */
export const lessonRow = (page: Page, title: string) => page.getByTestId("lesson-row").filter({ hasText: title });

export const commentWith = (page: Page, text: string) => page.getByTestId("comment").filter({ hasText: text });

// ——— microphone ———

/**
 * Options for `test.use()` of a spec that records: Chromium's fake microphone, granted, looping `seconds`
 * of a `hz` tone (then `silence` seconds of nothing) written as a 16 kHz WAV under the system's temp folder
 * (the flags apply to the whole browser, so such a spec launches its own).
 */
export function fakeMicrophone(name: string, { seconds = 3, hz = 300, silence = 0 }: { seconds?: number; hz?: number; silence?: number } = {}) {
  const path = join(tmpdir(), `nika-e2e-${name}.wav`);
  const toneSamples = 16_000 * seconds;
  const samples = new Float32Array(toneSamples + 16_000 * silence).map((_, i) =>
    i < toneSamples ? 0.4 * Math.sin((2 * Math.PI * hz * i) / 16_000) : 0,
  );
  // Written aside, then renamed: the js and no-js workers both load a spec, and a browser already reading the file
  // must never see it truncated by the other's write.
  const aside = `${path}.${process.pid}`;
  writeFileSync(aside, encodeWav(samples, 16_000));
  renameSync(aside, path);
  return {
    permissions: ["microphone"],
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        `--use-file-for-fake-audio-capture=${path}`,
      ],
    },
  };
}
