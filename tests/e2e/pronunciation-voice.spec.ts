// A pronunciation attempt recorded with Chromium's fake microphone (fed a WAV; its own browser launch,
// as the flags apply to the whole browser) through the app's one recorder: level 1 scored with every
// word, then the list shows the new best score.
import { eq } from "drizzle-orm";
import { pronunciationAttempts } from "../../app/features/pronunciation/tables";
import { budget, expect, FAKE_UPSTREAM, fakeMicrophone, jsEnabled, test, visit, withDb } from "./support";

test.use(fakeMicrophone("pronunciation-voice", { seconds: 3, hz: 260 }));

test("a recording from the microphone is scored at level 1, word by word", async ({ page, learner }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "recording needs JavaScript (without it the page offers the file form)");
  await visit(page, "/pronunciation-game/1");
  const sentence = (await page.getByRole("heading", { level: 1 }).innerText()).trim();
  await page.getByRole("button", { name: "Gravar", exact: true }).click();
  const stop = page.getByRole("button", { name: "Parar e enviar" });
  await expect(stop).toBeVisible();
  await expect(page.getByText("Gravando… 2s")).toBeVisible(); // the recording's own clock: two seconds of speech
  await stop.click();
  const result = page.getByTestId("pronunciation-result");
  await expect(result).toBeVisible({ timeout: budget(15_000) });
  await expect(result.getByTestId("word-result")).toHaveCount(sentence.replace(/[.,!?]/g, "").split(/\s+/).length);

  // what reached the scorer: 16 kHz mono 16-bit WAV of ~1.5 s
  const requests = (await (await fetch(`${FAKE_UPSTREAM}/__ai/requests`)).json()) as {
    path: string;
    assessment?: { ReferenceText: string };
    audio?: { sampleRate: number; channels: number; bitsPerSample: number; size: number };
  }[];
  const sent = requests.filter((r) => r.path === "/azure" && r.assessment?.ReferenceText === sentence).at(-1)!;
  expect(sent.audio).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
  expect(sent.audio!.size).toBeGreaterThan(30_000);
  const [attempt] = await withDb((db) => db.select().from(pronunciationAttempts).where(eq(pronunciationAttempts.userId, learner.id)));
  expect(attempt).toMatchObject({ status: "scored", level: 1 });
  expect(attempt!.audioKey).toMatch(/\.wav$/);

  await page.getByRole("link", { name: "Voltar aos níveis" }).click();
  const overall = Math.round(attempt!.overallScore!);
  await expect(page.getByTestId("level-card").first()).toHaveAccessibleName(new RegExp(`^Nível 1: recorde ${overall},`));
});
