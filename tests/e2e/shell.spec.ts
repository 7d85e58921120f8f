import { expect, test, type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { appConfig } from "../../app/server/schema";
import { LEARNER, expectAccessible, jsEnabled, signIn, waitForHydration, withDb } from "./support";

async function signInAsLearner(page: Page, path = "/") {
  await page.goto(`/signin?redirectTo=${encodeURIComponent(path)}`);
  await signIn(page, LEARNER.email, LEARNER.password);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, "\\/")}$`));
}

test("the desktop sidebar collapses, and the server renders the saved state", async ({ page }) => {
  await signInAsLearner(page);
  const sidebar = page.locator("#app-sidebar");
  await expect(sidebar).toHaveAttribute("data-state", "expanded");
  await page.getByRole("button", { name: "Recolher menu lateral" }).click();
  await expect(sidebar).toHaveAttribute("data-state", "collapsed");
  await page.reload();
  await expect(sidebar).toHaveAttribute("data-state", "collapsed");
  const cookie = (await page.context().cookies()).find((c) => c.name === "sidebar:state");
  expect(cookie?.value).toBe("false");
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(604_800 - 120);
  await page.getByRole("button", { name: "Expandir menu lateral" }).click();
  await expect(sidebar).toHaveAttribute("data-state", "expanded");
  await expect(page.getByRole("navigation", { name: "Navegação principal" }).getByRole("link", { name: "Teacher FLIX" })).toBeVisible();
});

test("Ctrl+B toggles the sidebar", async ({ page }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "keyboard shortcut needs JavaScript");
  await signInAsLearner(page);
  const sidebar = page.locator("#app-sidebar");
  await waitForHydration(page);
  await page.keyboard.press("Control+b");
  await expect(sidebar).toHaveAttribute("data-state", "collapsed");
  await page.keyboard.press("Control+b");
  await expect(sidebar).toHaveAttribute("data-state", "expanded");
});

test("the theme choice survives a reload; the default is dark", async ({ page }, testInfo) => {
  await signInAsLearner(page);
  const html = page.locator("html");
  await expect(html).toHaveClass(/\bdark\b/);
  if (!jsEnabled(testInfo)) return; // without JavaScript the default theme is what renders
  await waitForHydration(page);
  await page.getByRole("button", { name: "Alternar tema" }).first().click();
  await expect(html).not.toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
  await page.reload();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await expectAccessible(page);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Alternar tema" }).first().click();
  await expect(html).toHaveClass(/\bdark\b/);
});

test("an unknown path shows the 404 page with a link home", async ({ page }) => {
  const response = await page.goto("/isso-nao-existe");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Página não encontrada" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Voltar ao início" }).click();
  await expect(page).toHaveURL(/\/signin$/); // home is protected
});

test("a disabled feature shows the feature-disabled screen, enforced on the server", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== "js", "one project toggles the shared flag");
  await signInAsLearner(page, "/labs");
  await withDb((db) => db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_flashcards")));
  try {
    const response = await page.goto("/flashcard-v2");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Recurso Temporariamente Indisponível" })).toBeVisible();
    await expectAccessible(page);
  } finally {
    await withDb((db) => db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_flashcards")));
  }
  const response = await page.goto("/flashcard-v2");
  expect(response?.status()).toBe(200);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the bottom navigation reaches every section", async ({ page }) => {
    await signInAsLearner(page);
    const bottom = page.getByRole("navigation", { name: "Navegação rápida" });
    await expect(bottom).toBeVisible();
    for (const name of ["Início", "Chat Nika", "Cursos", "Labs", "Config"]) await expect(bottom.getByRole("link", { name })).toBeVisible();
    await bottom.getByRole("link", { name: "Labs" }).click();
    await expect(page).toHaveURL(/\/labs$/);
    await expect(bottom.getByRole("link", { name: "Labs" })).toHaveAttribute("aria-current", "page");
    await expectAccessible(page);
  });
});

test("the offline banner appears when the connection drops", async ({ page, context }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "connectivity events need JavaScript");
  await signInAsLearner(page);
  await waitForHydration(page);
  await context.setOffline(true);
  await expect(page.getByText("Você está offline. Algumas funcionalidades podem estar limitadas.")).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByText("Você está offline. Algumas funcionalidades podem estar limitadas.")).toBeHidden();
});

test("the app is installable: manifest and a root-scoped service worker", async ({ request }) => {
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.ok()).toBe(true);
  const body = await manifest.json();
  expect(body).toMatchObject({ lang: "pt-BR", display: "standalone", start_url: "/" });
  expect(body.icons.some((icon: { sizes: string }) => icon.sizes === "512x512")).toBe(true);
  const sw = await request.get("/sw.js");
  expect(sw.ok()).toBe(true);
  expect(sw.headers()["content-type"]).toContain("javascript");
  const offline = await request.get("/offline.html");
  expect(await offline.text()).toContain("Você está offline");
});

test("client error reports are validated and stored", async ({ request }) => {
  const ok = await request.post("/api/errors", {
    data: { name: "TypeError", message: "x is undefined", url: "http://localhost/", timestamp: new Date().toISOString() },
  });
  expect(ok.status()).toBe(204);
  const bad = await request.post("/api/errors", { data: { name: 42 } });
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toEqual({ error: "Relatório de erro inválido." });
  const big = await request.post("/api/errors", { data: { name: "E", message: "m".repeat(20_000) } });
  expect(big.status()).toBe(413);
});
