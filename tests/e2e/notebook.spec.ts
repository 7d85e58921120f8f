// "Meu caderno", JS on and off: a chat turn with two mistakes (the fake provider's review finds them) → the notebook
// shows both, grouped by kind, with the right form and a link to the conversation → "Já sei" masters one, "Essa correção
// está errada" removes the other for good; axe passes on the full and the empty notebook. Then the loop: a mistake
// → "Hoje" offers "Revisar seus erros (1)" → Revisão's correction card, answered right → the item ticks.
import { eq } from "drizzle-orm";
import { notebookEntries } from "../../app/features/notebook/tables";
import { expect, expectAccessible, jsEnabled, test, visit, waitForHydration, withDb } from "./support";

const TURN = "I have 20 years and people is nice";
// The fake provider's reply echoes the learner (tests/fake-upstream).
const REPLY = `Você disse: "${TURN}". Muito bem, continue praticando!`;

test("a chat turn's mistakes land in Meu caderno; 'Já sei' and 'Essa correção está errada' act on them", async ({ page, learner }, testInfo) => {
  await visit(page, "/caderno");
  await expect(page.getByRole("heading", { level: 1, name: "Meu caderno" })).toBeVisible();
  await expect(page.getByText("Seu caderno ainda está vazio.", { exact: false })).toBeVisible();
  await expectAccessible(page);

  await page.goto("/chat-with-nika/english");
  await expect(page).toHaveURL(/\?c=[0-9a-f-]{36}$/);
  const conversation = new URL(page.url()).searchParams.get("c")!;
  if (jsEnabled(testInfo)) await waitForHydration(page);
  await page.getByLabel("Mensagem para a Nika").fill(TURN);
  await page.getByRole("button", { name: "Enviar" }).click();
  await expect(page.locator('[data-testid="chat-message"][data-role="nika"]').last().getByTestId("message-text")).toHaveText(REPLY);
  // The review runs after the reply, in the background.
  await expect
    .poll(() => withDb(async (db) => (await db.select().from(notebookEntries).where(eq(notebookEntries.userId, learner.id))).length))
    .toBe(2);

  await page.getByRole("navigation", { name: "Navegação principal" }).getByRole("link", { name: "Meu caderno" }).click();
  await expect(page).toHaveRedirectedTo("/caderno");
  if (jsEnabled(testInfo)) await waitForHydration(page);
  const grammar = page.getByRole("region", { name: /Gramática/ });
  const falseFriends = page.getByRole("region", { name: /Falsos cognatos/ });
  await expect(grammar.getByTestId("notebook-wrong")).toHaveText(["people is"]);
  await expect(grammar.getByTestId("notebook-right")).toHaveText(["people are"]);
  await expect(grammar.getByText("People já é plural em inglês: use are.")).toBeVisible();
  await expect(falseFriends.getByTestId("notebook-right")).toHaveText(["I am 20 years old"]);
  await expect(falseFriends.getByTestId("notebook-state")).toHaveText(["nova"]);
  await expect(falseFriends.getByText("1 vez")).toBeVisible();
  // The link lands on the turn itself.
  await expect(falseFriends.getByRole("link", { name: "Na conversa" })).toHaveAttribute(
    "href",
    new RegExp(`^/chat-with-nika/english\\?c=${conversation}#m-[0-9a-f-]{36}$`),
  );
  await expectAccessible(page);

  await grammar.getByRole("button", { name: "Já sei" }).click();
  await expect(page).toShowToast("Marcada como dominada");
  await expect(grammar.getByTestId("notebook-state")).toHaveText(["dominada"]);
  await expect(grammar.getByRole("button", { name: "Já sei" })).toHaveCount(0);

  await falseFriends.getByRole("button", { name: "Essa correção está errada" }).click();
  await expect(page).toShowToast("Correção removida");
  await expect(falseFriends).toHaveCount(0);
  await expect(page.getByTestId("notebook-entry")).toHaveCount(1);

  // Kept, and counted for the admin: dismissed, not deleted.
  const rows = await withDb((db) =>
    db
      .select({ right: notebookEntries.right, dismissedAt: notebookEntries.dismissedAt, state: notebookEntries.state })
      .from(notebookEntries)
      .where(eq(notebookEntries.userId, learner.id)),
  );
  expect(rows.map((r) => [r.right, r.state, r.dismissedAt !== null]).sort()).toEqual([
    ["I am 20 years old", "new", true],
    ["people are", "mastered", false],
  ]);
});

test("a mistake comes back in Revisão as a correction card; answered right, Hoje's item ticks", async ({ page, learner }, testInfo) => {
  const js = jsEnabled(testInfo);
  await page.goto("/chat-with-nika/english");
  await expect(page).toHaveURL(/\?c=[0-9a-f-]{36}$/);
  if (js) await waitForHydration(page);
  await page.getByLabel("Mensagem para a Nika").fill("Hello, I have 31 years.");
  await page.getByRole("button", { name: "Enviar" }).click();
  await expect
    .poll(() => withDb(async (db) => (await db.select().from(notebookEntries).where(eq(notebookEntries.userId, learner.id))).length))
    .toBe(1);

  await visit(page, "/");
  const item = page.getByTestId("plan-mistakes");
  await expect(item).toContainText("Revisar seus erros (1)");
  await expect(item).not.toHaveAttribute("data-done");
  await item.click();
  await expect(page).toHaveURL(/\/flashcard-v2$/);
  if (js) await waitForHydration(page);
  await page.getByTestId("review-tile").click();
  await expect(page).toHaveURL(/\/flashcard-v2\/[0-9a-f-]{36}/);

  const card = page.getByRole("group", { name: "Como se diz corretamente?" });
  await expect(card).toBeVisible();
  await expect(page.getByTestId("correction-sentence")).toContainText("Hello, I have 31 years.");
  await expect(page.getByTestId("correction-sentence").locator("mark")).toHaveText("I have 31 years");
  // The options are the right form and its three alternatives; nothing on the page says which is right yet.
  await expect(card.getByRole("radio")).toHaveCount(4);
  await expect(page.getByText("Resposta certa")).toHaveCount(0);
  await expectAccessible(page);

  await card.getByRole("radio", { name: "I am 31 years old", exact: true }).check();
  await page.getByRole("button", { name: "Verificar" }).click();
  const feedback = page.getByTestId("flashcard-feedback");
  await expect(feedback).toContainText("Correto!");
  await expect(feedback).toContainText("A forma certa é I am 31 years old.");
  await page.getByRole("link", { name: "Finalizar" }).click();
  await expect(page.getByTestId("flashcards-result")).toBeVisible();

  const [stored] = await withDb((db) => db.select().from(notebookEntries).where(eq(notebookEntries.userId, learner.id)));
  expect(stored).toMatchObject({ reps: 1, state: "practising" });
  expect(stored!.due.getTime()).toBeGreaterThan(Date.now() + 86_400_000);

  await visit(page, "/");
  await expect(page.getByTestId("plan-mistakes")).toHaveAttribute("data-done", "true");
  await expect(page.getByTestId("plan-mistakes")).toContainText("Feito hoje");
});
