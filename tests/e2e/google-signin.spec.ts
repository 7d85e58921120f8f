// Google sign-in through the fake upstream's consent page (tests/fake-upstream/google.mjs speaks Google's
// OAuth2/OIDC protocol), JS on and off: a plain link to /auth/google, the consent form, the callback, the
// WhatsApp question. The fake is shared by parallel tests, so each one signs in with an e-mail of its own.
// (Switching the flag off lives in tests/serial/google-flag.spec.ts.)
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { oauthAccounts } from "../../app/features/auth/tables";
import { expect, expectAccessible, test, uniqueEmail, userByEmail, withDb } from "./support";

/** On the fake consent page: sign in as `email` (and `name`), or deny. */
async function consentAs(page: Page, email: string, options: { name?: string; deny?: boolean } = {}) {
  await expect(page.getByRole("heading", { name: "Fazer login com o Google" })).toBeVisible();
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  if (options.name !== undefined) await page.getByLabel("Nome").fill(options.name);
  await page.getByRole("button", { name: options.deny ? "Negar" : "Permitir" }).click();
}

const googleLinks = (userId: string) => withDb((db) => db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, userId)));

test("a new account: Google's consent page, the WhatsApp question answered, signed in", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, "google-nova");
  await page.goto("/signin");
  await page.getByRole("link", { name: "Entrar com Google" }).click();
  await consentAs(page, email, { name: "Bruna Google" });

  await expect(page).toHaveRedirectedTo("/auth/google/whatsapp?redirectTo=%2F");
  await expect(page).toShowToast("Login realizado com sucesso!");
  await expect(page.getByRole("heading", { name: "Boas-vindas, Bruna!" })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("WhatsApp").fill("abc");
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("WhatsApp inválido")).toBeVisible();
  await page.getByLabel("WhatsApp").fill("+55 31 97777-1234");
  await page.getByRole("button", { name: "Salvar" }).click();

  await expect(page).toHaveRedirectedTo("/");
  await expect(page).toShowToast("WhatsApp salvo");
  await expect(page.getByRole("link", { name: /Chat with Nika/ }).first()).toBeVisible();
  const user = await userByEmail(email);
  expect(user).toMatchObject({ name: "Bruna Google", phoneNumber: "+55 31 97777-1234", monthlyCredits: 50 });
  expect(user!.emailConfirmedAt).not.toBeNull();
  expect((await googleLinks(user!.id)).map((link) => link.email)).toEqual([email]);
});

test("a new account from a protected page skips the WhatsApp question and comes back to that page", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, "google-pular");
  await page.goto("/labs");
  await expect(page).toHaveRedirectedTo("/signin?redirectTo=%2Flabs");
  await page.getByRole("link", { name: "Entrar com Google" }).click();
  await consentAs(page, email);

  await expect(page).toHaveRedirectedTo("/auth/google/whatsapp?redirectTo=%2Flabs");
  await page.getByRole("button", { name: "Pular" }).click();
  await expect(page).toHaveRedirectedTo("/labs");
  await expect(page.getByRole("link", { name: /Flashcards/ })).toBeVisible();
  expect((await userByEmail(email))!.phoneNumber).toBeNull();
});

test("an existing account signs in with Google by its e-mail", async ({ page, createAccount }) => {
  const account = await createAccount("learner", { label: "google-existente" });
  await page.goto("/signin");
  await page.getByRole("link", { name: "Entrar com Google" }).click();
  await consentAs(page, account.email, { name: "Nome Diferente no Google" });

  await expect(page).toHaveRedirectedTo("/"); // the fixture's account has a WhatsApp number: not asked
  await expect(page).toShowToast("Login realizado com sucesso!");
  await page.goto("/config");
  await expect(page).toHaveRedirectedTo("/config");
  await expect(page.getByText(account.email).first()).toBeVisible();
  expect((await userByEmail(account.email))!.name).toBe(account.name);
  expect(await googleLinks(account.id)).toHaveLength(1);
});

test("a denied consent comes back to /signin with the spec's message", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, "google-negado");
  await page.goto("/signin");
  await page.getByRole("link", { name: "Entrar com Google" }).click();
  await consentAs(page, email, { deny: true });
  await expect(page).toHaveRedirectedTo("/signin");
  await expect(page).toShowToast("Erro ao fazer login com Google. Tente novamente.");
  expect(await userByEmail(email)).toBeUndefined();
});
