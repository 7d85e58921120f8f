// "Meu caderno", JS on and off: a chat turn with two mistakes (the fake provider's review finds them) → the notebook
// shows both, grouped by kind, with the right form and a link to the conversation → "Já sei" masters one, "Essa correção
// está errada" removes the other for good; axe passes on the full and the empty notebook.
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
  await expect(falseFriends.getByRole("link", { name: "Na conversa" })).toHaveAttribute("href", `/chat-with-nika/english?c=${conversation}`);
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
