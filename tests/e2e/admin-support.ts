// Helpers of the Teacher FLIX admin journeys. Each test creates its own module and lesson (the js and
// no-js projects run in parallel against one database) and deletes them afterwards.
import { expect, test, type Browser, type Locator, type Page, type TestInfo } from "@playwright/test";
import { eq } from "drizzle-orm";
import { lessons, modules } from "../../app/server/schema";
import { jsEnabled, signIn, waitForHydration, withDb } from "./support";

export const ADMIN = { email: "admin@nika.local", password: "NikaAdmin123" };

export type AdminFixture = { moduleId: string; lessonId: string; title: string };

/** A module (at the end of the catalogue) with one lesson, named after the project and worker. */
export async function createAdminFixture(testInfo: TestInfo, label: string): Promise<AdminFixture> {
  const title = `${label} ${testInfo.project.name}-${testInfo.workerIndex}-${Date.now().toString(36)}`;
  return withDb(async (db) => {
    const [module] = await db
      .insert(modules)
      .values({ title, description: `Descrição de ${title}`, orderIndex: 500_000 + Math.floor(Math.random() * 100_000), available: "yes" })
      .returning({ id: modules.id });
    const [lesson] = await db
      .insert(lessons)
      .values({ moduleId: module!.id, title: `Aula de ${title}`, videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", durationSeconds: 300, orderIndex: 1 })
      .returning({ id: lessons.id });
    return { moduleId: module!.id, lessonId: lesson!.id, title };
  });
}

export async function removeAdminFixture(fixture: AdminFixture | undefined) {
  if (fixture) await withDb((db) => db.delete(modules).where(eq(modules.id, fixture.moduleId)));
}

export const moduleRow = (id: string) => withDb(async (db) => (await db.select().from(modules).where(eq(modules.id, id)))[0]!);
export const lessonRow = (id: string) => withDb(async (db) => (await db.select().from(lessons).where(eq(lessons.id, id)))[0]!);

/** Signs in through /signin and lands on `path` (hydrated when JavaScript is on). */
export async function signInAt(page: Page, account: { email: string; password: string }, path: string) {
  await page.goto(`/signin?redirectTo=${encodeURIComponent(path)}`);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL((url) => url.pathname + url.search === path);
  if (test.info().project.use.javaScriptEnabled !== false) await waitForHydration(page);
}

/** The admin panel of a nested route: a dialog with JavaScript, a page section without. */
export function adminPanel(page: Page, testInfo: TestInfo, title: string): Locator {
  return jsEnabled(testInfo) ? page.getByRole("dialog", { name: title }) : page.getByRole("region", { name: title });
}

/** The notifications region (flash toasts are server-rendered, so this works without JS too). */
export const toasts = (page: Page) => page.getByRole("region", { name: "Notificações" });

/** Another browser with its own cookies and the project's settings. */
export async function newProjectPage(browser: Browser, testInfo: TestInfo) {
  const { baseURL, javaScriptEnabled, locale, timezoneId, viewport } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, javaScriptEnabled, locale, timezoneId, viewport, acceptDownloads: true });
  return context.newPage();
}
