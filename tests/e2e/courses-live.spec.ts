// Live comments: a Durable Object channel per lesson pushes "new comment" over a WebSocket and the
// lesson page revalidates without a reload; without JavaScript, posting reloads the page with the
// comment in place. Each test works on its own module + lesson rows (both projects share one database).
import type { Page, TestInfo, WebSocketRoute } from "@playwright/test";
import WebSocket from "ws";
import { budget, commentWith, expect, test, waitForHydration, type AccountOptions, type TestCourse } from "./support";

/** The comments tab of the course's lesson, with JS or without. */
const commentsPath = (course: TestCourse) => `/courses/lessons/${course.lessons[0]!.id}?tab=comentarios`;

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

/** A live test's course and B, another learner in another browser; `path` is the lesson's comments tab. */
type Live = { course: TestCourse; b: Page; path: string };

/**
 * `live(options)`: the live refresh needs JavaScript (the no-js project skips); a course of its own and
 * B, signed in as a new learner (`options`: its label and name). A is the test's own page (`learner`).
 */
const liveTest = test.extend<{ live: (b: AccountOptions) => Promise<Live> }>({
  live: async ({ learner: _, createAccount, createCourse, pageAs }, use, testInfo) => {
    await use(async (options) => {
      test.skip(testInfo.project.name !== "js", "live refresh needs JavaScript; the no-js project checks the reload instead");
      const course = await createCourse({ label: "Ao vivo" });
      const b = await pageAs(await createAccount("learner", options));
      return { course, b, path: commentsPath(course) };
    });
  },
});

/** B opens the comments tab with its live socket (handshake 101) and marks the window, to tell a reload apart. */
async function watch(b: Page, path: string) {
  const bSocketOpened = await liveSocketOpened(b);
  await b.goto(path);
  await waitForHydration(b);
  expect(await bSocketOpened()).toBe(101);
  await b.evaluate(() => ((window as unknown as { __liveMarker: string }).__liveMarker = "sem-reload"));
}

/** B's page was refreshed in place: the mark set by `watch` survived (no reload). */
async function expectNotReloaded(b: Page) {
  expect(await b.evaluate(() => (window as unknown as { __liveMarker?: string }).__liveMarker)).toBe("sem-reload");
}

/** A opens the comments tab, posts `text` and sees it. */
async function postAsA(a: Page, path: string, text: string) {
  await a.goto(path);
  await waitForHydration(a);
  await postComment(a, text);
  await expect(commentWith(a, text)).toBeVisible();
}

test.describe("lesson comments, live", () => {
  liveTest("a new comment appears for another learner without a reload", async ({ page: a, live }) => {
    const { course, b, path } = await live({ label: "ao-vivo", name: "Bruna Ao Vivo" });
    const bFrames: string[] = [];
    b.on("websocket", (socket) => socket.on("framereceived", (frame) => bFrames.push(String(frame.payload))));
    // Survives client-side revalidation, not a reload; and no main-frame navigation may happen.
    await watch(b, path);
    let bNavigations = 0;
    b.on("framenavigated", (frame) => {
      if (frame === b.mainFrame()) bNavigations++;
    });
    await expect(commentWith(b, "Olá ao vivo")).toHaveCount(0);

    const text = `Olá ao vivo ${Date.now()} <script>alert(1)</script>`;
    await postAsA(a, path, text);

    // Well within the 30 s fallback poll: this is the push.
    await expect(commentWith(b, text)).toBeVisible({ timeout: budget(10_000) });
    await expectNotReloaded(b);
    expect(bNavigations).toBe(0);
    expect(b.url()).toContain(path);
    // The push says only that something changed: no comment content travels on the socket.
    expect(bFrames).toContain(JSON.stringify({ type: "comment", lessonId: course.lessons[0]!.id }));
    expect(bFrames.join("\n")).not.toContain("Olá ao vivo");
  });

  liveTest("after the socket drops, the page reconnects, catches up and keeps receiving", async ({ page: a, live }) => {
    const { b, path } = await live({ label: "reconecta" });

    // B's socket goes through Playwright to the real server. The first connection is cut once open;
    // the reconnect is held until A has posted, so B can only learn of that comment by catching up.
    let connections = 0;
    let firstRoute: WebSocketRoute | undefined;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await b.routeWebSocket(/\/live$/, async (socket) => {
      connections++;
      if (connections === 1) firstRoute = socket;
      if (connections === 2) await released;
      socket.connectToServer();
    });
    await watch(b, path);
    await firstRoute!.close({ code: 1001, reason: "queda" });
    await expect.poll(() => connections, { timeout: budget(5_000) }).toBe(2); // reconnect attempt after ~1 s

    const first = `Durante a queda ${Date.now()}`;
    await postAsA(a, path, first);
    await b.waitForTimeout(500);
    await expect(commentWith(b, first)).toHaveCount(0);
    release();
    await expect(commentWith(b, first)).toBeVisible({ timeout: budget(10_000) });

    const second = `Depois da volta ${Date.now()}`;
    await postComment(a, second);
    await expect(commentWith(b, second)).toBeVisible({ timeout: budget(10_000) });
    await expectNotReloaded(b);
  });

  liveTest("without a socket the page falls back to revalidating every 30 s", async ({ page: a, live }) => {
    const { b, path } = await live({ label: "sem-socket" });

    // Every socket B opens is refused (a network that blocks WebSockets); B's timers run on a fake clock.
    let attempts = 0;
    await b.routeWebSocket(/\/live$/, (socket) => {
      attempts++;
      socket.close({ code: 1011, reason: "blocked" });
    });
    await b.clock.install();
    await b.goto(path);
    await waitForHydration(b);
    await expect.poll(() => attempts).toBeGreaterThan(0);

    const text = `Pelo plano B ${Date.now()}`;
    await postAsA(a, path, text);
    await expect(commentWith(b, text)).toHaveCount(0);

    await b.clock.runFor(31_000); // past the 30 s poll and its debounce
    await expect(commentWith(b, text)).toBeVisible({ timeout: budget(10_000) });
    // Reconnects backed off 1 s, 2 s, 4 s, 8 s, 16 s: at most 6 tries in 31 s, not one per tick.
    expect(attempts).toBeLessThanOrEqual(6);
  });

  test("without JavaScript, posting reloads the page with the comment in place", async ({ page: a, learner: _, createCourse }, testInfo) => {
    test.skip(testInfo.project.name !== "no-js", "the js project checks the live push instead");
    const course = await createCourse({ label: "Ao vivo" });
    const lessonId = course.lessons[0]!.id;
    const path = commentsPath(course);
    await a.goto(path);
    const text = `Sem JavaScript ${Date.now()}`;
    await postComment(a, text);
    await expect(a).toHaveURL(new RegExp(`/courses/lessons/${lessonId}(\\?.*)?(#.*)?$`));
    await expect(commentWith(a, text)).toBeVisible();
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

  test("only signed-in, unblocked learners get a socket; it answers ping with pong", async ({ createAccount }, testInfo) => {
    test.skip(testInfo.project.name !== "js", "no page involved; run once");
    const url = liveUrl(testInfo, "0b6f4c1e-4a8d-4a55-9a58-2d1f3c3e0a01");
    const origin = String(testInfo.project.use.baseURL);

    expect(await open(url, { Origin: origin })).toBe(401);
    expect(await open(url, { Origin: origin, Cookie: (await createAccount("blocked")).cookie })).toBe(403);

    const { cookie } = await createAccount("learner");
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
