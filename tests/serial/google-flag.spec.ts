// With the flag enable_account_creation_on_signin off, Google sign-in is gone on the server: no button on
// /signin and its routes answer 404 — then on again. It switches a flag every running spec shares, so it
// lives in the serial "flags" project (playwright.config.ts).
import { expect, setFlagInDatabase, test } from "../e2e/support";

const setGoogleFlag = (value: boolean) => setFlagInDatabase("enable_account_creation_on_signin", value);

test("the flag off hides Google sign-in on the server (no button, routes 404), on brings it back", async ({ page, request }) => {
  await page.goto("/signin");
  await expect(page.getByRole("link", { name: "Entrar com Google" })).toBeVisible();
  await setGoogleFlag(false);
  try {
    await page.goto("/signin");
    await expect(page.getByRole("button", { name: "Entrar" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Entrar com Google" })).toHaveCount(0);
    for (const path of ["/auth/google", "/auth/google/callback?code=x&state=y"]) {
      const answer = await request.get(path, { maxRedirects: 0 });
      expect([path, answer.status()]).toEqual([path, 404]);
    }
  } finally {
    await setGoogleFlag(true);
  }
  await page.goto("/signin");
  await expect(page.getByRole("link", { name: "Entrar com Google" })).toBeVisible();
  const answer = await request.get("/auth/google", { maxRedirects: 0 });
  expect(answer.status()).toBe(302);
  expect(answer.headers().location).toMatch(/^http:\/\/127\.0\.0\.1:4010\/google\/o\/oauth2\/v2\/auth\?/);
});
