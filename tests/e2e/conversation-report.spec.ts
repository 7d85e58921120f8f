// "Resumo da conversa", JS on and off: a chat turn with a mistake (the fake provider's review finds it) → the back link
// leaves to the report, which shows the correction beside its right form → the conversation's page links it. Then the
// next conversation brings the mistake back: the learner uses the right form and the report marks it used right.
// With JavaScript, 10 idle minutes end on the report too. axe passes on the report.
import { and, eq } from "drizzle-orm";
import { notebookEntries, notebookSightings } from "../../app/features/notebook/tables";
import { expect, expectAccessible, jsEnabled, test, waitForHydration, withDb } from "./support";

const TURN = "I have 20 years";
const reply = (text: string) => `Você disse: "${text}". Muito bem, continue praticando!`;

async function openChat(page: import("@playwright/test").Page, js: boolean) {
  await page.goto("/chat-with-nika/english");
  await expect(page).toHaveURL(/\?c=[0-9a-f-]{36}$/);
  if (js) await waitForHydration(page);
  return new URL(page.url()).searchParams.get("c")!;
}

async function send(page: import("@playwright/test").Page, text: string) {
  await page.getByLabel("Mensagem para a Nika").fill(text);
  await page.getByRole("button", { name: "Enviar" }).click();
  await expect(page.locator('[data-testid="chat-message"][data-role="nika"]').last().getByTestId("message-text")).toHaveText(reply(text));
}

test("leaving a chat shows its report with the correction; the next conversation's right use is marked", async ({ page, learner }, testInfo) => {
  const js = jsEnabled(testInfo);
  const conversation = await openChat(page, js);
  // Nothing said yet: back goes to the modes, and there is no report to link.
  await expect(page.getByTestId("chat-back")).toHaveAttribute("href", "/chat-with-nika");
  await expect(page.getByRole("link", { name: "Resumo da conversa", exact: true })).toHaveCount(0);

  await send(page, TURN);
  // The review runs after the reply, in the background.
  await expect
    .poll(() => withDb(async (db) => (await db.select().from(notebookEntries).where(eq(notebookEntries.userId, learner.id))).length))
    .toBe(1);
  const report = `/conversas/${conversation}/resumo`;
  await expect(page.getByRole("link", { name: "Resumo da conversa", exact: true })).toHaveAttribute("href", report);

  await page.getByRole("link", { name: "Sair e ver o resumo da conversa" }).click();
  await expect(page).toHaveURL(report);
  await expect(page.getByRole("heading", { level: 1, name: "Resumo da conversa" })).toBeVisible();
  await expect(page.getByTestId("report-turns")).toHaveText("1 fala");
  const correction = page.getByTestId("report-correction");
  await expect(correction.getByTestId("report-wrong")).toHaveText(["I have 20 years"]);
  await expect(correction.getByTestId("report-right")).toHaveText(["I am 20 years old"]);
  await expect(correction.getByText("Em inglês, a idade vem com o verbo to be", { exact: false })).toBeVisible();
  await expect(correction.getByRole("link", { name: "Ver na conversa" })).toHaveAttribute(
    "href",
    new RegExp(`^/chat-with-nika/english\\?c=${conversation}#m-[0-9a-f-]{36}$`),
  );
  await expectAccessible(page);

  await page.getByRole("link", { name: "Voltar à conversa" }).click();
  await expect(page).toHaveURL(`/chat-with-nika/english?c=${conversation}`);
  await expect(page.getByRole("link", { name: "Resumo da conversa", exact: true })).toHaveAttribute("href", report);

  // A new conversation brings the mistake back; the learner says it right, unprompted.
  const next = await openChat(page, js);
  expect(next).not.toBe(conversation);
  await send(page, "I am 20 years old");
  await expect
    .poll(() =>
      withDb(
        async (db) =>
          (
            await db
              .select()
              .from(notebookSightings)
              .where(and(eq(notebookSightings.conversationId, next), eq(notebookSightings.kind, "used_right")))
          ).length,
      ),
    )
    .toBe(1);
  await page.getByRole("link", { name: "Sair e ver o resumo da conversa" }).click();
  await expect(page).toHaveURL(`/conversas/${next}/resumo`);
  await expect(page.getByText("Nenhuma correção nesta conversa. Muito bem!")).toBeVisible();
  const focus = page.getByTestId("report-focus");
  await expect(focus).toHaveAttribute("data-used-right", "true");
  await expect(focus).toContainText("I am 20 years old");
  await expect(focus).toContainText("Você usou certo");
  await expectAccessible(page);
});

test("ten idle minutes in a chat end on its report", async ({ page, learner: _ }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "a timer in the page: without JavaScript there is none");
  await page.clock.install();
  const conversation = await openChat(page, true);
  await send(page, "Hello Nika");
  // Shown once the reply has finished: the idle clock starts from there.
  await expect(page.getByRole("link", { name: "Resumo da conversa", exact: true })).toBeVisible();
  await page.clock.fastForward("09:00");
  await expect(page).toHaveURL(new RegExp(`\\?c=${conversation}$`));
  await page.clock.fastForward("01:01");
  await expect(page).toHaveURL(`/conversas/${conversation}/resumo`);
  await expect(page.getByTestId("report-turns")).toHaveText("1 fala");
});
