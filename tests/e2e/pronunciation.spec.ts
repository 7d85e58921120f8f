// The pronunciation game in the browser, with JavaScript and without: the list of 100 levels, a file
// upload scored at level 1 (the no-JS path; with JS the same form exists next to the recorder), the
// result with its words, Tentar novamente, Próximo nível, the best score and stars on the list, the
// credits dialog at zero, a level that does not exist, and the sign-in toast. The scorer is Azure's
// REST protocol spoken by the fake upstream (tests/e2e/e2e.vars). A phone's WAV with metadata before its
// sound is judged by the sound's length. Recording with the fake microphone is in pronunciation-voice.spec.ts.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { pronunciationAttempts } from "../../app/features/pronunciation/tables";
import { encodeWav } from "../../app/lib/audio/wav";
import { users } from "../../app/server/schema";
import { chunk, fmtChunk, listChunk, riffWave, toneChunk } from "../fixtures/wav";
import { expect, expectAccessible, holdRequests, jsEnabled, test, userById, visit, waitForHydration, withDb } from "./support";

const wavPath = join(tmpdir(), "nika-e2e-pronunciation.wav");
writeFileSync(
  wavPath,
  encodeWav(
    new Float32Array(24_000).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / 16_000)),
    16_000,
  ),
);

const attemptsOf = (userId: string) => withDb((db) => db.select().from(pronunciationAttempts).where(eq(pronunciationAttempts.userId, userId)));

test("the list shows 100 levels; a file upload is scored at level 1 with every word; the list then shows the best score", async ({
  page,
  learner,
}, testInfo) => {
  await visit(page, "/pronunciation-game");
  await expect(page.getByRole("heading", { level: 1, name: "Jogo de Pronúncia" })).toBeVisible();
  const cards = page.getByTestId("level-card");
  await expect(cards).toHaveCount(100);
  await expect(cards.first()).toHaveAccessibleName("Nível 1: sem pontuação, 0 de 3 estrelas");
  await expect(page.getByRole("link", { name: "Assinar Agora" })).toHaveAttribute("href", "/comprar-creditos");
  await expectAccessible(page);

  await cards.first().click();
  await expect(page).toHaveRedirectedTo("/pronunciation-game/1");
  const sentence = (await page.getByRole("heading", { level: 1 }).innerText()).trim();
  expect(sentence.split(/\s+/).length).toBeGreaterThanOrEqual(3);
  if (jsEnabled(testInfo)) {
    await expect(page.getByRole("button", { name: "Ouvir a frase" })).toBeVisible();
    await expect(page.getByRole("group", { name: "Velocidade" }).getByRole("button")).toHaveText(["0.5x", "0.75x", "1x"]);
  } else {
    // without JavaScript, the browser's own player (its menu has the speeds)
    await expect(page.locator('audio[controls][aria-label="Ouvir a frase"]')).toHaveAttribute("src", /^\/content\/pronunciation\/.+\.mp3$/);
  }
  await expectAccessible(page);

  await page.getByLabel("Grave ou escolha um áudio (até 30 segundos)").setInputFiles(wavPath);
  await page.getByRole("button", { name: "Enviar gravação" }).click();
  const result = page.getByTestId("pronunciation-result");
  await expect(result).toBeVisible();
  await expect(page).toHaveRedirectedTo(/^\/pronunciation-game\/1\?attempt=[0-9a-f-]{36}$/);
  const words = result.getByTestId("word-result");
  await expect(words).toHaveCount(sentence.replace(/[.,!?]/g, "").split(/\s+/).length);
  await expect(page.getByRole("img", { name: /^Pontuação geral: \d+$/ })).toBeVisible();
  await expect(result.getByText("Novo recorde neste nível!")).toBeVisible();
  if (jsEnabled(testInfo)) await expect(result.getByRole("button", { name: "Sua gravação" })).toBeVisible();
  else
    await expect(result.locator('audio[aria-label="Sua gravação"]')).toHaveAttribute("src", /^\/resources\/pronunciation-audio\/[0-9a-f-]{36}$/);
  await expectAccessible(page);

  const [attempt] = await attemptsOf(learner.id);
  expect(attempt).toMatchObject({ status: "scored", scorer: "azure", level: 1 });
  expect((await userById(learner.id)).monthlyCredits).toBe(49);
  const overall = Math.round(attempt!.overallScore!);
  await expect(page.getByTestId("overall-score")).toHaveText(String(overall));

  // Tentar novamente: back to recording, the result cleared
  await page.getByRole("link", { name: "Tentar novamente" }).click();
  await expect(page).toHaveRedirectedTo("/pronunciation-game/1");
  await expect(result).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Enviar gravação" })).toBeVisible();
  // the translation is open after the first attempt
  await expect(page.getByText("Ver tradução")).toBeVisible();

  // back on the list: level 1 shows its best score and stars
  await page.getByRole("link", { name: "Voltar aos níveis" }).click();
  await expect(page).toHaveRedirectedTo("/pronunciation-game");
  const stars = overall > 70 ? 3 : overall > 30 ? 2 : 1;
  const firstCard = page.getByTestId("level-card").first();
  await expect(firstCard).toHaveAccessibleName(`Nível 1: recorde ${overall}, ${stars} de 3 estrelas`);
  // what the card draws: the row of that many earned stars (one symbol per page), the ring's arc up to the score;
  // level 2, unscored, draws the track alone
  await expect(firstCard.locator("use")).toHaveAttribute("href", `#level-stars-${stars}`);
  await expect(page.locator(`symbol#level-stars-${stars} path[fill="var(--star-on)"]`)).toHaveCount(1);
  const arcOf = (card: Locator) => card.locator(".score-ring").evaluate((ring) => getComputedStyle(ring, "::before").backgroundImage);
  expect(await arcOf(firstCard)).toContain(`${attempt!.overallScore}%`);
  expect(await arcOf(page.getByTestId("level-card").nth(1))).toMatch(/^conic-gradient\(rgba\(0, 0, 0, 0\) 0%/);
});

test("a phone's WAV with a LIST chunk before its sound: judged by the sound's length, not the file's size", async ({ page, learner }) => {
  // What a phone's recorder writes: its software, the date and a comment in a LIST chunk before the data.
  const metadata = listChunk("Gravação da frase do nível 2 no celular, para o Jogo de Pronúncia. ".repeat(30));
  const upload = async (name: string, bytes: Uint8Array) => {
    await visit(page, "/pronunciation-game/2");
    await page
      .getByLabel("Grave ou escolha um áudio (até 30 segundos)")
      .setInputFiles({ name, mimeType: "audio/wav", buffer: Buffer.from(bytes) });
    await page.getByRole("button", { name: "Enviar gravação" }).click();
  };
  const refusal = page.getByRole("alert").filter({ hasText: "Erro ao processar áudio" });

  // 31 s of sound, the metadata (and the format) before it: too long
  await upload("longa.wav", riffWave(metadata, fmtChunk(), toneChunk(31)));
  await expect(refusal).toContainText("Gravação muito longa (máximo 30 segundos)");
  // the metadata alone, its data chunk empty: an empty recording, however much the file weighs
  await upload("vazia.wav", riffWave(fmtChunk(), metadata, chunk("data", new Uint8Array(0))));
  await expect(refusal).toContainText("A gravação está vazia - tente novamente");
  expect(await attemptsOf(learner.id)).toEqual([]);

  // 29.95 s of sound: within the limit, though the whole file weighs more than 30 s of it
  await upload("quase-30s.wav", riffWave(fmtChunk(), metadata, toneChunk(29.95)));
  await expect(page.getByTestId("pronunciation-result")).toBeVisible();
  await expect(page).toHaveRedirectedTo(/^\/pronunciation-game\/2\?attempt=[0-9a-f-]{36}$/);
  expect((await attemptsOf(learner.id)).map((a) => [a.level, a.status])).toEqual([[2, "scored"]]);
  expect((await userById(learner.id)).monthlyCredits).toBe(49);
});

test("Próximo nível goes on, and after level 100 back to the list", async ({ page, learner }) => {
  await withDb((db) => db.update(users).set({ monthlyCredits: 5 }).where(eq(users.id, learner.id)));
  for (const [from, to] of [
    [1, "/pronunciation-game/2"],
    [100, "/pronunciation-game"],
  ] as const) {
    await visit(page, `/pronunciation-game/${from}`);
    await page.getByLabel("Grave ou escolha um áudio (até 30 segundos)").setInputFiles(wavPath);
    await page.getByRole("button", { name: "Enviar gravação" }).click();
    await expect(page.getByTestId("pronunciation-result")).toBeVisible();
    await page.getByRole("link", { name: "Próximo nível" }).click();
    await expect(page).toHaveRedirectedTo(to);
  }
  expect((await attemptsOf(learner.id)).map((a) => a.level).sort((a, b) => a - b)).toEqual([1, 100]);
});

test("at zero credits an attempt is refused with 'Créditos Esgotados'; closing goes back to the list", async ({ page, learner }, testInfo) => {
  await withDb((db) => db.update(users).set({ monthlyCredits: 0 }).where(eq(users.id, learner.id)));
  await visit(page, "/pronunciation-game/3");
  await page.getByLabel("Grave ou escolha um áudio (até 30 segundos)").setInputFiles(wavPath);
  await page.getByRole("button", { name: "Enviar gravação" }).click();
  if (jsEnabled(testInfo)) {
    const dialog = page.getByRole("dialog", { name: "Créditos Esgotados" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Voltar" }).click();
    await expect(page).toHaveRedirectedTo("/pronunciation-game");
  } else {
    const alert = page.getByRole("alert").filter({ hasText: "Créditos Esgotados" });
    await expect(alert.getByRole("link", { name: "Comprar mais créditos" })).toHaveAttribute("href", "/comprar-creditos");
    await expect(alert.getByRole("link", { name: "Voltar" })).toHaveAttribute("href", "/pronunciation-game");
  }
  expect(
    await withDb((db) =>
      db
        .select()
        .from(pronunciationAttempts)
        .where(and(eq(pronunciationAttempts.userId, learner.id))),
    ),
  ).toEqual([]);
});

test("a level that does not exist is a 404; signed out, the game sends to /signin with a toast", async ({ page, learner: _ }) => {
  for (const level of ["0", "101", "abc"]) {
    const response = await page.goto(`/pronunciation-game/${level}`);
    expect(response?.status(), level).toBe(404);
  }
  await expect(page.getByRole("heading", { name: "Nível não encontrado" })).toBeVisible();
  await expectAccessible(page);

  await page.context().clearCookies();
  await page.goto("/pronunciation-game/5");
  await expect(page).toHaveRedirectedTo("/signin?redirectTo=%2Fpronunciation-game%2F5");
  await expect(page).toShowToast("Você precisa estar logado para jogar");
});

test("with JavaScript: 15 skeleton cards while the list loads on a client navigation", async ({ page, learner: _ }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "client navigation needs JavaScript");
  await visit(page, "/labs");
  // the list's data (single fetch: /pronunciation-game.data, also prefetched on hover) arrives once the skeleton was seen
  const release = await holdRequests(page, /\/pronunciation-game\.data/);
  await page
    .getByRole("main")
    .getByRole("link", { name: /Jogo de Pronúncia/ })
    .click();
  await expect(page.getByTestId("level-skeleton")).toHaveCount(15);
  release();
  await expect(page.getByTestId("level-card")).toHaveCount(100);
  await expect(page.getByTestId("level-skeleton")).toHaveCount(0);
});

test("with JavaScript: a level card is prefetched on hover and opened on the client", async ({ page, learner: _ }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "client navigation needs JavaScript");
  await visit(page, "/pronunciation-game");
  await waitForHydration(page);
  const card = page.getByTestId("level-card").nth(2);
  await expect(card).toHaveAttribute("href", "/pronunciation-game/3");
  // The cards are plain links the list navigates with (components/LinkList.tsx): hovering one prefetches its route.
  await card.hover();
  await expect(page.locator('link[rel="prefetch"][href^="/pronunciation-game/3.data"]')).toBeAttached();
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await card.click();
  await expect(page).toHaveRedirectedTo("/pronunciation-game/3");
  await expect(page.getByRole("button", { name: "Enviar gravação" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
});
