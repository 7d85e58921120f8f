// Conversa ao vivo in a real browser: Chromium's fake microphone loops 1 s of "speech" then 2.5 s of silence, the app
// relays it through the learner's LiveConversation object (wrangler dev) to the fake realtime provider, whose reply is
// a 440 Hz tone long enough for the learner's next "sentence" to speak over it. Without JavaScript the page explains
// that live conversation needs it and links the text and voice-message chat.
import { budget, expect, expectAccessible, FAKE_UPSTREAM, fakeMicrophone, jsEnabled, test, userByEmail, waitForHydration } from "./support";

test.use(fakeMicrophone("live", { seconds: 1, hz: 300, silence: 2.5 }));

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

  await page.getByRole("button", { name: "Encerrar" }).click();
  await expect(live).toHaveAttribute("data-live-state", "ended");
  await expectAccessible(page); // with the captions of both sides and the end message
  await expect.poll(async () => (await providerSessions()).at(-1)?.closedAt ?? null).not.toBeNull();
  expect((await userByEmail(learner.email)).monthlyCredits).toBe(49); // 50, one minute begun

  // The text chat of the same conversation has the turns.
  await page.getByTestId("live-back-to-chat").click();
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
