// Offline Revisão with a "Meu caderno" correction (issue 49, item 4). With JavaScript (the offline player needs it): a
// learner with two due cards and one due correction downloads Revisão on /flashcard-v2, goes offline
// (context.setOffline), plays the bundle in the offline player — the correction card shows the learner's own sentence
// with the mistake marked, "Como se diz corretamente?" and, after Verificar, the right form and its explanation — then
// comes back online: the answers sync once, the correction is stored in the game and its entry's schedule moves.
import type { Page } from "@playwright/test";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { flashcardGames, flashcardQuestions } from "../../app/features/flashcards/tables";
import { notebookEntries } from "../../app/features/notebook/tables";
import { budget, expect, expectAccessible, jsEnabled, test, userById, visit, withDb } from "./support";

const SENTENCE = "Yesterday I have 30 years and I live in Recife.";
const WRONG = "I have 30 years";
const RIGHT = "I was 30 years old";
const EXPLANATION = "Em inglês, idade se diz com o verbo “to be”.";

const row = (page: Page, name: string) => page.getByTestId("offline-download").filter({ has: page.getByText(name, { exact: true }) });

test("a downloaded Revisão asks a Meu caderno correction offline and syncs it when back online", async ({
  page,
  context,
  learner,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "downloading and playing offline need JavaScript");
  test.setTimeout(budget(150_000));
  // Two cards due (as an earlier game leaves them) and one due correction (as a chat review stores it).
  const entryId = await withDb(async (db) => {
    await db.execute(sql`
      insert into flashcard_memory (user_id, card_id, due, stability, difficulty, elapsed_days, scheduled_days, reps, lapses, state, last_review, last_missed)
      select ${learner.id}, k.id, now() - interval '1 day', 1, 5, 1, 1, 1, 1, 3, now() - interval '2 days', true
      from flashcard_cards k where k.category_slug = 'animais' and not k.hidden and k.deleted_at is null
      order by k.order_index, k.id limit 2`);
    const [entry] = await db
      .insert(notebookEntries)
      .values({
        userId: learner.id,
        kind: "grammar",
        wrong: WRONG,
        right: RIGHT,
        rightKey: RIGHT.toLowerCase(),
        explanation: EXPLANATION,
        alternatives: ["I had 30 years", "I was 30 years", "I have 30 years old"],
        source: "chat",
        details: { sentence: SENTENCE },
        due: new Date(Date.now() - 60_000),
      })
      .returning();
    return entry!.id;
  });

  await visit(page, "/flashcard-v2");
  const review = row(page, "Revisão");
  await review.scrollIntoViewIfNeeded();
  // the correction counts among the bundle's cards
  await expect(review.getByTestId("offline-download-size")).toHaveText(/^\d+(,\d)? (KB|MB) · 3 cartões$/, { timeout: budget(15_000) });
  await review.getByRole("button", { name: "Baixar para praticar offline" }).click();
  await expect(review.getByTestId("offline-download-size")).toHaveText(/^Baixado · \d+(,\d)? (KB|MB) · 3 cartões · válido até \d\d\/\d\d$/, {
    timeout: budget(60_000),
  });

  // the service worker controls the page, with the offline player precached
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: budget(15_000) }).toBe(true);
  await expect
    .poll(() => page.evaluate(async () => Boolean(await caches.match("/flashcard-v2/offline", { ignoreSearch: true }))), {
      timeout: budget(15_000),
    })
    .toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page).toHaveURL(/\/flashcard-v2\/offline$/);
  await page.getByRole("button", { name: "Jogar Revisão" }).click();
  await page.getByRole("button", { name: "Começar" }).click();

  const position = page.getByTestId("flashcard-position");
  // card, correction, card: one after the other, as online
  for (let i = 0; i < 3; i++) {
    await expect(position).toHaveText(`Cartão ${i + 1} de 3`, { timeout: budget(i === 0 ? 20_000 : 8_000) });
    if (i === 1) {
      const sentence = page.getByTestId("correction-sentence");
      await expect(sentence).toContainText("Você disse");
      await expect(sentence.locator("blockquote")).toHaveText(SENTENCE);
      await expect(sentence.locator("mark")).toHaveText(WRONG);
      const group = page.getByRole("group", { name: "Como se diz corretamente?" });
      await expect(group.getByRole("radio")).toHaveCount(4);
      // nothing says which form is right before Verificar
      await expect(page.getByText("Resposta certa")).toHaveCount(0);
      await expectAccessible(page);
      await group.getByRole("radio", { name: RIGHT, exact: true }).check();
    } else {
      await expect(page.getByRole("group", { name: "What is this?" })).toBeVisible();
      await page.locator('input[name="optionId"]').first().check();
    }
    await page.getByRole("button", { name: "Verificar" }).click();
    const feedback = page.getByTestId("flashcard-feedback");
    await expect(feedback).toBeVisible();
    if (i === 1) {
      await expect(feedback).toContainText("Correto!");
      await expect(feedback).toContainText(`A forma certa é ${RIGHT}. ${EXPLANATION}`);
      await expectAccessible(page);
    }
    await page.getByRole("button", { name: i === 2 ? "Finalizar" : "Próximo" }).click();
  }
  await expect(page.getByTestId("flashcards-result")).toBeVisible();
  await page.getByRole("button", { name: "Escolher outro download" }).click();
  await expect(page.getByTestId("offline-sync-status")).toHaveText("3 respostas aguardando sincronização");

  // back online: synced once, the correction decided on the server and its entry rescheduled
  await context.setOffline(false);
  await expect(page.getByTestId("offline-sync-status")).toHaveText("3 respostas sincronizadas", { timeout: budget(20_000) });
  const questions = await withDb((db) =>
    db
      .select({
        entryId: flashcardQuestions.entryId,
        chosenIndex: flashcardQuestions.chosenIndex,
        correct: flashcardQuestions.correct,
        texts: flashcardQuestions.optionTexts,
      })
      .from(flashcardQuestions)
      .innerJoin(flashcardGames, eq(flashcardGames.id, flashcardQuestions.gameId))
      .where(and(eq(flashcardGames.userId, learner.id), isNotNull(flashcardQuestions.answerKey))),
  );
  expect(questions).toHaveLength(3);
  const correction = questions.find((q) => q.entryId === entryId)!;
  expect(correction.correct).toBe(true);
  expect(correction.texts![correction.chosenIndex!]).toBe(RIGHT);
  const [game] = await withDb((db) => db.select().from(flashcardGames).where(eq(flashcardGames.userId, learner.id)));
  expect(game).toMatchObject({ kind: "review", questionCount: 3, answeredCount: 3 });
  expect(game!.finishedAt).not.toBeNull();
  const [entry] = await withDb((db) => db.select().from(notebookEntries).where(eq(notebookEntries.id, entryId)));
  expect(entry).toMatchObject({ reps: 1, state: "practising" });
  expect(entry!.due.getTime()).toBeGreaterThan(Date.now() + 12 * 3_600_000);
  expect((await userById(learner.id)).monthlyCredits).toBe(49);
});
