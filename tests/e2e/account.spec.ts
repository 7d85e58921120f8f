// The Conta tab of /config, JS on and off: name and WhatsApp, the e-mail change through the local
// mailbox (Pendente, then the new address), the background handler, axe.
import { expect, expectAccessible, followMailLink, jsEnabled, test, uniqueEmail, userById, visit } from "./support";

test("the learner changes name and WhatsApp", async ({ page, learner }, testInfo) => {
  await visit(page, "/config");
  await expect(page.locator("#creditos")).toBeVisible();
  await expect(page.getByRole("link", { name: "Comprar mais créditos" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Histórico de créditos" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Suas estatísticas" })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("link", { name: "Editar nome" }).click();
  await expect(page).toHaveURL(/\/config\?edit=name$/);
  const name = page.getByLabel("Nome", { exact: true });
  await expect(name).toHaveValue(learner.name);
  await expectAccessible(page);
  await name.fill("   ");
  if (jsEnabled(testInfo)) {
    // blank: the save button waits for a name
    await expect(page.getByRole("button", { name: "Salvar" })).toBeDisabled();
  } else {
    await page.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByText("Nome é obrigatório")).toBeVisible();
  }
  await page.getByLabel("Nome", { exact: true }).fill("  Joana   Prado ");
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(page).toHaveRedirectedTo("/config");
  await expect(page).toShowToast("Nome atualizado");
  await expect(page.getByTestId("account-name")).toContainText("Joana Prado");

  await page.getByRole("link", { name: "Editar whatsapp" }).click();
  await expect(page).toHaveURL(/\/config\?edit=whatsapp$/);
  await page.getByLabel("WhatsApp", { exact: true }).fill("12");
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("WhatsApp inválido")).toBeVisible();
  await page.getByLabel("WhatsApp", { exact: true }).fill("+55 31 97777-1234");
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(page).toShowToast("WhatsApp atualizado");
  await expect(page.getByTestId("account-whatsapp")).toContainText("+55 31 97777-1234");

  const row = await userById(learner.id);
  expect(row).toMatchObject({ name: "Joana Prado", phoneNumber: "+55 31 97777-1234" });
});

test("the learner changes the e-mail through the mailbox link: Pendente, then the new address", async ({ page, learner }, testInfo) => {
  const newEmail = uniqueEmail(testInfo, "novo-email");
  await visit(page, "/config");
  await page.getByRole("link", { name: "Editar email" }).click();
  await expect(page).toHaveURL(/\/config\?edit=email$/);
  await page.getByLabel("Novo email").fill(learner.email.toUpperCase());
  await page.getByRole("button", { name: "Alterar email" }).click();
  await expect(page.getByText("Este já é o seu email atual")).toBeVisible();

  await page.getByLabel("Novo email").fill(` ${newEmail} `);
  await page.getByRole("button", { name: "Alterar email" }).click();
  // the confirm step: a dialog with JS, a section of the page without
  const confirm = jsEnabled(testInfo)
    ? page.getByRole("dialog", { name: "Confirmar alteração de email" })
    : page.getByRole("region", { name: "Confirmar alteração de email" });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText(newEmail);
  await expectAccessible(page);
  await confirm.getByRole("button", { name: "Confirmar e enviar link" }).click();

  await expect(page).toShowToast("Link de confirmação enviado");
  const emailRow = page.getByTestId("account-email");
  await expect(emailRow).toContainText(learner.email);
  await expect(emailRow.getByTestId("account-pending-email")).toContainText(newEmail);
  await expect(emailRow.getByText("Pendente", { exact: true })).toBeVisible();
  await expectAccessible(page);

  await followMailLink(page, newEmail, "/confirm-email");
  await expect(page.getByRole("heading", { name: "Email confirmado!" })).toBeVisible();
  await expect(page).toHaveRedirectedTo("/config", { timeout: 10_000 }); // 2 s, with or without JS
  await expect(page.getByTestId("account-email")).toContainText(newEmail);
  await expect(page.getByText("Pendente", { exact: true })).toHaveCount(0);
  expect((await userById(learner.id)).email).toBe(newEmail);
});

test("an e-mail change link landing on any page goes to /confirm-email", async ({ page, learner }, testInfo) => {
  void learner;
  await page.goto("/courses?token_hash=nao-existe&type=email_change");
  await expect(page).toHaveURL(/\/confirm-email\?token_hash=nao-existe&type=email_change$/);
  await expect(page.getByText("Link de confirmação inválido ou já utilizado.")).toBeVisible();
  if (jsEnabled(testInfo)) {
    await visit(page, "/config#message=Confirmation+link+accepted.+Please+proceed+to+confirm+link+sent+to+the+other+email");
    await expect(page).toShowToast("Link de confirmação aceito");
  }
});
