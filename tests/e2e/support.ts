// Shared helpers for the end-to-end journeys.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { eq } from "drizzle-orm";
import { hashPassword } from "../../app/server/password";
import { creditPeriod } from "../../app/server/credits.server";
import { passwordCredentials, users } from "../../app/server/schema";
import { connect, loadEnv } from "../../scripts/lib/node-db";

export const FAKE_UPSTREAM = "http://127.0.0.1:4010";
export const PASSWORD = "Ingles2024";
export const LEARNER = { email: "aluno@nika.local", password: "NikaAluno123" };
export const BLOCKED = { email: "bloqueado@nika.local", password: "NikaBloqueado123" };

export const uniqueEmail = (testInfo: TestInfo, label = "pessoa") =>
  `${label}-${testInfo.project.name}-${testInfo.workerIndex}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

export const jsEnabled = (testInfo: TestInfo) => testInfo.project.name === "js";

/** Direct database access for arranging a test (through the same bridge the worker uses). */
export async function withDb<T>(fn: (db: ReturnType<typeof connect>["db"]) => Promise<T>): Promise<T> {
  const { pool, db } = connect(loadEnv("tests/e2e/e2e.vars"));
  try {
    return await fn(db);
  } finally {
    await pool.end();
  }
}

export async function createConfirmedUser(email: string, password = PASSWORD, name = "Pessoa Teste") {
  const passwordHash = await hashPassword(password);
  await withDb(async (db) => {
    const [user] = await db
      .insert(users)
      .values({ name, email, phoneNumber: "+55 11 90000-0001", emailConfirmedAt: new Date(), monthlyCredits: 50, creditsPeriod: creditPeriod(new Date()) })
      .returning({ id: users.id });
    await db.insert(passwordCredentials).values({ userId: user!.id, passwordHash });
  });
}

export async function userByEmail(email: string) {
  return withDb(async (db) => (await db.select().from(users).where(eq(users.email, email)))[0]);
}

/**
 * Fails on any serious or critical axe-core violation of the current page. axe runs inside the page,
 * so with JavaScript disabled the exact HTML the browser received is replayed in a JS-enabled page
 * (same URL, same styles, the app's own scripts blocked) and checked there.
 */
export async function expectAccessible(page: Page) {
  const target = test.info().project.use.javaScriptEnabled === false ? await replayWithoutScripts(page) : page;
  const results = await new AxeBuilder({ page: target }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  if (target !== page) await target.context().close();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

async function replayWithoutScripts(page: Page): Promise<Page> {
  const html = await page.content();
  const url = page.url();
  const context = await page.context().browser()!.newContext({ javaScriptEnabled: true });
  const replay = await context.newPage();
  await replay.route(url, (route) => route.fulfill({ body: html, contentType: "text/html; charset=utf-8" }));
  await replay.route(/\.js(\?|$)/, (route) => route.abort());
  await replay.goto(url);
  return replay;
}

export async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

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

/** Resolves once React has hydrated the page (JS-only controls respond from then on). */
export async function waitForHydration(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}
