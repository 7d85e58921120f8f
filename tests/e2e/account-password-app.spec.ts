// /config's Senha and App tabs (issue 11), with JavaScript and without: the password change refuses
// with the §5/§8 texts, then changes it, ends the learner's session in another browser and the new
// password signs in; the avatar picked on the App tab shows in the sidebar after a reload.
import { eq } from "drizzle-orm";
import { profileUpdates } from "../../app/features/account/tables";
import { users } from "../../app/server/schema";
import { PASSWORD, expect, expectAccessible, jsEnabled, signInWithForm, test, visit, withDb } from "./support";

const NEW_PASSWORD = "OutraSenha2025";

test("changes the password: other browsers are signed out, this one stays, the new password signs in", async ({ page, learner, pageAs }) => {
  // Another browser signs in with the form: a session of its own (the fixture's cookie is this page's session).
  const elsewhere = await pageAs({ ...learner, browserCookie: { ...learner.browserCookie, value: "nenhuma" } });
  await elsewhere.goto("/signin");
  await signInWithForm(elsewhere, learner.email, PASSWORD);
  await expect(elsewhere).toHaveRedirectedTo("/");

  await visit(page, "/config/senha");
  await expect(page.getByRole("link", { name: "Senha" })).toHaveAttribute("aria-current", "page");
  await expectAccessible(page);
  const current = page.getByLabel("Senha atual");
  const fresh = page.getByLabel("Nova senha", { exact: true });
  const confirm = page.getByLabel("Confirmar nova senha");
  const submit = page.getByRole("button", { name: "Alterar senha" });

  await current.fill(PASSWORD);
  await fresh.fill("curta1");
  await confirm.fill("outra1");
  await submit.click();
  await expect(page.getByText("A nova senha deve ter pelo menos 8 caracteres, incluir números e letras.")).toBeVisible();
  await expect(page.getByText("As senhas não coincidem.")).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("Senha atual").fill("SenhaErrada1");
  await page.getByLabel("Nova senha", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirmar nova senha").fill(NEW_PASSWORD);
  await submit.click();
  await expect(page.getByRole("alert").filter({ hasText: "Erro ao alterar senha." })).toContainText("A senha atual está incorreta.");

  await page.getByLabel("Senha atual").fill(PASSWORD);
  await page.getByLabel("Nova senha", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirmar nova senha").fill(NEW_PASSWORD);
  await submit.click();
  await expect(page).toShowToast("Senha alterada com sucesso!");
  await expect(page).toHaveURL(/\/config\/senha$/);
  for (const label of ["Senha atual", "Confirmar nova senha"]) await expect(page.getByLabel(label)).toHaveValue("");

  // This browser is still signed in; the other one is not.
  await visit(page, "/config");
  await elsewhere.goto("/config");
  await expect(elsewhere).toHaveRedirectedTo("/signin?redirectTo=%2Fconfig");
  await signInWithForm(elsewhere, learner.email, PASSWORD);
  await expect(elsewhere.getByText("Email ou senha incorretos. Tente novamente.")).toBeVisible();
  await signInWithForm(elsewhere, learner.email, NEW_PASSWORD);
  await expect(elsewhere).toHaveRedirectedTo("/config");
});

test("picks an avatar that shows in the sidebar after a reload; install steps and theme toggle on the App tab", async ({
  page,
  learner,
}, testInfo) => {
  await visit(page, "/config/app");
  await expect(page.getByRole("heading", { name: "Instalar o app" })).toBeVisible();
  // Headless Chromium offers no install prompt and is not standalone: the manual steps are shown.
  await expect(page.getByTestId("install-steps")).toContainText("Adicionar à Tela de Início");
  await expect(page.getByRole("main").getByRole("button", { name: "Alternar tema" })).toBeVisible();
  const avatar = page.getByTestId("user-avatar").first();
  await expect(avatar).toHaveAttribute("src", "/avatars/avatar-2.svg");
  await expect(page.getByRole("radio", { name: "Gato" })).toBeChecked();
  await expect(page.getByRole("group", { name: "Escolha seu avatar" }).getByRole("radio")).toHaveCount(7);
  await expectAccessible(page);

  await page.getByText("Sapo", { exact: true }).click();
  await expect(page.getByRole("radio", { name: "Sapo" })).toBeChecked();
  // With JavaScript choosing submits at once; without it the button does.
  if (!jsEnabled(testInfo)) await page.getByRole("button", { name: "Salvar avatar" }).click();
  await expect(page).toShowToast("Avatar atualizado!");
  await expect.poll(async () => withDb(async (db) => (await db.select().from(users).where(eq(users.id, learner.id)))[0]!.avatar)).toBe(5);

  await page.reload();
  await expect(page.getByTestId("user-avatar").first()).toHaveAttribute("src", "/avatars/avatar-5.svg");
  await expect(page.getByRole("radio", { name: "Sapo" })).toBeChecked();
  if (jsEnabled(testInfo)) {
    // Arrowing through the group saves only where the learner stops (Coala), not each avatar on the way.
    await page.getByRole("radio", { name: "Sapo" }).focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("radio", { name: "Coala" })).toBeChecked();
    await expect(page).toShowToast("Avatar atualizado!");
    await expect(page.getByTestId("user-avatar").first()).toHaveAttribute("src", "/avatars/avatar-7.svg");
  }
  const changes = await withDb((db) => db.select().from(profileUpdates).where(eq(profileUpdates.userId, learner.id)));
  expect(changes).toHaveLength(jsEnabled(testInfo) ? 2 : 1);
  const image = await page.request.get("/avatars/avatar-5.svg");
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toContain("image/svg+xml");
  await expectAccessible(page);
});
