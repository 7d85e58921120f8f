// Flashcards (issue 9), with JavaScript on and off: a whole game of 10 to the result (counts adding up,
// exactly 1 credit spent), the Revisão tile after a game with misses and a review game from it,
// Recomeçar, the credits dialog at zero, a reload in the middle of a game, another learner's game,
// preloading failures (JS), and axe-core on the picker, a question and the result. The right answers
// are read from the database: the page never has them before the learner answers.
import type { Page } from "@playwright/test";
import { asc, eq, sql } from "drizzle-orm";
import { modules } from "../../app/features/courses/tables";
import { flashcardCategories, flashcardGames, flashcardQuestions } from "../../app/features/flashcards/tables";
import { users } from "../../app/server/schema";
import { budget, expect, expectAccessible, holdRequests, jsEnabled, test, userById, visit, waitForHydration, withDb } from "./support";

const GAME_URL = /\/flashcard-v2\/([0-9a-f-]{36})(\?|$)/;

const gameIdOf = (page: Page) => GAME_URL.exec(page.url())![1]!;

/** The right option (card id) of each question, by position. */
const rightAnswers = (gameId: string) =>
  withDb(async (db) =>
    (
      await db
        .select({ cardId: flashcardQuestions.cardId })
        .from(flashcardQuestions)
        .where(eq(flashcardQuestions.gameId, gameId))
        .orderBy(asc(flashcardQuestions.position))
    ).map((row) => row.cardId),
  );

const gamesOf = (userId: string) => withDb((db) => db.select().from(flashcardGames).where(eq(flashcardGames.userId, userId)));

/** Opens the picker and starts a game from a tile; resolves with the new game's id once its first question shows. */
async function startFrom(page: Page, tile: RegExp) {
  await visit(page, "/flashcard-v2");
  await page.getByRole("button", { name: tile }).click();
  await expect(page).toHaveURL(GAME_URL);
  await expect(question(page)).toBeVisible();
  return gameIdOf(page);
}

/** The question's radio group (fieldset + legend). */
const question = (page: Page) => page.getByRole("group", { name: "What is this?" });

/** The option ids shown, in order. */
const optionIds = (page: Page) =>
  page.locator('input[name="optionId"]').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));

/** Chooses `optionId`, presses Verificar and waits for the feedback. */
async function answer(page: Page, optionId: string, js: boolean) {
  const verify = page.getByRole("button", { name: "Verificar" });
  if (js) await expect(verify).toBeDisabled(); // until an option is chosen
  await page.locator(`input[name="optionId"][value="${optionId}"]`).check();
  await verify.click();
  await expect(page.getByTestId("flashcard-feedback")).toBeVisible();
  // the options are locked once answered
  await expect(page.locator('input[name="optionId"]').first()).toBeDisabled();
}

/** Answers every question of the game (right unless `wrong(i)`), pressing Próximo and finally Finalizar. */
async function playWhole(page: Page, gameId: string, js: boolean, wrong: (i: number) => boolean) {
  const right = await rightAnswers(gameId);
  for (let i = 0; i < right.length; i++) {
    await expect(page.getByTestId("flashcard-position")).toHaveText(`Cartão ${i + 1} de ${right.length}`);
    const options = await optionIds(page);
    expect(options).toHaveLength(4);
    expect(options).toContain(right[i]);
    const miss = wrong(i);
    await answer(page, miss ? options.find((id) => id !== right[i])! : right[i]!, js);
    await expect(page.getByTestId("flashcard-feedback")).toContainText(miss ? "Não foi dessa vez" : "Correto!");
    if (js) await expect(page.locator("#resposta")).toBeFocused();
    const last = i === right.length - 1;
    await page.getByRole("link", { name: last ? "Finalizar" : "Próximo" }).click();
    if (js && !last) await expect(question(page).locator("legend")).toBeFocused();
  }
  await expect(page.getByTestId("flashcards-result")).toBeVisible();
}

test("a whole game of 10 reaches the result with the counts adding up, for exactly 1 credit; the missed words come back in Revisão", async ({
  page,
  learner,
}, testInfo) => {
  // A long journey with several axe checks (each replays the page without JavaScript): its own budget, not the 45 s default.
  test.setTimeout(budget(120_000));
  const js = jsEnabled(testInfo);
  await visit(page, "/flashcard-v2");
  await expect(page.getByRole("heading", { level: 1, name: "Flashcards" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Voltar ao Labs" })).toHaveAttribute("href", "/labs");
  await expect(page.getByTestId("category-tile")).toHaveCount(8);
  const names = await withDb(async (db) =>
    (await db.select({ name: flashcardCategories.name }).from(flashcardCategories).orderBy(asc(flashcardCategories.orderIndex))).map(
      (c) => c.name,
    ),
  );
  expect(names).toHaveLength(8);
  // each tile: its picture, its pt-BR name and how many cards it has
  for (const name of names) await expect(page.getByRole("button", { name: new RegExp(`^${name} \\d+ cartões`) })).toBeVisible();
  await expect(page.getByTestId("category-tile").locator("img")).toHaveCount(8);
  // nothing to review yet: the tile is there, disabled and explained
  await expect(page.getByTestId("review-tile")).toBeDisabled();
  await expect(page.getByTestId("review-tile")).toContainText("As palavras que você errar voltam aqui.");
  await expect(page.getByRole("link", { name: /^Editar/ })).toHaveCount(0);
  await expectAccessible(page);

  // while the game is being made: "Buscando cartões..." (the start is held back until the test saw it)
  const releaseStart = js ? await holdRequests(page, /\/flashcard-v2\.data/, "POST") : () => {};
  await page.getByRole("button", { name: /^Animais/ }).click();
  if (js) await expect(page.getByRole("status").filter({ hasText: "Buscando cartões..." })).toBeVisible();
  releaseStart();
  await expect(page).toHaveURL(GAME_URL);
  await expect(question(page)).toBeVisible();
  const gameId = gameIdOf(page);
  expect((await userById(learner.id)).monthlyCredits).toBe(49);

  // a question: the picture does not name the answer
  await expect(page.getByTestId("flashcard-image")).toHaveAttribute("alt", "Imagem do cartão 1 de 10");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Flashcards · Animais");
  if (!js) await expect(page.locator("audio[controls]")).toHaveCount(4);
  await expectAccessible(page);

  // 6 right, 4 wrong (questions 1, 4, 7 and 10)
  await playWhole(page, gameId, js, (i) => i % 3 === 0);
  await expect(page.getByTestId("result-correct")).toHaveText("6");
  await expect(page.getByTestId("result-incorrect")).toHaveText("4");
  await expect(page.getByTestId("result-percent")).toHaveText("60%");
  await expect(page.getByRole("heading", { name: "Bom esforço!" })).toBeVisible();
  await expect(page.getByTestId("missed-words").getByRole("listitem")).toHaveCount(4);
  await expect(page.getByRole("link", { name: "Escolher outra categoria" })).toHaveAttribute("href", "/flashcard-v2");
  await expectAccessible(page);

  const user = await userById(learner.id);
  expect(user.monthlyCredits).toBe(49);
  expect(user.flashcardsPlayed).toBe(1);
  const [game] = await gamesOf(learner.id);
  expect(game).toMatchObject({ id: gameId, questionCount: 10, answeredCount: 10, correctCount: 6 });
  expect(game!.finishedAt).not.toBeNull();

  // a reload of the finished game shows the result again
  await page.reload();
  await expect(page.getByTestId("result-correct")).toHaveText("6");

  // Revisão: the 4 missed words; a review game starts from them (1 more credit)
  await page.getByRole("link", { name: "Escolher outra categoria" }).click();
  await expect(page).toHaveRedirectedTo("/flashcard-v2");
  await expect(page.getByTestId("review-count")).toHaveText("4 cartões para revisar");
  if (js) await waitForHydration(page);
  await page.getByTestId("review-tile").click();
  await expect(page).toHaveURL(GAME_URL);
  await expect(question(page)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Flashcards · Revisão");
  const reviewId = gameIdOf(page);
  expect(reviewId).not.toBe(gameId);
  const missed = await withDb(async (db) =>
    (await db.execute(sql`select card_id from flashcard_questions where game_id = ${gameId} and correct = false`)).rows.map((row) =>
      String((row as { card_id: string }).card_id),
    ),
  );
  const review = await rightAnswers(reviewId);
  // the missed words come first
  expect(review.slice(0, 4).sort()).toEqual([...missed].sort());
  expect((await userById(learner.id)).monthlyCredits).toBe(48);
});

test("Recomeçar starts a new game of the same category for 1 more credit", async ({ page, learner }, testInfo) => {
  const js = jsEnabled(testInfo);
  const first = await startFrom(page, /^Comidas e Bebidas/);
  // answer all but the last question in the database, then the last one on the page
  const right = await rightAnswers(first);
  await withDb(async (db) => {
    await db.execute(sql`update flashcard_questions set chosen_id = card_id, correct = true, answered_at = now()
      where game_id = ${first} and position < ${right.length - 1}`);
    await db.execute(
      sql`update flashcard_games set answered_count = ${right.length - 1}, correct_count = ${right.length - 1} where id = ${first}`,
    );
  });
  await page.goto(`/flashcard-v2/${first}`);
  if (js) await waitForHydration(page);
  await expect(page.getByTestId("flashcard-position")).toHaveText(`Cartão ${right.length} de ${right.length}`);
  await answer(page, right.at(-1)!, js);
  await page.getByRole("link", { name: "Finalizar" }).click();
  await expect(page.getByRole("heading", { name: "Perfeito!" })).toBeVisible();
  await expect(page.getByTestId("result-percent")).toHaveText("100%");
  await expect(page.getByTestId("missed-words")).toHaveCount(0);

  await page.getByRole("button", { name: "Recomeçar" }).click();
  await expect(page).toHaveURL(GAME_URL);
  await expect(question(page)).toBeVisible();
  const second = gameIdOf(page);
  expect(second).not.toBe(first);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Flashcards · Comidas e Bebidas");
  expect((await userById(learner.id)).monthlyCredits).toBe(48);
  expect((await gamesOf(learner.id)).map((game) => game.categorySlug)).toEqual(["comidas", "comidas"]);
});

test("at zero credits no game starts: 'Créditos Esgotados' with its buttons", async ({ page, learner }, testInfo) => {
  await withDb((db) => db.update(users).set({ monthlyCredits: 0 }).where(eq(users.id, learner.id)));
  await visit(page, "/flashcard-v2");
  await page.getByRole("button", { name: /^Animais/ }).click();
  const text = "Seus créditos acabaram. Para continuar jogando agora, use o botão abaixo para comprar mais créditos.";
  if (jsEnabled(testInfo)) {
    const dialog = page.getByRole("dialog", { name: "Créditos Esgotados" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(text);
    await expect(dialog.getByRole("button", { name: "Comprar mais créditos" })).toBeVisible();
    await dialog.getByRole("button", { name: "Voltar" }).click();
    await expect(dialog).toBeHidden();
  } else {
    const alert = page.getByRole("alert").filter({ hasText: "Créditos Esgotados" });
    await expect(alert).toContainText(text);
    await expect(alert.getByRole("link", { name: "Comprar mais créditos" })).toHaveAttribute("href", "/comprar-creditos");
    await expect(alert.getByRole("link", { name: "Voltar" })).toHaveAttribute("href", "/flashcard-v2");
  }
  // the form's own address (React Router adds ?index to an index route's form action)
  await expect(page).toHaveRedirectedTo(/^\/flashcard-v2(\?index)?$/);
  expect(await gamesOf(learner.id)).toEqual([]);
  expect((await userById(learner.id)).monthlyCredits).toBe(0);
});

test("a reload in the middle of a game comes back to the same question", async ({ page, learner: _ }, testInfo) => {
  const js = jsEnabled(testInfo);
  const gameId = await startFrom(page, /^Esportes e Hobbies/);
  const right = await rightAnswers(gameId);
  for (const i of [0, 1]) {
    await answer(page, right[i]!, js);
    await page.getByRole("link", { name: "Próximo" }).click();
  }
  await expect(page.getByTestId("flashcard-position")).toHaveText("Cartão 3 de 10");
  await page.reload();
  await expect(page.getByTestId("flashcard-position")).toHaveText("Cartão 3 de 10");
  await expect(page.locator('input[name="optionId"]:checked')).toHaveCount(0);
  // the game's own address (no question named) resumes at the first unanswered question too
  await page.goto(`/flashcard-v2/${gameId}`);
  await expect(page.getByTestId("flashcard-position")).toHaveText("Cartão 3 de 10");
  // an answered question shows its feedback, locked
  await page.goto(`/flashcard-v2/${gameId}?q=2`);
  await expect(page.getByTestId("flashcard-feedback")).toContainText("Correto!");
  await expect(page.locator('input[name="optionId"]:checked')).toHaveValue(right[1]!);
  await expect(page.getByRole("button", { name: "Verificar" })).toHaveCount(0);
});

test("another learner's game, or a malformed id, is a 404", async ({ page, learner: _, createAccount, pageAs }) => {
  const gameId = await startFrom(page, /^Objetos Domésticos/);
  const other = await pageAs(await createAccount("learner"));
  const response = await other.goto(`/flashcard-v2/${gameId}`);
  expect(response?.status()).toBe(404);
  await expect(other.getByRole("heading", { name: "Página não encontrada" })).toBeVisible();
  const malformed = await other.goto("/flashcard-v2/nao-e-um-jogo");
  expect(malformed?.status()).toBe(404);
});

test("admins get an edit link per category", async ({ page, admin: _ }) => {
  await visit(page, "/flashcard-v2");
  await expect(page.getByRole("link", { name: /^Editar/ })).toHaveCount(8);
  await expect(page.getByRole("link", { name: "Editar Animais" })).toHaveAttribute("href", "/flashcard-v2/admin/animais");
});

// page.route() does not see the requests a service worker makes, and the worker fetches the pictures it does not
// keep: here the pages talk to the network themselves.
test.describe(() => {
  test.use({ serviceWorkers: "block" });
  test("with JavaScript a game whose pictures cannot load shows the error screen and the toast; Tentar novamente recovers", async ({
    page,
    learner: _,
  }, testInfo) => {
    test.skip(!jsEnabled(testInfo), "preloading needs JavaScript");
    test.setTimeout(budget(60_000));
    await visit(page, "/flashcard-v2");
    await page.route(/\/content\/flashcards\/card\./, (route) => route.abort());
    await page.getByRole("button", { name: /^Roupas e Acessórios/ }).click();
    await expect(page).toHaveURL(GAME_URL);
    await expect(page.getByRole("progressbar", { name: "Carregando imagens e sons" })).toBeVisible();
    // 1 + 5 attempts, 500 ms growing 1.5× between them: about 7 s
    await expect(page.getByRole("heading", { name: "Não foi possível carregar" })).toBeVisible({ timeout: budget(20_000) });
    await expect(page.getByText("Ocorreu um erro ao carregar os cartões. Verifique sua conexão e tente novamente.")).toBeVisible();
    await expect(page).toShowToast("Erro", { description: "Não foi possível carregar os cartões. Tente novamente." });
    await page.unroute(/\/content\/flashcards\/card\./);
    await page.getByRole("button", { name: "Tentar novamente" }).click();
    await expect(question(page)).toBeVisible();
    await expect(page.getByTestId("flashcard-position")).toHaveText("Cartão 1 de 10");
    // back to the categories
    await page.getByRole("link", { name: "Voltar às categorias" }).click();
    await expect(page).toHaveRedirectedTo("/flashcard-v2");
  });
});

test("with JavaScript the flashcards' pictures and sounds and the modules' pictures are warmed 1 s after the first signed-in page, once per session", async ({
  page,
  learner: _,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "the preloader needs JavaScript");
  const moduleImage = `/media/modules/preload-${testInfo.testId}.png`;
  const [module] = await withDb((db) =>
    db
      .insert(modules)
      .values({
        title: "Módulo do preloader",
        description: "Imagem aquecida após o login.",
        orderIndex: -8_000_000,
        available: "yes",
        imageUrl: moduleImage,
      })
      .returning({ id: modules.id }),
  );
  try {
    const warmed: string[] = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith("/content/flashcards/") || path.startsWith("/media/") || path === "/resources/preload") warmed.push(path);
    });
    await visit(page, "/");
    await expect.poll(() => warmed.filter((path) => path.includes("/category-")).length, { timeout: budget(10_000) }).toBe(8);
    await expect.poll(() => warmed.filter((path) => /\/(sound-(correct|incorrect)|tier-)/.test(path)).length).toBe(6);
    await expect.poll(() => warmed).toContain(moduleImage);
    expect(warmed.filter((path) => path === "/resources/preload")).toHaveLength(1);
    expect(await page.evaluate(() => sessionStorage.getItem("nika:preloaded"))).toBe("1");
    // a reload in the same session does not ask for the list nor warm anything again
    warmed.length = 0;
    await page.reload();
    await waitForHydration(page);
    await page.waitForTimeout(1500);
    expect(warmed).toEqual([]);
  } finally {
    await withDb((db) => db.delete(modules).where(eq(modules.id, module!.id)));
  }
});
