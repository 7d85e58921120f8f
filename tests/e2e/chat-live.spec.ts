// Conversa ao vivo in a real browser: Chromium's fake microphone loops 1 s of "speech" then 2.5 s of silence, the app
// relays it through the learner's LiveConversation object (wrangler dev) to the fake realtime provider, whose reply is
// a 440 Hz tone long enough for the learner's next "sentence" to speak over it. Without JavaScript the page explains
// that live conversation needs it and links the text and voice-message chat.
import type { APIRequestContext } from "@playwright/test";
import { chatConversations } from "../../app/features/conversation/tables";
import { LIVE_CLOSE } from "../../app/features/live/protocol";
import {
  budget,
  expect,
  expectAccessible,
  FAKE_UPSTREAM,
  fakeMicrophone,
  jsEnabled,
  PASSWORD,
  test,
  userByEmail,
  userById,
  waitForHydration,
  withDb,
} from "./support";

test.use(fakeMicrophone("live", { seconds: 1, hz: 300, silence: 2.5 }));
// One worker, in order: the talking test resets the fake provider, which would close the other tests' sessions.
test.describe.configure({ mode: "default" });

type ProviderSession = { truncates: { item_id: string; audio_end_ms: number }[]; cancels: number; closedAt: number | null };
const providerSessions = async (): Promise<ProviderSession[]> => (await fetch(`${FAKE_UPSTREAM}/__live/sessions`)).json();
const REPLY = "Hi! I'm fine, thank you. How are you today?";

/** The fake provider is one for the whole run: only the test that talks resets it (a reset closes its sockets). */
async function longReplies() {
  await fetch(`${FAKE_UPSTREAM}/__live/reset`, { method: "POST" });
  await fetch(`${FAKE_UPSTREAM}/__live/config`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ replyMs: 6000, pace: 1, reply: REPLY }),
  });
}

test("the learner talks with Nika live: captions both ways, Nika stops when spoken over, the turns join the chat", async ({
  page,
  learner,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "without JavaScript: the next test");
  test.setTimeout(budget(90_000));
  await longReplies();
  await page.goto("/chat-with-nika/english");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Conversa ao vivo" }).click();
  await expect(page).toHaveURL(/\/chat-with-nika\/english\/ao-vivo\?c=/);
  const live = page.getByTestId("live-conversation");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Começar conversa" }).click();

  // The learner's words, captioned, then Nika's voice and words.
  const captions = page.getByTestId("live-captions");
  await expect(captions.locator('[data-speaker="learner"]').first()).toContainText("Hello Nika, how are you?", { timeout: budget(20_000) });
  await expect(live).toHaveAttribute("data-live-state", "nika_speaking", { timeout: budget(15_000) });
  await expect(captions.locator('[data-speaker="nika"]').first()).toContainText("Hi!");

  // The next "sentence" of the microphone comes while Nika still speaks: her playback stops and the provider is told
  // to forget what was not heard (a truncate at the milliseconds actually played, less than her 6 s).
  await expect.poll(async () => (await providerSessions()).at(-1)?.truncates.length ?? 0, { timeout: budget(20_000) }).toBeGreaterThan(0);
  const [truncate] = (await providerSessions()).at(-1)!.truncates;
  expect(truncate!.audio_end_ms).toBeGreaterThan(0);
  expect(truncate!.audio_end_ms).toBeLessThan(6000);
  await expect(live).not.toHaveAttribute("data-live-state", "nika_speaking");

  await expectAccessible(page); // with the captions of both sides
  const conversation = new URL(page.url()).searchParams.get("c")!;
  await page.getByRole("button", { name: "Encerrar" }).click();
  // "Encerrar" ends on the conversation's report, once the relay has closed the session.
  await expect(page).toHaveURL(`/conversas/${conversation}/resumo`);
  await expect(page.getByRole("heading", { level: 1, name: "Resumo da conversa" })).toBeVisible();
  await expect(page.getByTestId("report-live-minutes")).toHaveText("1 minuto");
  await expectAccessible(page);
  await expect.poll(async () => (await providerSessions()).at(-1)?.closedAt ?? null).not.toBeNull();
  expect((await userByEmail(learner.email)).monthlyCredits).toBe(49); // 50, one minute begun

  // The text chat of the same conversation has the turns.
  await page.getByRole("link", { name: "Voltar à conversa" }).click();
  await expect(page).toHaveURL(/\/chat-with-nika\/english\?c=/);
  await expect(page.locator('[data-role="user"]').getByTestId("message-text").first()).toHaveText("Hello Nika, how are you?");
  await expect(page.locator('[data-role="nika"]').getByTestId("message-text").last()).toContainText("Hi!");
});

test("without JavaScript the page says live conversation needs it and links the text and voice chat", async ({ page, learner: _ }, testInfo) => {
  test.skip(jsEnabled(testInfo), "the page as it is without JavaScript");
  await page.goto("/chat-with-nika/english");
  await page.getByRole("link", { name: "Conversa ao vivo" }).click();
  await expect(page.getByText("A conversa ao vivo precisa de JavaScript.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Começar conversa" })).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole("link", { name: "Ir para o chat por texto e voz" }).click();
  await expect(page).toHaveURL(/\/chat-with-nika\/english\?c=/);
});

/** A live socket opened the way the page opens it (own origin, the learner's cookie), and what it was closed with. */
async function openLiveSocket(cookie: string, conversationId: string) {
  const { WebSocket } = await import("ws");
  const socket = new WebSocket(`ws://localhost:8797/resources/live/${conversationId}`, {
    headers: { Cookie: cookie, Origin: "http://localhost:8797" },
  });
  const closed = new Promise<{ code: number; at: number }>((resolve) => socket.on("close", (code) => resolve({ code, at: Date.now() })));
  const ready = new Promise<void>((resolve, reject) => {
    socket.on("message", (data, binary) => {
      if (!binary && (JSON.parse(String(data)) as { type: string }).type === "ready") resolve();
    });
    socket.on("unexpected-response", (_request, response) => reject(new Error(`refused: ${response.statusCode}`)));
    socket.on("error", reject);
  });
  return { socket, closed, ready };
}

for (const [how, end] of [
  ["signing out", (request: APIRequestContext, cookie: string) => request.post("/signout", { headers: { Cookie: cookie }, maxRedirects: 0 })],
  [
    "changing the password",
    (request: APIRequestContext, cookie: string) =>
      request.post("/config/senha", {
        headers: { Cookie: cookie },
        form: { currentPassword: PASSWORD, newPassword: "Outra2024", confirmPassword: "Outra2024" },
        maxRedirects: 0,
      }),
  ],
] as const) {
  test(`${how} closes the learner's live socket within a second (access lost); the old cookie opens nothing`, async ({
    request,
    createAccount,
  }, testInfo) => {
    test.skip(!jsEnabled(testInfo), "a socket and two requests: once is enough");
    const account = await createAccount("learner");
    const [conversation] = await withDb((db) =>
      db.insert(chatConversations).values({ userId: account.id, mode: "english" }).returning({ id: chatConversations.id }),
    );
    const live = await openLiveSocket(account.cookie, conversation!.id);
    await live.ready;
    const answered = await end(request, account.cookie);
    expect(answered.status()).toBeLessThan(400);
    const endedAt = Date.now();
    const { code, at } = await live.closed;
    expect(code).toBe(LIVE_CLOSE.accessLost);
    expect(at - endedAt).toBeLessThan(1000);
    const credits = (await userById(account.id)).monthlyCredits;
    if (how === "signing out") {
      await expect(openLiveSocket(account.cookie, conversation!.id).then((again) => again.ready)).rejects.toThrow("refused: 401");
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await userById(account.id)).monthlyCredits, "nothing more is charged").toBe(credits);
  });
}
