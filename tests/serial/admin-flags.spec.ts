// The admin turns feature_flashcards off on /admin and a learner gets "Recurso Temporariamente
// Indisponível" on /flashcard-v2 and on its action; then on again. It switches a flag every running spec
// shares, so it lives in the serial "flags" project (playwright.config.ts), JS on and off.
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { appConfig } from "../../app/server/schema";
import { expect, setFlagInDatabase, test, waitForHydration, withDb } from "../e2e/support";

// In order, in one worker: both tests switch the same flag (a failure does not skip the other).
test.describe.configure({ mode: "default" });

const restore = () => setFlagInDatabase("feature_flashcards", true);

async function flip(page: Page, to: boolean) {
  const toggle = page.getByRole("switch", { name: "Flashcards" });
  await expect(toggle).toHaveAttribute("aria-checked", String(!to));
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", String(to));
  // Stored (not only optimistic): the page read back from the server says the same.
  await expect
    .poll(async () => (await withDb((db) => db.select().from(appConfig).where(eq(appConfig.configKey, "feature_flashcards"))))[0]!.configValue)
    .toBe(to);
}

async function journey(page: Page, learnerPage: Page, js: boolean) {
  await page.goto("/admin");
  await expect(page).toHaveRedirectedTo("/admin");
  if (js) await waitForHydration(page);
  try {
    await flip(page, false);
    const response = await learnerPage.goto("/flashcard-v2");
    expect(response?.status()).toBe(403);
    await expect(learnerPage.getByRole("heading", { name: "Recurso Temporariamente Indisponível" })).toBeVisible();
    const started = await learnerPage.request.post("/flashcard-v2", {
      form: { intent: "start", category: "animais" },
    });
    expect(started.status()).toBe(403);
    await flip(page, true);
    expect((await learnerPage.goto("/flashcard-v2"))?.status()).toBe(200);
  } finally {
    await restore();
  }
}

test("admin turns flashcards off and on from /admin (JS on)", async ({ page, admin: _, createAccount, pageAs }) => {
  const learner = await createAccount("learner", { label: "flag" });
  await journey(page, await pageAs(learner), true);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("admin turns flashcards off and on from /admin (JS off)", async ({ page, admin: _, createAccount, pageAs }) => {
    const learner = await createAccount("learner", { label: "flag-nojs" });
    await journey(page, await pageAs(learner), false);
  });
});
