// A word the pronunciation game scored below 60 comes back in Revisão as a pronunciation card, JS on and off: the word
// and its sentence, no score before Verificar; with JavaScript "Ouvir" and the app's one recorder (Chromium's fake
// microphone, fed a WAV: its own browser launch), without it the file input of a multipart form. The fake upstream's
// Azure scores the word 95: right, so the word's FSRS moves later, and the game's one credit is all it costs. axe passes.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { notebookEntries } from "../../app/features/notebook/tables";
import { encodeWav } from "../../app/lib/audio/wav";
import { creditLedger } from "../../app/server/schema";
import { budget, expect, expectAccessible, fakeMicrophone, FAKE_UPSTREAM, jsEnabled, test, visit, waitForHydration, withDb } from "./support";

test.use(fakeMicrophone("notebook-pronunciation", { seconds: 3, hz: 240 }));

// The file the no-JS form uploads; not the microphone's file, which fakeMicrophone owns.
const wavPath = join(tmpdir(), `nika-e2e-notebook-pronunciation-upload.${process.pid}.wav`);
writeFileSync(
  wavPath,
  encodeWav(
    new Float32Array(16_000).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / 16_000)),
    16_000,
  ),
);

const WORD = "thought";
const SENTENCE = "I thought about you yesterday.";

test("a weak word of the pronunciation game is a Revisão card: heard, recorded, scored after Verificar, due later", async ({
  page,
  learner,
}, testInfo) => {
  const js = jsEnabled(testInfo);
  const [entry] = await withDb((db) =>
    db
      .insert(notebookEntries)
      .values({
        userId: learner.id,
        kind: "pronunciation",
        wrong: WORD,
        right: WORD,
        rightKey: WORD,
        explanation: `Sua pronúncia de “${WORD}” teve nota 42 de 100 no nível 3.`,
        alternatives: [],
        source: "pronunciation",
        details: { level: 3, sentence: SENTENCE, score: 42 },
        due: new Date(Date.now() - 60_000),
      })
      .returning(),
  );

  await visit(page, "/");
  await expect(page.getByTestId("plan-mistakes")).toContainText("Revisar seus erros (1)");
  await visit(page, "/flashcard-v2");
  if (js) await waitForHydration(page);
  await page.getByTestId("review-tile").click();
  await expect(page).toHaveURL(/\/flashcard-v2\/[0-9a-f-]{36}/);
  if (js) await waitForHydration(page);

  const card = page.getByRole("group", { name: "Pronuncie a palavra" });
  await expect(card).toBeVisible();
  const prompt = page.getByTestId("pronunciation-word");
  await expect(prompt).toContainText(WORD);
  await expect(prompt).toContainText(SENTENCE);
  // Nothing says the score before Verificar.
  await expect(page.getByTestId("flashcard-feedback")).toHaveCount(0);
  await expect(page.getByText(/de 100/)).toHaveCount(0);
  if (js) await expect(page.getByRole("button", { name: `Ouvir ${WORD}` })).toBeVisible();
  else await expect(page.getByRole("button", { name: `Ouvir ${WORD}` })).toHaveCount(0);
  await expectAccessible(page);

  if (js) {
    const verify = page.getByRole("button", { name: "Verificar" });
    await expect(verify).toBeDisabled();
    await card.getByRole("button", { name: "Gravar", exact: true }).click();
    await expect(page.getByText("Gravando… 1s")).toBeVisible();
    await card.getByRole("button", { name: "Parar" }).click();
    await expect(page.getByText("Gravação pronta. Toque em Verificar.")).toBeVisible({ timeout: budget(10_000) });
    await verify.click();
  } else {
    await expect(page.locator('input[type="file"][name="audio"]')).toHaveAttribute("capture", "user");
    await page.getByLabel("Grave ou escolha um áudio da palavra").setInputFiles(wavPath);
    await page.getByRole("button", { name: "Verificar" }).click();
    await expect(page).toHaveURL(/\?q=1#resposta$/);
  }

  const feedback = page.getByTestId("flashcard-feedback");
  await expect(feedback).toContainText("Correto!", { timeout: budget(15_000) });
  await expect(feedback).toContainText(`${WORD}: Sua nota: 95 de 100.`);
  await expectAccessible(page);

  // The word reached the scorer alone, as its reference text.
  const requests = (await (await fetch(`${FAKE_UPSTREAM}/__ai/requests`)).json()) as { path: string; assessment?: { ReferenceText: string } }[];
  expect(requests.some((r) => r.path === "/azure" && r.assessment?.ReferenceText === WORD)).toBe(true);

  await page.getByRole("link", { name: "Finalizar" }).click();
  await expect(page.getByTestId("flashcards-result")).toBeVisible();
  const [stored] = await withDb((db) => db.select().from(notebookEntries).where(eq(notebookEntries.id, entry!.id)));
  expect(stored).toMatchObject({ reps: 1, state: "practising" });
  expect(stored!.due.getTime()).toBeGreaterThan(Date.now() + 86_400_000);
  const ledger = await withDb((db) => db.select().from(creditLedger).where(eq(creditLedger.userId, learner.id)));
  expect(ledger.map((row) => [row.delta, row.reason])).toEqual([[-1, "flashcards"]]);

  await visit(page, "/");
  await expect(page.getByTestId("plan-mistakes")).toHaveAttribute("data-done", "true");
});
