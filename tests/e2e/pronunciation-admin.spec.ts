// Pronunciation admin journeys (issue 10, "Content"), with JavaScript on (the form in a dialog over the
// levels' list) and off (a page section): an admin edits a level's sentence and translation and uploads
// a better recording — stored in R2, what the learners' level page then shows and plays — and goes back to
// the shipped recording (the upload is deleted). Each project edits a level of its own that no learner
// journey plays (the projects run at once on one database), and puts the row back afterwards. Refusals
// (types, sizes, fields, levels out of range) are covered by tests/integration/pronunciation-admin.test.ts.
import { readFileSync } from "node:fs";
import type { TestInfo } from "@playwright/test";
import { eq } from "drizzle-orm";
import { pronunciationLevels } from "../../app/features/pronunciation/tables";
import { adminPanel, expect, expectAccessible, jsEnabled, test, visit, withDb } from "./support";

const LIST = "/pronunciation-game/admin";
const MP3_PATH = "content/flashcards/audio/animais-cat.mp3";
/** One level per project, far from level 1 (which the learners' journeys play). */
const OWN_LEVEL = { js: 61, "no-js": 62 } as const;

const levelOf = (testInfo: TestInfo) => OWN_LEVEL[testInfo.project.name as keyof typeof OWN_LEVEL];
const levelRecord = (level: number) =>
  withDb(async (db) => (await db.select().from(pronunciationLevels).where(eq(pronunciationLevels.level, level)))[0]!);
/** Letters only (the sentence takes no digits): this run's own word. */
const uniqueWord = () => String(Date.now()).replace(/\d/g, (digit) => "abcdefghij"[Number(digit)]!);

test("an admin edits a level's sentence and uploads a recording, then goes back to the shipped one", async ({ page, admin: _ }, testInfo) => {
  const level = levelOf(testInfo);
  const original = await levelRecord(level);
  const sentence = `The ${jsEnabled(testInfo) ? "quick" : "slow"} fox says ${uniqueWord()}.`;
  const translation = "A raposa diz uma palavra nova.";
  const row = page.locator(`#nivel-${level}`);
  try {
    await visit(page, LIST);
    await expect(page.getByRole("heading", { level: 1, name: "Níveis de pronúncia" })).toBeVisible();
    await expect(row).toContainText(original.sentence);
    await row.getByRole("link", { name: `Editar nível ${level}` }).click();
    await expect(page).toHaveURL(`${LIST}/${level}#painel-admin`);
    const panel = adminPanel(page, testInfo, "Editar nível");
    await expect(panel).toBeVisible();
    await expect(panel.getByLabel("Frase em inglês")).toHaveValue(original.sentence);
    await expectAccessible(page);

    // a sentence the scorers cannot read is refused in pt-BR, the translation typed is kept
    await panel.getByLabel("Frase em inglês").fill("Olá, 3 gatos");
    await panel.getByLabel("Tradução").fill(translation);
    await panel.getByRole("button", { name: "Salvar nível" }).click();
    await expect(panel.getByText("Use só letras sem acento, espaços e pontuação simples").first()).toBeVisible();
    await expect(panel.getByLabel("Tradução")).toHaveValue(translation);
    expect((await levelRecord(level)).sentence).toBe(original.sentence);

    // the new sentence and a recording
    await panel.getByLabel("Frase em inglês").fill(sentence);
    await panel.getByLabel("Enviar novo áudio").setInputFiles(MP3_PATH);
    await panel.getByRole("button", { name: "Salvar nível" }).click();
    await expect(page).toHaveRedirectedTo(LIST);
    await expect(page).toShowToast("Nível salvo", { description: `Nível ${level}: a mudança já vale para a próxima tentativa.` });
    if (jsEnabled(testInfo)) await expect(page).toShowToast("Áudio enviado com sucesso");
    await expect(row).toContainText(sentence);
    await expect(row).toContainText(translation);
    await expect(row).toContainText("áudio enviado");

    const saved = await levelRecord(level);
    expect(saved).toMatchObject({ sentence, translation, audioAsset: original.audioAsset });
    expect(saved.audioKey).toMatch(/^pronunciation\/[0-9a-f-]{36}\.mp3$/);
    const audio = await page.request.get(`/media/${saved.audioKey}`, { headers: { Range: "bytes=0-99" } });
    expect(audio.status()).toBe(206);
    expect(audio.headers()["content-type"]).toBe("audio/mpeg");
    expect(audio.headers()["content-range"]).toBe(`bytes 0-99/${readFileSync(MP3_PATH).length}`);

    // the learners' level page reads the row: the new sentence at once, and (with JS) the player plays the upload
    const playsUpload = jsEnabled(testInfo) ? page.waitForRequest((req) => req.url().includes(`/media/${saved.audioKey}`)) : null;
    await visit(page, `/pronunciation-game/${level}`);
    await expect(page.getByText(sentence, { exact: true }).first()).toBeVisible();
    if (playsUpload) {
      await page.getByRole("button", { name: "Ouvir a frase" }).first().click();
      await playsUpload;
    }

    // back to the shipped recording: the upload is deleted
    await visit(page, `${LIST}/${level}`);
    const again = adminPanel(page, testInfo, "Editar nível");
    await expect(again.getByLabel("Frase em inglês")).toHaveValue(sentence);
    await again.getByLabel("Voltar ao áudio original").check();
    await again.getByRole("button", { name: "Salvar nível" }).click();
    await expect(page).toHaveRedirectedTo(LIST);
    await expect(page).toShowToast("Nível salvo");
    await expect(row).toContainText("áudio original");
    expect(await levelRecord(level)).toMatchObject({ sentence, audioKey: null, audioAsset: original.audioAsset });
    expect((await page.request.get(`/media/${saved.audioKey}`)).status()).toBe(404);
  } finally {
    await withDb((db) =>
      db
        .update(pronunciationLevels)
        .set({ sentence: original.sentence, translation: original.translation, audioKey: original.audioKey })
        .where(eq(pronunciationLevels.level, level)),
    );
  }
});

test("learners cannot open the pronunciation admin pages (redirected home)", async ({ page, learner: _ }) => {
  await visit(page, "/labs");
  for (const path of [LIST, `${LIST}/1`]) {
    await page.goto(path);
    await expect(page).toHaveRedirectedTo("/");
  }
});
