// Tests that switch a feature flag: the flag is shared by every page of the running app, so they run in a
// project of their own after the route contract and before the journeys (playwright.config.ts), never next
// to a spec that plays the feature.
import { expect, expectAccessible, setFlagInDatabase, test } from "../e2e/support";

test("a disabled feature shows the feature-disabled screen, enforced on the server", async ({ page, learner: _ }) => {
  await page.goto("/labs");
  await setFlagInDatabase("feature_pronunciation", false);
  try {
    const response = await page.goto("/pronunciation-game");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Recurso Temporariamente Indisponível" })).toBeVisible();
    await expectAccessible(page);
  } finally {
    await setFlagInDatabase("feature_pronunciation", true);
  }
  const response = await page.goto("/pronunciation-game");
  expect(response?.status()).toBe(200);
});
