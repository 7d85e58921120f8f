// Helpers of the Teacher FLIX learner journeys. Each test arranges its own module and lessons in the
// database (the js and no-js projects run in parallel against one database) and removes them after.
import { expect, type Browser, type Page, type TestInfo } from "@playwright/test";
import { eq } from "drizzle-orm";
import { lessons, modules } from "../../app/server/schema";
import { signIn, waitForHydration, withDb } from "./support";

export const ADMIN = { email: "admin@nika.local", password: "NikaAdmin123" };

export type TestCourse = { moduleId: string; title: string; lessons: { id: string; title: string }[] };

/**
 * A module of its own with `count` lessons (1 to 5 minutes each). Its order_index is far below every
 * real module, so it never becomes another module's "next lesson" target.
 */
export async function createCourse(testInfo: TestInfo, count: number, label = "Curso"): Promise<TestCourse> {
  const title = `${label} ${testInfo.project.name} ${testInfo.workerIndex}-${Date.now().toString(36)}`;
  return withDb(async (db) => {
    const [module] = await db
      .insert(modules)
      .values({
        title,
        description: `Módulo de teste: ${title}.`,
        orderIndex: -2_000_000 - Math.floor(Math.random() * 1_000_000),
        available: "yes",
      })
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
    return { moduleId: module!.id, title, lessons: created.map(({ id, title }) => ({ id, title })) };
  });
}

export async function removeCourse(course: TestCourse | undefined) {
  if (course) await withDb((db) => db.delete(modules).where(eq(modules.id, course.moduleId)));
}

/** Signs in through /signin and lands on `path`. */
export async function signInTo(page: Page, email: string, password: string, path: string) {
  await page.goto(`/signin?redirectTo=${encodeURIComponent(path)}`);
  await signIn(page, email, password);
  await expect(page).toHaveURL((url) => url.pathname + url.search === path);
}

/** A second browser (own cookies) with the project's settings. */
export async function newBrowserPage(browser: Browser, testInfo: TestInfo) {
  const { baseURL, javaScriptEnabled, locale, timezoneId, viewport } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, javaScriptEnabled, locale, timezoneId, viewport });
  return { context, page: await context.newPage() };
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

export const lessonRow = (page: Page, title: string) => page.getByTestId("lesson-row").filter({ hasText: title });

export const commentWith = (page: Page, text: string) => page.getByTestId("comment").filter({ hasText: text });
