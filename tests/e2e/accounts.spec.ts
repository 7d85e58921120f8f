// Accounts, through the real forms: the only spec that signs in with /signin (the others get a
// session from the fixtures in ./support, whose cookie the last test here compares with the form's).
import { eq } from "drizzle-orm";
import { SESSION_CHECK_EVERY_MS, SESSION_CHECK_MIN_GAP_MS } from "../../app/features/shell/ui/use-session-check";
import { sha256Hex } from "../../app/server/password";
import { sessions, users } from "../../app/server/schema";
import {
  PASSWORD,
  budget,
  emailsSentTo,
  expect,
  expectAccessible,
  followMailLink,
  jsEnabled,
  sessionCookie,
  signInWithForm,
  test,
  uniqueEmail,
  userByEmail,
  visit,
  withDb,
} from "./support";

test("sign-up → confirm through the mailbox → sign-in → home → Labs → sign-out", async ({ page }, testInfo) => {
  // A long journey with several axe checks (each replays the page without JavaScript): its own budget, not the 45 s default.
  test.setTimeout(budget(120_000));
  const email = uniqueEmail(testInfo, "cadastro");

  await page.goto("/signup");
  await expectAccessible(page);
  await page.getByLabel("Nome").fill("Ana Souza");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("WhatsApp").fill("+55 21 99999-0000");
  await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirmar senha").fill(PASSWORD);
  await page.getByRole("button", { name: "Criar conta" }).click();

  await expect(page).toHaveRedirectedTo("/email-verification");
  await expect(page.getByText(email)).toBeVisible();
  await expectAccessible(page);

  // The worker sent it through the mail API (Resend protocol) and kept it in the outbox.
  await expect.poll(async () => (await emailsSentTo(email)).map((m) => m.subject)).toContain("Confirme seu email no Nika");

  await followMailLink(page, email, "/confirm-email");
  await expect(page.getByRole("heading", { name: "Email confirmado!" })).toBeVisible();
  await expectAccessible(page);
  await expect(page).toHaveRedirectedTo("/", { timeout: budget(10_000) }); // 2 s redirect, with or without JS
  expect((await userByEmail(email))?.emailConfirmedAt).not.toBeNull();

  await page.getByRole("button", { name: "Sair" }).first().click();
  await expect(page).toHaveRedirectedTo("/signin");

  await signInWithForm(page, email, PASSWORD);
  await expect(page).toHaveRedirectedTo("/");
  await expect(page).toShowToast("Login realizado com sucesso!");
  await expect(page.getByRole("link", { name: /Chat with Nika/ }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: /Teacher FLIX/ }).first()).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("main").getByRole("link", { name: /Labs/ }).click();
  await expect(page).toHaveURL(/\/labs$/);
  await expect(page.getByRole("link", { name: /Flashcards/ })).toBeVisible();
  await expect(page.getByText("BETA").first()).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Sair" }).first().click();
  await expect(page).toHaveRedirectedTo("/signin");
  await page.goto("/labs");
  await expect(page).toHaveRedirectedTo("/signin?redirectTo=%2Flabs");
});

test("sign-up shows the validation messages of the spec", async ({ page }) => {
  await page.goto("/signup");
  await page.getByLabel("Email").fill("nao-e-um-email");
  await page.getByLabel("Senha", { exact: true }).fill("abc");
  await page.getByLabel("Confirmar senha").fill("abd");
  await page.getByRole("button", { name: "Criar conta" }).click();
  await expect(page.getByText("Nome é obrigatório")).toBeVisible();
  await expect(page.getByText("Email inválido")).toBeVisible();
  await expect(page.getByText("WhatsApp é obrigatório")).toBeVisible();
  await expect(page.getByText("A senha deve ter pelo menos 8 caracteres")).toBeVisible();
  await expect(page.getByText("Senhas não coincidem")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("nao-e-um-email");
  await expectAccessible(page);
});

test("an existing e-mail is refused", async ({ page, createAccount }) => {
  const existing = await createAccount();
  await page.goto("/signup");
  await page.getByLabel("Nome").fill("Outra Pessoa");
  await page.getByLabel("Email").fill(existing.email);
  await page.getByLabel("WhatsApp").fill("+55 11 91111-2222");
  await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirmar senha").fill(PASSWORD);
  await page.getByRole("button", { name: "Criar conta" }).click();
  await expect(page.getByText("Email já cadastrado")).toBeVisible();
  await expect(page.getByRole("link", { name: "Ir para o login" })).toBeVisible();
});

test("an anonymous visitor is sent to /signin and comes back after signing in", async ({ page, createAccount }) => {
  const account = await createAccount();
  await page.goto("/labs");
  await expect(page).toHaveRedirectedTo("/signin?redirectTo=%2Flabs");
  await expectAccessible(page);
  await signInWithForm(page, account.email, account.password);
  await expect(page).toHaveRedirectedTo("/labs");
});

test("a wrong password gets the spec's message", async ({ page, createAccount }) => {
  const account = await createAccount();
  await page.goto("/signin");
  await signInWithForm(page, account.email, "SenhaErrada1");
  await expect(page.getByText("Email ou senha incorretos. Tente novamente.")).toBeVisible();
  await expect(page).toHaveRedirectedTo("/signin");
  await expectAccessible(page);
});

test("the sixth sign-in attempt in 15 minutes is refused, even with the right password", async ({ page, createAccount }) => {
  const { email } = await createAccount("learner", { label: "tentativas" });
  await page.goto("/signin");
  for (let attempt = 1; attempt <= 5; attempt++) {
    await signInWithForm(page, email, `Errada${attempt}x`);
    await expect(page.getByText("Email ou senha incorretos. Tente novamente.")).toBeVisible();
  }
  await signInWithForm(page, email, PASSWORD);
  await expect(page.getByText("Muitas tentativas")).toBeVisible();
  await expect(page.getByText(/Aguarde \d+ minutos antes de tentar novamente\./)).toBeVisible();
  await expect(page).toHaveRedirectedTo("/signin");
});

test("password reset end to end", async ({ page, createAccount }) => {
  const { email } = await createAccount("learner", { label: "reset" });

  await page.goto("/signin");
  await page.getByRole("link", { name: "Esqueceu a senha?" }).click();
  await expect(page).toHaveRedirectedTo("/forgot-password");
  await expectAccessible(page);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Enviar link de redefinição" }).click();
  await expect(page.getByText(/Se o email estiver cadastrado/)).toBeVisible();

  await followMailLink(page, email, "/reset-password");
  await expect(page.getByRole("heading", { name: "Criar nova senha" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Nova senha", { exact: true }).fill("semnumero");
  await page.getByLabel("Confirmar nova senha").fill("semnumero");
  await page.getByRole("button", { name: "Redefinir senha" }).click();
  await expect(page.getByText("A senha deve conter pelo menos uma letra e um número.")).toBeVisible();

  await page.getByLabel("Nova senha", { exact: true }).fill("NovaSenha2025");
  await page.getByLabel("Confirmar nova senha").fill("NovaSenha2025");
  await page.getByRole("button", { name: "Redefinir senha" }).click();
  await expect(page.getByRole("heading", { name: "Senha redefinida!" })).toBeVisible();
  await expect(page).toHaveRedirectedTo("/signin", { timeout: budget(10_000) });

  await signInWithForm(page, email, PASSWORD);
  await expect(page.getByText("Email ou senha incorretos. Tente novamente.")).toBeVisible();
  await signInWithForm(page, email, "NovaSenha2025");
  await expect(page).toHaveRedirectedTo("/");
});

test("a blocked account lands on /blocked", async ({ page, createAccount }) => {
  const account = await createAccount("blocked");
  await page.goto("/signin");
  await signInWithForm(page, account.email, account.password);
  await expect(page).toHaveRedirectedTo("/blocked");
  await expect(page.getByRole("heading", { name: "Conta restrita" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Falar com o suporte" })).toHaveAttribute("href", /^mailto:/);
  await expectAccessible(page);
  await page.goto("/labs");
  await expect(page).toHaveRedirectedTo("/blocked");
});

test("the sign-in form issues the same session cookie the test fixtures forge", async ({ page, createAccount }) => {
  const account = await createAccount();
  await page.goto("/signin");
  await signInWithForm(page, account.email, account.password);
  await expect(page).toHaveRedirectedTo("/");
  const issued = (await page.context().cookies()).find((cookie) => cookie.name === "nika_session");
  expect(issued).toBeDefined();
  // the fixtures' cookie definition reads it: a token whose SHA-256 keys a session of this account
  const token = await sessionCookie.parse(`nika_session=${issued!.value}`);
  expect(typeof token).toBe("string");
  const [row] = await withDb(async (db) =>
    db
      .select()
      .from(sessions)
      .where(eq(sessions.id, await sha256Hex(token))),
  );
  expect(row?.userId).toBe(account.id);
  // and the browser keeps both the same way (name, path, flags, a 30-day lifetime)
  const { value: _v, expires, ...flags } = issued!;
  const { value: _f, expires: forgedExpires, ...forgedFlags } = account.browserCookie;
  expect(flags).toEqual(forgedFlags);
  expect(Math.abs(expires - forgedExpires)).toBeLessThan(300);
});

// The session check of open pages (spec: on tab focus and every 5 minutes). Without JavaScript there is none:
// the next navigation meets the server's guard, which the tests above cover.
test.describe("an open page checks its session", () => {
  test.beforeEach(({}, testInfo) => test.skip(!jsEnabled(testInfo), "the session check is a script"));

  test("the tab comes back after the account was blocked: /blocked", async ({ page, learner }) => {
    await page.clock.install();
    await visit(page, "/labs");
    await withDb((db) => db.update(users).set({ accountType: "blocked" }).where(eq(users.id, learner.id)));
    await page.clock.fastForward(SESSION_CHECK_MIN_GAP_MS); // right after a page load there is nothing to ask
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    await expect(page).toHaveURL(/\/blocked$/);
    await expect(page.getByRole("heading", { name: "Conta restrita" })).toBeVisible();
  });

  test("the window gets focus after the session was revoked: /signin, back to the page after signing in", async ({ page, learner }) => {
    await page.clock.install();
    await visit(page, "/labs");
    await withDb((db) => db.delete(sessions).where(eq(sessions.userId, learner.id)));
    await page.clock.fastForward(SESSION_CHECK_MIN_GAP_MS);
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await expect(page).toHaveURL(/\/signin\?redirectTo=%2Flabs$/);
    await signInWithForm(page, learner.email, learner.password);
    await expect(page).toHaveURL(/\/labs$/);
  });

  test("every 5 minutes, with no focus at all", async ({ page, learner }) => {
    await page.clock.install();
    await visit(page, "/labs");
    await withDb((db) => db.delete(sessions).where(eq(sessions.userId, learner.id)));
    await page.clock.runFor(SESSION_CHECK_EVERY_MS - 1_000);
    await expect(page).toHaveURL(/\/labs$/);
    await page.clock.runFor(1_000);
    await expect(page).toHaveURL(/\/signin\?redirectTo=%2Flabs$/);
  });
});
