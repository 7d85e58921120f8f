// Tests that switch a feature flag: the flag is shared by every page of the running app, so they run in a
// project of their own after the route contract and before the journeys (playwright.config.ts), never next
// to a spec that plays the feature.
import { eq } from "drizzle-orm";
import { appConfig } from "../../app/server/schema";
import { expect, expectAccessible, test, withDb } from "../e2e/support";

test("a disabled feature shows the feature-disabled screen, enforced on the server", async ({ page, learner: _ }) => {
  await page.goto("/labs");
  await withDb((db) => db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_pronunciation")));
  try {
    const response = await page.goto("/pronunciation-game");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Recurso Temporariamente Indisponível" })).toBeVisible();
    await expectAccessible(page);
  } finally {
    await withDb((db) => db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_pronunciation")));
  }
  const response = await page.goto("/pronunciation-game");
  expect(response?.status()).toBe(200);
});
