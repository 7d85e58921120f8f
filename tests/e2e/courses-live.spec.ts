// Live comments: a Durable Object channel per lesson pushes "new comment" over a WebSocket and the
// lesson page revalidates without a reload; without JavaScript, posting reloads the page with the
// comment in place. Each test works on its own module + lesson rows (both projects share one database).
import { expect, test, type Browser, type BrowserContext, type Page, type TestInfo, type WebSocketRoute } from "@playwright/test";
import { eq } from "drizzle-orm";
import WebSocket from "ws";
import { lessons, modules } from "../../app/server/schema";
import { createConfirmedUser, LEARNER, PASSWORD, signIn, uniqueEmail, waitForHydration, withDb } from "./support";

type Lesson = { lessonId: string; moduleId: string };

async function createLesson(testInfo: TestInfo): Promise<Lesson> {
  return withDb(async (db) => {
    const label = `${testInfo.project.name}-${testInfo.workerIndex}-${Date.now()}`;
    // A negative order keeps this module out of the "next lesson" chain of every other module.
    const [module] = await db
      .insert(modules)
      .values({ title: `Ao vivo ${label}`, orderIndex: -1000 - Math.floor(Math.random() * 1e6), available: "yes" })
      .returning({ id: modules.id });
    const [lesson] = await db
      .insert(lessons)
      .values({ moduleId: module!.id, title: `Aula ao vivo ${label}`, videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", durationSeconds: 60 })
      .returning({ id: lessons.id });
    return { lessonId: lesson!.id, moduleId: module!.id };
  });
}

const removeLesson = ({ moduleId }: Lesson) => withDb((db) => db.delete(modules).where(eq(modules.id, moduleId)));

/** A separate browser (own cookies) with the project's settings, signed in. */
async function signedInPage(browser: Browser, testInfo: TestInfo, email: string, password: string): Promise<{ context: BrowserContext; page: Page }> {
  const { baseURL, javaScriptEnabled, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, javaScriptEnabled, locale, timezoneId });
  const page = await context.newPage();
  await page.goto("/signin");
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/$/);
  return { context, page };
}

/** Resolves when the page's live socket has completed its handshake (status 101), via Chromium's CDP. */
async function liveSocketOpened(page: Page): Promise<() => Promise<number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const opened = new Promise<number>((resolve) => {
    const seen = new Set<string>();
    cdp.on("Network.webSocketCreated", (event) => {
      if (event.url.includes("/live")) seen.add(event.requestId);
    });
    cdp.on("Network.webSocketHandshakeResponseReceived", (event) => {
      if (seen.has(event.requestId)) resolve(event.response.status);
    });
  });
  return () => opened;
}

async function postComment(page: Page, text: string) {
  await page.getByLabel("Escreva um comentário").fill(text);
  await page.getByRole("button", { name: "Comentar" }).click();
}

const commentWith = (page: Page, text: string) => page.getByTestId("comment").filter({ hasText: text });

test.describe("lesson comments, live", () => {
  let lesson: Lesson;
  test.beforeEach(async ({}, testInfo) => {
    lesson = await createLesson(testInfo);
  });
  test.afterEach(async () => {
    await removeLesson(lesson);
  });

  test("a new comment appears for another learner without a reload", async ({ browser }, testInfo) => {
    test.skip(testInfo.project.name !== "js", "live refresh needs JavaScript; the no-js project checks the reload instead");
    const otherEmail = uniqueEmail(testInfo, "ao-vivo");
    await createConfirmedUser(otherEmail, PASSWORD, "Bruna Ao Vivo");
    const a = await signedInPage(browser, testInfo, LEARNER.email, LEARNER.password);
    const b = await signedInPage(browser, testInfo, otherEmail, PASSWORD);
    const path = `/courses/lessons/${lesson.lessonId}?tab=comentarios`; // the comments tab, with JS or without

    const bSocketOpened = await liveSocketOpened(b.page);
    const bFrames: string[] = [];
    b.page.on("websocket", (socket) => socket.on("framereceived", (frame) => bFrames.push(String(frame.payload))));
    await b.page.goto(path);
    await waitForHydration(b.page);
    expect(await bSocketOpened()).toBe(101);
    // Survives client-side revalidation, not a reload; and no main-frame navigation may happen.
    await b.page.evaluate(() => ((window as unknown as { __liveMarker: string }).__liveMarker = "sem-reload"));
    let bNavigations = 0;
    b.page.on("framenavigated", (frame) => {
      if (frame === b.page.mainFrame()) bNavigations++;
    });
    await expect(commentWith(b.page, "Olá ao vivo")).toHaveCount(0);

    await a.page.goto(path);
    await waitForHydration(a.page);
    const text = `Olá ao vivo ${Date.now()} <script>alert(1)</script>`;
    await postComment(a.page, text);
    await expect(commentWith(a.page, text)).toBeVisible();

    // Well within the 30 s fallback poll: this is the push.
    await expect(commentWith(b.page, text)).toBeVisible({ timeout: 10_000 });
    expect(await b.page.evaluate(() => (window as unknown as { __liveMarker?: string }).__liveMarker)).toBe("sem-reload");
    expect(bNavigations).toBe(0);
    expect(b.page.url()).toContain(path);
    // The push says only that something changed: no comment content travels on the socket.
    expect(bFrames).toContain(JSON.stringify({ type: "comment", lessonId: lesson.lessonId }));
    expect(bFrames.join("\n")).not.toContain("Olá ao vivo");

    await a.context.close();
    await b.context.close();
  });

  test("after the socket drops, the page reconnects, catches up and keeps receiving", async ({ browser }, testInfo) => {
    test.skip(testInfo.project.name !== "js", "live refresh needs JavaScript");
    const otherEmail = uniqueEmail(testInfo, "reconecta");
    await createConfirmedUser(otherEmail);
    const a = await signedInPage(browser, testInfo, LEARNER.email, LEARNER.password);
    const b = await signedInPage(browser, testInfo, otherEmail, PASSWORD);
    const path = `/courses/lessons/${lesson.lessonId}?tab=comentarios`; // the comments tab, with JS or without

    // B's socket goes through Playwright to the real server. The first connection is cut once open;
    // the reconnect is held until A has posted, so B can only learn of that comment by catching up.
    let connections = 0;
    let firstRoute: WebSocketRoute | undefined;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await b.page.routeWebSocket(/\/live$/, async (socket) => {
      connections++;
      if (connections === 1) firstRoute = socket;
      if (connections === 2) await released;
      socket.connectToServer();
    });
    const bSocketOpened = await liveSocketOpened(b.page);
    await b.page.goto(path);
    await waitForHydration(b.page);
    expect(await bSocketOpened()).toBe(101);
    await b.page.evaluate(() => ((window as unknown as { __liveMarker: string }).__liveMarker = "sem-reload"));
    await firstRoute!.close({ code: 1001, reason: "queda" });
    await expect.poll(() => connections, { timeout: 5_000 }).toBe(2); // reconnect attempt after ~1 s

    await a.page.goto(path);
    await waitForHydration(a.page);
    const first = `Durante a queda ${Date.now()}`;
    await postComment(a.page, first);
    await expect(commentWith(a.page, first)).toBeVisible();
    await b.page.waitForTimeout(500);
    await expect(commentWith(b.page, first)).toHaveCount(0);
    release();
    await expect(commentWith(b.page, first)).toBeVisible({ timeout: 10_000 });

    const second = `Depois da volta ${Date.now()}`;
    await postComment(a.page, second);
    await expect(commentWith(b.page, second)).toBeVisible({ timeout: 10_000 });
    expect(await b.page.evaluate(() => (window as unknown as { __liveMarker?: string }).__liveMarker)).toBe("sem-reload");

    await a.context.close();
    await b.context.close();
  });

  test("without a socket the page falls back to revalidating every 30 s", async ({ browser }, testInfo) => {
    test.skip(testInfo.project.name !== "js", "live refresh needs JavaScript");
    const otherEmail = uniqueEmail(testInfo, "sem-socket");
    await createConfirmedUser(otherEmail);
    const a = await signedInPage(browser, testInfo, LEARNER.email, LEARNER.password);
    const b = await signedInPage(browser, testInfo, otherEmail, PASSWORD);
    const path = `/courses/lessons/${lesson.lessonId}?tab=comentarios`; // the comments tab, with JS or without

    // Every socket B opens is refused (a network that blocks WebSockets); B's timers run on a fake clock.
    let attempts = 0;
    await b.page.routeWebSocket(/\/live$/, (socket) => {
      attempts++;
      socket.close({ code: 1011, reason: "blocked" });
    });
    await b.page.clock.install();
    await b.page.goto(path);
    await waitForHydration(b.page);
    await expect.poll(() => attempts).toBeGreaterThan(0);

    await a.page.goto(path);
    await waitForHydration(a.page);
    const text = `Pelo plano B ${Date.now()}`;
    await postComment(a.page, text);
    await expect(commentWith(a.page, text)).toBeVisible();
    await expect(commentWith(b.page, text)).toHaveCount(0);

    await b.page.clock.runFor(31_000); // past the 30 s poll and its debounce
    await expect(commentWith(b.page, text)).toBeVisible({ timeout: 10_000 });
    // Reconnects backed off 1 s, 2 s, 4 s, 8 s, 16 s: at most 6 tries in 31 s, not one per tick.
    expect(attempts).toBeLessThanOrEqual(6);

    await a.context.close();
    await b.context.close();
  });

  test("without JavaScript, posting reloads the page with the comment in place", async ({ browser }, testInfo) => {
    test.skip(testInfo.project.name !== "no-js", "the js project checks the live push instead");
    const a = await signedInPage(browser, testInfo, LEARNER.email, LEARNER.password);
    const path = `/courses/lessons/${lesson.lessonId}?tab=comentarios`; // the comments tab, with JS or without
    await a.page.goto(path);
    const text = `Sem JavaScript ${Date.now()}`;
    await postComment(a.page, text);
    await expect(a.page).toHaveURL(new RegExp(`/courses/lessons/${lesson.lessonId}(\\?.*)?(#.*)?$`));
    await expect(commentWith(a.page, text)).toBeVisible();
    await a.context.close();
  });
});

test.describe("lesson live channel endpoint", () => {
  const liveUrl = (testInfo: TestInfo, lessonId: string) =>
    `${String(testInfo.project.use.baseURL).replace(/^http/, "ws")}/resources/lessons/${lessonId}/live`;

  /** Opens a WebSocket from Node; resolves with the socket or the HTTP status that refused it. */
  const open = (url: string, headers: Record<string, string>) =>
    new Promise<WebSocket | number>((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.on("open", () => resolve(socket));
      socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      socket.on("error", reject);
    });

  test("only signed-in, unblocked learners get a socket; it answers ping with pong", async ({ browser }, testInfo) => {
    test.skip(testInfo.project.name !== "js", "no page involved; run once");
    const url = liveUrl(testInfo, "0b6f4c1e-4a8d-4a55-9a58-2d1f3c3e0a01");
    const origin = String(testInfo.project.use.baseURL);

    expect(await open(url, { Origin: origin })).toBe(401);

    const { context } = await signedInPage(browser, testInfo, LEARNER.email, LEARNER.password);
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    await context.close();
    expect(await open(url, { Origin: "https://outro-site.example", Cookie: cookie })).toBe(403);

    const socket = await open(url, { Origin: origin, Cookie: cookie });
    expect(socket).toBeInstanceOf(WebSocket);
    const ws = socket as WebSocket;
    const reply = new Promise<string>((resolve) => ws.once("message", (data) => resolve(String(data))));
    ws.send("ping");
    expect(await reply).toBe("pong");
    ws.close();

    const plain = await fetch(url.replace(/^ws/, "http"), { headers: { Cookie: cookie } });
    expect(plain.status).toBe(426);
  });
});
