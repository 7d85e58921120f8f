// A voice message recorded with Chromium's fake microphone, fed from a WAV file (its own browser
// launch: the flags apply to the whole browser).
import { expect, FAKE_UPSTREAM, fakeMicrophone, jsEnabled, test, waitForHydration } from "./support";

test.use(fakeMicrophone("voice", { seconds: 3, hz: 300 }));

const reply = (text: string) => `Você disse: "${text}". Muito bem, continue praticando!`;

test("a recorded message is transcribed, shown as the learner's voice and answered", async ({ page, learner: _ }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "recording needs JavaScript");
  await page.goto("/chat-with-nika/english");
  const nika = page.locator('[data-testid="chat-message"][data-role="nika"]');
  await expect(nika.first().getByTestId("message-text")).toHaveText(reply("start"));
  await waitForHydration(page);

  await page.getByRole("button", { name: "Gravar mensagem de voz" }).click();
  const stop = page.getByRole("button", { name: "Parar e enviar a gravação" });
  await expect(stop).toBeVisible();
  await expect(stop).toContainText("0:02"); // the recording's own clock: two seconds of speech
  await stop.click();
  const voice = page.locator('[data-role="user"]');
  await expect(voice).toContainText("Mensagem de voz");
  // the fake transcriber answers with its configured transcript (default: "I like to play football")
  await expect(voice.getByTestId("message-text")).toHaveText("I like to play football");
  await expect(nika.last().getByTestId("message-text")).toHaveText(reply("I like to play football"));
  await expect(page.getByTestId("chat-credits")).toHaveText("49 créditos");

  const requests = (await (await fetch(`${FAKE_UPSTREAM}/__ai/requests`)).json()) as {
    path: string;
    body: { file?: { type: string; size: number } };
  }[];
  const sent = requests.filter((r) => r.path === "/v1/audio/transcriptions").at(-1)!;
  expect(sent.body.file!.type).toBe("audio/wav");
  // ≈1.5 s of 16 kHz mono 16-bit PCM: 44-byte header + ~32 000 bytes per second
  expect(sent.body.file!.size).toBeGreaterThan(30_000);
  expect((sent.body.file!.size - 44) % 2).toBe(0);

  // after a reload the learner's recording is still there (stored in R2, served to its owner)
  await page.reload();
  await expect(page.locator('[data-role="user"]')).toContainText("Mensagem de voz");
  await expect(page.locator('[data-role="user"]').getByRole("button", { name: "Ouvir sua mensagem de voz" })).toBeVisible();
});
