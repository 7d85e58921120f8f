import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { chatMessages } from "../../app/features/conversation/tables";
import { users } from "../../app/server/schema";
import { expect, expectAccessible, jsEnabled, test, userById, waitForHydration, withDb } from "./support";

// Chat with Nika against the fake upstream speaking the OpenAI protocol (tests/fake-upstream, tokens
// every 40 ms). Its reply echoes the learner: `Você disse: "<text>". Muito bem, continue praticando!`.
export const reply = (text: string) => `Você disse: "${text}". Muito bem, continue praticando!`;
const GREETING = reply("start");

const messages = (page: Page) => page.getByTestId("chat-message");
const nikaMessages = (page: Page) => page.locator('[data-testid="chat-message"][data-role="nika"]');

/** Opens a mode and waits for Nika's greeting (streamed with JS; awaited by the server without). */
async function openChat(page: Page, path = "/chat-with-nika/english") {
  await page.goto(path);
  await expect(page).toHaveURL(/\?c=[0-9a-f-]{36}$/);
  await expect(nikaMessages(page).first().getByTestId("message-text")).toHaveText(GREETING);
  if (jsEnabled(test.info())) await waitForHydration(page);
}

test("the mode menu shows the four modes and each opens its chat, greeted by Nika", async ({ page, learner: _ }) => {
  await page.goto("/chat-with-nika");
  const cards = page.getByRole("main").getByRole("link");
  await expect(cards).toHaveText([/Começar em Português/, /Tópico em Inglês/, /Game/, /Role Play/]);
  await expect(page.getByRole("link", { name: /Teste de Nível/ })).toHaveCount(0);
  await expectAccessible(page);

  await page.getByRole("link", { name: /Role Play/ }).click();
  await expect(page).toHaveURL(/\/chat-with-nika\/roleplay\?c=/);
  await expect(page.getByRole("heading", { level: 1, name: "Role Play" })).toBeVisible();
  await expect(nikaMessages(page).getByTestId("message-text")).toHaveText([GREETING]);
  await expect(page.getByRole("link", { name: "Voltar aos modos" })).toHaveAttribute("href", "/chat-with-nika");
  await expectAccessible(page);
});

test("a text message is answered and survives a reload", async ({ page, learner }) => {
  await openChat(page);
  const box = page.getByLabel("Mensagem para a Nika");
  await box.fill("  I like pizza  ");
  await page.getByRole("button", { name: "Enviar" }).click();
  await expect(nikaMessages(page).last().getByTestId("message-text")).toHaveText(reply("I like pizza"));
  await expect(page.locator('[data-role="user"]').getByTestId("message-text")).toHaveText(["I like pizza"]);
  await expect(page.getByTestId("chat-credits")).toHaveText("49 créditos");
  await expect(box).toHaveValue("");

  await page.reload();
  await expect(messages(page).getByTestId("message-text")).toHaveText([GREETING, "I like pizza", reply("I like pizza")]);
  expect(await userById(learner.id)).toMatchObject({ monthlyCredits: 49, conversationsStarted: 1 });
});

test("with JavaScript the reply streams in pieces; Enter sends and Shift+Enter breaks the line", async ({ page, learner: _ }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "streaming needs JavaScript");
  await openChat(page);
  // A first visit installs the service worker, whose precache asks the same local server for some twenty files:
  // meanwhile the reply's pieces can reach the page together. Measured once it is installed.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  // Record every text the newest Nika bubble shows while the reply arrives.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __seen: string[] }).__seen = seen;
    new MutationObserver(() => {
      const bubbles = document.querySelectorAll('[data-role="nika"] [data-testid="message-text"]');
      const text = bubbles[bubbles.length - 1]?.textContent ?? "";
      if (seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // A long first line: some thirty pieces, 40 ms apart, so a busy machine that paints a few of them together
  // still shows the reply growing.
  const firstLine = "first line of a message long enough that the reply takes more than a second to arrive, word by word";
  const box = page.getByLabel("Mensagem para a Nika");
  await box.fill(firstLine);
  await box.press("Shift+Enter");
  await box.pressSequentially("second line");
  await expect(box).toHaveValue(`${firstLine}\nsecond line`);
  await box.press("Enter");
  await expect(page.getByTestId("typing-indicator").or(nikaMessages(page).nth(1))).toBeVisible();
  const full = reply(`${firstLine}\nsecond line`);
  await expect(nikaMessages(page).last().getByTestId("message-text")).toHaveText(full);
  const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
  const partial = seen.filter((text) => text.length > 0 && text !== full && full.startsWith(text));
  expect(partial.length).toBeGreaterThanOrEqual(3);
  await expect(page.locator('[data-role="user"]').getByTestId("message-text")).toHaveText(`${firstLine}\nsecond line`);
  // Nika's reply has a player (audio stored in R2 by the speech provider)
  await expect(nikaMessages(page).last().getByRole("button", { name: "Ouvir a resposta da Nika" })).toBeVisible();
  // an empty text is not sent: the microphone takes the send button's place
  await expect(page.getByRole("button", { name: "Enviar" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Gravar mensagem de voz" })).toBeVisible();
});

test("at zero credits the message is refused and the text kept", async ({ page, learner }, testInfo) => {
  await withDb((db) => db.update(users).set({ monthlyCredits: 0 }).where(eq(users.id, learner.id)));
  await openChat(page);
  const box = page.getByLabel("Mensagem para a Nika");
  await box.fill("Can I still talk?");
  await page.getByRole("button", { name: "Enviar" }).click();
  if (jsEnabled(testInfo)) {
    const dialog = page.getByRole("dialog", { name: "Créditos Esgotados" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Seus créditos acabaram. Para continuar jogando agora, use o botão abaixo para comprar mais créditos.");
    await expect(dialog.getByRole("button", { name: "Comprar mais créditos" })).toBeVisible();
    await dialog.getByRole("button", { name: "Voltar" }).click();
    await expect(dialog).toBeHidden();
  } else {
    const alert = page.getByRole("alert").filter({ hasText: "Créditos Esgotados" });
    await expect(alert).toContainText("Seus créditos acabaram.");
    await expect(alert.getByRole("link", { name: "Comprar mais créditos" })).toBeVisible();
  }
  await expect(box).toHaveValue("Can I still talk?");
  await expect(page.locator('[data-role="user"]')).toHaveCount(0);
  const stored = await withDb((db) => db.select().from(chatMessages).where(eq(chatMessages.text, "Can I still talk?")));
  expect(stored).toEqual([]);
});

test("the English level test ends with a level shown on the page and on the account", async ({ page, learner }) => {
  await page.goto("/english-level-test");
  await expect(page.getByRole("link", { name: "Voltar ao Labs" })).toHaveAttribute("href", "/labs");
  await page.getByRole("button", { name: "Começar o teste" }).click();
  await expect(page).toHaveURL(/\/english-level-test\?c=/);
  await expect(nikaMessages(page).first().getByTestId("message-text")).toHaveText(GREETING);
  if (jsEnabled(test.info())) await waitForHydration(page);
  // The fake model echoes the text; the echoed marker is the structured end of the test.
  await page.getByLabel("Mensagem para a Nika").fill("[[NIKA_LEVEL:B2]]");
  await page.getByRole("button", { name: "Enviar" }).click();
  await expect(page.getByTestId("english-level")).toContainText("B2 — Intermediário avançado");
  await expect(nikaMessages(page).last().getByTestId("message-text")).toHaveText('Você disse: "". Muito bem, continue praticando!');

  await page.goto("/config");
  await expect(page.getByTestId("account-english-level")).toContainText(/B2 — Intermediário avançado \(teste feito em \d{2}\/\d{2}\/\d{4}\)/);
  const testDay = (await page.getByTestId("account-english-level").innerText()).match(/\d{2}\/\d{2}\/\d{4}/)![0];
  await page.goto("/english-level-test");
  await expect(page.getByRole("button", { name: "Refazer o teste" })).toBeVisible();
  await expect(page.getByTestId("english-level")).toContainText(`Teste feito em ${testDay}`);
  expect((await userById(learner.id)).englishLevel).toBe("B2");
});

test("lesson practice opens from its key; an unknown key is a 404", async ({ page, learner: _ }) => {
  await openChat(page, "/chat/lesson/M01A01");
  await expect(page.getByText("Praticar a aula M01A01 com a Nika")).toBeVisible();
  await page.goto("/chat/lesson/M99A01");
  await expect(page.getByRole("heading", { name: "Página não encontrada" })).toBeVisible();
});
