import { sql } from "drizzle-orm";
import { clientErrorReports } from "../../app/server/schema";
import { budget, expect, expectAccessible, jsEnabled, test, waitForHydration, withDb } from "./support";

test("the desktop sidebar collapses, and the server renders the saved state", async ({ page, learner: _ }) => {
  await page.goto("/");
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

test("Ctrl+B toggles the sidebar", async ({ page, learner: _ }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "keyboard shortcut needs JavaScript");
  await page.goto("/");
  const sidebar = page.locator("#app-sidebar");
  await waitForHydration(page);
  await page.keyboard.press("Control+b");
  await expect(sidebar).toHaveAttribute("data-state", "collapsed");
  await page.keyboard.press("Control+b");
  await expect(sidebar).toHaveAttribute("data-state", "expanded");
});

test("the theme choice survives a reload; the default is dark", async ({ page, learner: _ }, testInfo) => {
  await page.goto("/");
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
  await expect(page).toHaveRedirectedTo("/signin"); // home is protected
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the bottom navigation reaches every section", async ({ page, learner: _ }) => {
    await page.goto("/");
    const bottom = page.getByRole("navigation", { name: "Navegação rápida" });
    await expect(bottom).toBeVisible();
    for (const name of ["Início", "Chat Nika", "Cursos", "Labs", "Config"]) await expect(bottom.getByRole("link", { name })).toBeVisible();
    await bottom.getByRole("link", { name: "Labs" }).click();
    await expect(page).toHaveURL(/\/labs$/);
    await expect(bottom.getByRole("link", { name: "Labs" })).toHaveAttribute("aria-current", "page");
    await expectAccessible(page);
  });
});

test("the offline banner appears when the connection drops", async ({ page, context, learner: _ }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "connectivity events need JavaScript");
  await page.goto("/");
  await waitForHydration(page);
  await context.setOffline(true);
  await expect(
    page.getByText("Você está offline. O chat e as aulas precisam de internet; os flashcards baixados funcionam offline."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Jogar flashcards baixados" })).toHaveAttribute("href", "/flashcard-v2/offline");
  await context.setOffline(false);
  await expect(page.getByText("Você está offline.", { exact: false })).toBeHidden();
});

test("the app is installable: manifest and a root-scoped service worker", async ({ page, request, baseURL }, testInfo) => {
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.ok()).toBe(true);
  const body = await manifest.json();
  expect(body).toMatchObject({ lang: "pt-BR", display: "standalone", start_url: "/" });
  expect(body.icons.some((icon: { sizes: string }) => icon.sizes === "512x512")).toBe(true);
  const sw = await request.get("/sw.js");
  expect(sw.ok()).toBe(true);
  expect(sw.headers()["content-type"]).toContain("javascript");
  // the script may control all of the origin, and is revalidated on every update check
  expect(sw.headers()["service-worker-allowed"]).toBe("/");
  expect(sw.headers()["cache-control"]).toBe("no-cache");
  const offline = await request.get("/offline.html");
  expect(await offline.text()).toContain("Você está offline");
  if (!jsEnabled(testInfo)) return; // registering a service worker needs JavaScript

  // the page registers it at scope "/" and it activates (its install precaches the offline page)
  await page.goto("/signin");
  const registration = await page.evaluate(async (ms) => {
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), ms));
    const ready = await Promise.race([navigator.serviceWorker.ready, timeout]);
    if (!ready) return `no service worker became active within ${ms} ms`;
    return { scope: ready.scope, script: ready.active?.scriptURL, registrations: (await navigator.serviceWorker.getRegistrations()).length };
  }, budget(10_000));
  expect(registration).toEqual({ scope: `${baseURL}/`, script: `${baseURL}/sw.js`, registrations: 1 });
  // Workbox keys precached files by their revision (`?__WB_REVISION__=…`).
  const precached = await page.evaluate(async () =>
    Promise.all(["/offline.html", "/flashcard-v2/offline"].map(async (url) => Boolean(await caches.match(url, { ignoreSearch: true })))),
  );
  expect(precached).toEqual([true, true]);
});

test("offline, a page falls back to the offline page, and the flashcards open the offline player", async ({ page, context }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "the service worker is registered by JavaScript");
  await page.goto("/signin");
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  await context.setOffline(true);
  await page.goto("/labs");
  await expect(page.getByRole("heading", { name: "Você está offline" })).toBeVisible();
  await expect(page.getByText("Flashcards baixados funcionam sem internet")).toBeVisible();
  await expect(page.getByRole("link", { name: "Praticar flashcards offline" })).toHaveAttribute("href", "/flashcard-v2/offline");
  await expectAccessible(page);
  await page.goto("/flashcard-v2/animais");
  await expect(page).toHaveURL(/\/flashcard-v2\/offline$/);
  await context.setOffline(false);
});

test("client error reports are validated and stored", async ({ request }, testInfo) => {
  const marker = `e2e ${testInfo.project.name} ${Date.now()} ${Math.random()}`;
  const reportedAt = new Date(Date.now() - 5_000);
  const ok = await request.post("/api/errors", {
    headers: { "User-Agent": "e2e-reporter/1.0" },
    data: {
      name: "TypeError",
      message: `x is undefined (${marker})`,
      url: "http://localhost/labs",
      context: { where: "e2e" },
      timestamp: reportedAt.toISOString(),
    },
  });
  expect(ok.status()).toBe(204);
  const bad = await request.post("/api/errors", { data: { name: 42, message: `bad (${marker})` } });
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toEqual({ error: "Relatório de erro inválido." });
  const big = await request.post("/api/errors", { data: { name: "E", message: `big (${marker}) ${"m".repeat(20_000)}` } });
  expect(big.status()).toBe(413);

  // exactly the valid one was stored, with what the browser sent (and the request's User-Agent)
  const stored = await withDb((db) =>
    db
      .select()
      .from(clientErrorReports)
      .where(sql`${clientErrorReports.message} like ${`%(${marker})%`}`),
  );
  expect(stored).toEqual([
    expect.objectContaining({
      name: "TypeError",
      message: `x is undefined (${marker})`,
      url: "http://localhost/labs",
      context: { where: "e2e" },
      userAgent: "e2e-reporter/1.0",
      userId: null,
      reportedAt,
    }),
  ]);
});
