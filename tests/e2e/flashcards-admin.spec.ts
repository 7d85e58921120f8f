// Flashcards admin journeys (decision 0012), with JavaScript on (dialogs over the list) and off (page
// sections, a confirmation step): editing a card's word — which is then what learners' games draw
// (checked in the database: the game screens are another issue's work) —, moving, hiding and deleting
// it after confirming, and adding a card with a picture and a recording. Each test works on cards of its
// own, appended to Ações Cotidianas — a category no learner journey plays, so hiding or deleting a card never
// changes a game running at the same time — and soft-deletes them afterwards. Upload refusals are covered by
// tests/integration/flashcards-admin.test.ts. Last, the whole way round: an admin edits a card's word and
// a learner (another browser) sees the new word among the options of a game of that category — played on
// a category no other journey plays, one per project, most of it hidden meanwhile and restored after.
import { readFileSync } from "node:fs";
import type { Page, TestInfo } from "@playwright/test";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { flashcardCards } from "../../app/features/flashcards/tables";
import { adminPanel, expect, expectAccessible, jsEnabled, test, visit, withDb } from "./support";

/** The category this spec's own cards join: one that no learner journey plays. */
const CATEGORY = { slug: "acoes", name: "Ações Cotidianas" } as const;
const LIST = `/flashcard-v2/admin/${CATEGORY.slug}`;
const PNG = readFileSync("tests/fixtures/tiny.png");
const MP3_PATH = "content/flashcards/audio/animais-cat.mp3";

const uniqueWord = (testInfo: TestInfo, label: string) =>
  `${label}${testInfo.project.name.replace(/\W/g, "")}${testInfo.workerIndex}${Date.now().toString(36)}`.toLowerCase();

/**
 * Visible cards of this test's own at the end of the category, with the shipped picture and recording of
 * "dog", on consecutive order indices (nobody else's card can come between them).
 */
async function insertCards(words: string[]) {
  const base = 1_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
  return withDb(async (db) => {
    const cards = await db
      .insert(flashcardCards)
      .values(
        words.map((word, index) => ({
          categorySlug: CATEGORY.slug,
          word,
          translation: "cartão de teste",
          distractorGroup: `e2e-${word}`,
          imageAsset: "animais-dog",
          audioAsset: "animais-dog",
          orderIndex: base + index,
        })),
      )
      .returning({ id: flashcardCards.id, word: flashcardCards.word });
    return words.map((word) => cards.find((card) => card.word === word)!.id);
  });
}

const cardRecord = (id: string) => withDb(async (db) => (await db.select().from(flashcardCards).where(eq(flashcardCards.id, id)))[0]!);
const cardByWord = (word: string) =>
  withDb(
    async (db) =>
      (
        await db
          .select()
          .from(flashcardCards)
          .where(and(eq(flashcardCards.categorySlug, CATEGORY.slug), eq(flashcardCards.word, word)))
      )[0],
  );
/** Leaves nothing visible behind for other journeys' games. */
const softDelete = (ids: string[]) =>
  withDb((db) =>
    db.execute(sql`update flashcard_cards set deleted_at = coalesce(deleted_at, now()) where id = any(${`{${ids.join(",")}}`}::uuid[])`),
  );

/** The card's row on the list. */
const cardRow = (page: Page, word: string) => page.getByTestId("flashcard-admin-card").filter({ hasText: word });

/**
 * The category's words a learner's next game draws from: the game's own rule (not hidden, not deleted).
 * (The game screens are another issue's work; tests/integration checks the game's loader itself.)
 */
const playableWords = () =>
  withDb(async (db) =>
    (
      await db
        .select({ word: flashcardCards.word })
        .from(flashcardCards)
        .where(and(eq(flashcardCards.categorySlug, CATEGORY.slug), eq(flashcardCards.hidden, false), isNull(flashcardCards.deletedAt)))
    ).map((row) => row.word),
  );

test("an admin edits a card's word (what learners' games draw), moves, hides and deletes it after confirming", async ({
  page,
  admin: _,
}, testInfo) => {
  const word = uniqueWord(testInfo, "gato");
  const next = uniqueWord(testInfo, "vaca");
  const [cardId, nextId] = await insertCards([word, next]);
  try {
    await visit(page, LIST);
    await expect(page.getByRole("heading", { level: 1, name: `Cartões: ${CATEGORY.name}` })).toBeVisible();
    await expect(cardRow(page, word)).toBeVisible();
    await expectAccessible(page);

    await cardRow(page, word)
      .getByRole("link", { name: `Editar ${word}` })
      .click();
    await expect(page).toHaveURL(`/flashcard-v2/admin/cards/${cardId}#painel-admin`);
    const panel = adminPanel(page, testInfo, "Editar cartão");
    await expect(panel).toBeVisible();
    await expect(panel.getByLabel("Palavra em inglês")).toHaveValue(word);
    await expect(panel.getByText("Mudar a palavra descarta a gravação original")).toBeVisible();

    // validation keeps what was typed
    await panel.getByLabel("Palavra em inglês").fill("");
    await panel.getByLabel("Tradução").fill("gatinho de teste");
    await panel.getByRole("button", { name: "Salvar cartão" }).click();
    await expect(panel.getByText("Informe a palavra em inglês")).toBeVisible();
    await expect(panel.getByLabel("Tradução")).toHaveValue("gatinho de teste");

    const newWord = `${word}x`;
    await panel.getByLabel("Palavra em inglês").fill(newWord);
    await panel.getByRole("button", { name: "Salvar cartão" }).click();
    await expect(page).toHaveRedirectedTo(LIST);
    await expect(page).toShowToast("Cartão salvo", { description: "As mudanças já valem para os próximos jogos." });
    await expect(cardRow(page, newWord)).toContainText("gatinho de teste");
    await expect(cardRow(page, newWord)).toContainText("voz do navegador");
    expect(await cardRecord(cardId)).toMatchObject({ word: newWord, translation: "gatinho de teste", audioAsset: null });

    // what a learner's next game draws from: the new word, never the old one
    expect(await playableWords()).toContain(newWord);
    expect(await playableWords()).not.toContain(word);

    // move the next card up: it now comes first
    const order = async () => (await page.getByTestId("flashcard-admin-card").allInnerTexts()).map((text) => text.split("\n")[0]!.trim());
    expect((await order()).indexOf(newWord)).toBe((await order()).indexOf(next) - 1);
    await cardRow(page, next)
      .getByRole("button", { name: `Subir ${next}` })
      .click();
    await expect(page).toShowToast("Ordem atualizada", { description: next });
    await expect.poll(async () => (await order()).indexOf(next) - (await order()).indexOf(newWord)).toBe(-1);

    // hide → the badge; the game's draw skips it (tests/integration)
    await cardRow(page, newWord)
      .getByRole("button", { name: `Ocultar ${newWord}` })
      .click();
    await expect(page).toShowToast("Cartão oculto", { description: newWord });
    await expect(cardRow(page, newWord).getByText("Oculto", { exact: true })).toBeVisible();
    await expect(cardRow(page, newWord).getByRole("button", { name: `Mostrar ${newWord}` })).toBeVisible();
    expect((await cardRecord(cardId)).hidden).toBe(true);
    expect(await playableWords()).not.toContain(newWord);

    // delete, after confirming: a dialog with JavaScript, a section of the list without
    await cardRow(page, newWord)
      .getByRole("button", { name: `Excluir ${newWord}` })
      .click();
    if (!jsEnabled(testInfo)) await expect(page).toHaveRedirectedTo(`${LIST}?excluir=${cardId}`);
    const confirmation = page.getByRole("alertdialog");
    await expect(confirmation.getByText("Tem certeza que deseja excluir este cartão?")).toBeVisible();
    await expect(confirmation.getByText(newWord, { exact: true })).toBeVisible();
    expect((await cardRecord(cardId)).deletedAt).toBeNull();
    await confirmation.getByRole("button", { name: "Excluir", exact: true }).click();
    await expect(page).toShowToast("Cartão excluído", { description: newWord });
    await expect(page).toHaveRedirectedTo(LIST);
    await expect(cardRow(page, newWord)).toHaveCount(0);
    await expect(cardRow(page, next)).toHaveCount(1);
    expect((await cardRecord(cardId)).deletedAt).not.toBeNull();
  } finally {
    await softDelete([cardId!, nextId!]);
  }
});

test("an admin adds a card with a picture and a recording; a new card without a picture is refused", async ({ page, admin: _ }, testInfo) => {
  const word = uniqueWord(testInfo, "filhote");
  const created: string[] = [];
  try {
    await visit(page, LIST);
    await page.getByRole("link", { name: "Adicionar cartão" }).click();
    await expect(page).toHaveURL(`${LIST}/new#painel-admin`);
    const panel = adminPanel(page, testInfo, "Adicionar cartão");
    await expect(panel).toBeVisible();
    await expectAccessible(page);

    await panel.getByLabel("Palavra em inglês").fill(word);
    await panel.getByLabel("Tradução").fill("filhote de teste");
    await panel.getByRole("button", { name: "Adicionar cartão" }).click();
    await expect(panel.getByText("Envie uma imagem para o novo cartão").first()).toBeVisible();
    await expect(panel.getByLabel("Palavra em inglês")).toHaveValue(word);
    expect(await cardByWord(word)).toBeUndefined();

    await panel.getByLabel("Enviar nova imagem").setInputFiles("tests/fixtures/tiny.png");
    await panel.getByLabel("Enviar novo áudio").setInputFiles(MP3_PATH);
    await panel.getByRole("button", { name: "Adicionar cartão" }).click();
    await expect(page).toHaveRedirectedTo(LIST);
    await expect(page).toShowToast("Cartão salvo");
    if (jsEnabled(testInfo)) await expect(page).toShowToast("Arquivos enviados com sucesso");
    const row = cardRow(page, word);
    await expect(row).toContainText("filhote de teste");
    await expect(row).toContainText("áudio enviado");

    const card = (await cardByWord(word))!;
    created.push(card.id);
    expect(card).toMatchObject({ translation: "filhote de teste", distractorGroup: `cartao-${card.id}`, imageAsset: null, audioAsset: null });
    expect(card.imageKey).toMatch(/^flashcards\/[0-9a-f-]{36}\.png$/);
    expect(card.audioKey).toMatch(/^flashcards\/[0-9a-f-]{36}\.mp3$/);
    await expect(row.locator(`img[src="/media/${card.imageKey}"]`)).toHaveCount(1);
    const image = await page.request.get(`/media/${card.imageKey}`);
    expect(image.headers()["content-type"]).toBe("image/png");
    expect(Buffer.from(await image.body()).equals(PNG)).toBe(true);
    const audio = await page.request.get(`/media/${card.audioKey}`, { headers: { Range: "bytes=0-99" } });
    expect(audio.status()).toBe(206);
    expect(audio.headers()["content-type"]).toBe("audio/mpeg");
    expect(audio.headers()["content-range"]).toBe(`bytes 0-99/${readFileSync(MP3_PATH).length}`);
  } finally {
    if (created.length > 0) await softDelete(created);
  }
});

test("learners cannot open the flashcard admin pages (redirected home)", async ({ page, learner: _ }) => {
  const cardId = await withDb(async (db) => (await db.select({ id: flashcardCards.id }).from(flashcardCards).limit(1))[0]!.id);
  await visit(page, "/labs");
  for (const path of [LIST, `${LIST}/new`, `/flashcard-v2/admin/cards/${cardId}`]) {
    await page.goto(path);
    await expect(page).toHaveRedirectedTo("/");
  }
});

/**
 * Each project plays a category of its own that no other journey plays (the projects run at once on
 * one database, and this test hides most of the category for a while).
 */
const OWN_CATEGORY = {
  js: { slug: "profissoes", tile: /^Profissões e Empregos/ },
  "no-js": { slug: "lugares", tile: /^Lugares e Transporte/ },
} as const;

test("an admin edits a card's word and a learner's next game of that category shows the new word, not the old one", async ({
  page,
  admin: _,
  createAccount,
  pageAs,
}, testInfo) => {
  const category = OWN_CATEGORY[testInfo.project.name as keyof typeof OWN_CATEGORY];
  const list = `/flashcard-v2/admin/${category.slug}`;
  // Arrange: only 4 cards of 4 distinct distractor groups stay visible, so every question of the
  // learner's game has all 4 of them as options — the edited one among them.
  const visibleCards = await withDb((db) =>
    db
      .select()
      .from(flashcardCards)
      .where(and(eq(flashcardCards.categorySlug, category.slug), eq(flashcardCards.hidden, false), isNull(flashcardCards.deletedAt)))
      .orderBy(flashcardCards.orderIndex),
  );
  const kept: typeof visibleCards = [];
  for (const card of visibleCards) {
    if (kept.length < 4 && !kept.some((other) => other.distractorGroup === card.distractorGroup)) kept.push(card);
  }
  expect(kept).toHaveLength(4);
  const original = kept[0]!;
  const keptIds = kept.map((card) => card.id);
  const hiddenIds = visibleCards.filter((card) => !keptIds.includes(card.id)).map((card) => card.id);
  const newWord = uniqueWord(testInfo, "novapalavra");
  await withDb((db) => db.update(flashcardCards).set({ hidden: true }).where(inArray(flashcardCards.id, hiddenIds)));
  try {
    // the admin changes the word on the card's form
    await visit(page, list);
    await cardRow(page, original.word)
      .getByRole("link", { name: `Editar ${original.word}`, exact: true })
      .click();
    await expect(page).toHaveURL(`/flashcard-v2/admin/cards/${original.id}#painel-admin`);
    const panel = adminPanel(page, testInfo, "Editar cartão");
    await expect(panel.getByLabel("Palavra em inglês")).toHaveValue(original.word);
    await panel.getByLabel("Palavra em inglês").fill(newWord);
    await panel.getByRole("button", { name: "Salvar cartão" }).click();
    await expect(page).toHaveRedirectedTo(list);
    await expect(page).toShowToast("Cartão salvo", { description: "As mudanças já valem para os próximos jogos." });
    await expect(cardRow(page, newWord)).toBeVisible();

    // a learner, in a browser of their own, starts a game of the category and sees the new word
    const learnerPage = await pageAs(await createAccount("learner"));
    await visit(learnerPage, "/flashcard-v2");
    await learnerPage.getByRole("button", { name: category.tile }).click();
    await expect(learnerPage).toHaveURL(/\/flashcard-v2\/[0-9a-f-]{36}(\?|$)/);
    const question = learnerPage.getByRole("group", { name: "What is this?" });
    await expect(question).toBeVisible();
    await expect(learnerPage.getByTestId("flashcard-position")).toHaveText("Cartão 1 de 4");
    await expect(question.getByRole("radio")).toHaveCount(4);
    await expect(question.getByRole("radio", { name: newWord, exact: true })).toBeVisible();
    await expect(question.getByText(newWord, { exact: true })).toBeVisible();
    await expect(question.getByRole("radio", { name: original.word, exact: true })).toHaveCount(0);
    await expect(question.getByText(original.word, { exact: true })).toHaveCount(0);
  } finally {
    // the category as it was: the card's word, translation, group and media, and the hidden cards shown
    await withDb(async (db) => {
      await db
        .update(flashcardCards)
        .set({
          word: original.word,
          translation: original.translation,
          distractorGroup: original.distractorGroup,
          imageAsset: original.imageAsset,
          imageKey: original.imageKey,
          audioAsset: original.audioAsset,
          audioKey: original.audioKey,
        })
        .where(eq(flashcardCards.id, original.id));
      await db.update(flashcardCards).set({ hidden: false }).where(inArray(flashcardCards.id, hiddenIds));
    });
  }
});
