// The daily habit on the pages (issue 37), with JavaScript and without: the daily goal and the "Lembrete diário"
// switch on /config/app, then "Hoje" on / — the ring of today's points against the goal, the streak and the plan,
// ticked by today's activities — and the goal offered once on / after the first activity.
import { eq } from "drizzle-orm";
import { recordActivity } from "../../app/server/activity.server";
import { SESSION_STALE_MS } from "../../app/server/auth.server";
import { users } from "../../app/server/schema";
import { budget } from "./budget";
import { expect, expectAccessible, jsEnabled, test, visit, withDb } from "./support";

const habitOf = (id: string) =>
  withDb(async (db) => (await db.select({ goal: users.dailyGoal, reminder: users.reminderOptIn }).from(users).where(eq(users.id, id)))[0]!);

test("chooses a goal and the reminder on /config/app, then sees the ring, the streak and the plan on /", async ({ page, learner }, testInfo) => {
  await visit(page, "/config/app");
  const goals = page.getByRole("group", { name: "Escolha sua meta diária" });
  await expect(goals.getByRole("radio")).toHaveCount(4);
  await expect(goals.getByRole("radio", { name: /Regular/ })).toBeChecked();
  await expectAccessible(page);

  await goals.getByText("Sério", { exact: true }).click();
  await page.getByRole("button", { name: "Salvar meta" }).click();
  await expect(page).toShowToast("Meta diária salva!");
  await expect.poll(async () => (await habitOf(learner.id)).goal).toBe(30);
  await expect(page.getByRole("group", { name: "Escolha sua meta diária" }).getByRole("radio", { name: /Sério/ })).toBeChecked();

  await expect(page.getByTestId("reminder-state")).toHaveText("Lembrete diário desativado.");
  await page.getByRole("button", { name: "Ativar lembrete diário" }).click();
  await expect(page).toShowToast("Lembrete diário ativado");
  await expect(page.getByTestId("reminder-state")).toHaveText("Lembrete diário ativado.");
  expect((await habitOf(learner.id)).reminder).toBe(true);

  // A lesson completed today (recorded as the lesson page does): 10 of 30 points, a streak of 1, the lesson ticked.
  await withDb((db) => recordActivity(db, { userId: learner.id, kind: "lesson_completed", ref: `e2e-${testInfo.project.name}` }));
  await visit(page, "/");
  const today = page.getByRole("region", { name: "Hoje" });
  await expect(today.getByRole("img", { name: "Hoje: 10 de 30 pontos" })).toBeVisible();
  await expect(today.getByText("Faltam 20 pontos para a sua meta diária.")).toBeVisible();
  await expect(today.getByTestId("streak")).toHaveText("Ofensiva de 1 dia. Você já praticou hoje!");
  const plan = today.getByRole("list", { name: "Plano de hoje" });
  await expect(plan.getByRole("listitem")).toHaveCount(3);
  await expect(plan.getByRole("link", { name: /Descubra seu nível/ })).toHaveAttribute("href", "/english-level-test");
  await expect(page.getByTestId("goal-offer")).toHaveCount(0); // chosen already
  // The three feature cards stay.
  for (const name of ["Chat with Nika", "Teacher FLIX", "Labs"])
    await expect(page.getByRole("main").getByRole("link", { name: new RegExp(`^${name}`) })).toBeVisible();
  await expectAccessible(page);
});

test("offers the goal once on / after the first activity; choosing it there removes the offer", async ({ page, learner }) => {
  await visit(page, "/");
  await expect(page.getByTestId("goal-offer")).toHaveCount(0);
  await expect(page.getByRole("img", { name: "Hoje: 0 de 20 pontos" })).toBeVisible();

  // Recorded behind the app's back (as by another device): the isolate's copy of the page (keptWithSession) shows it
  // within SESSION_STALE_MS.
  await withDb((db) => recordActivity(db, { userId: learner.id, kind: "flashcard_game", ref: "e2e-first" }));
  const offer = page.getByTestId("goal-offer");
  await expect(async () => {
    await visit(page, "/");
    await expect(offer).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: budget(SESSION_STALE_MS + 10_000) });
  await expectAccessible(page);
  await offer.getByText("Intenso", { exact: true }).click();
  await offer.getByRole("button", { name: "Salvar meta" }).click();
  await expect(page).toShowToast("Meta diária salva!");
  await expect(page).toHaveRedirectedTo("/");
  await expect(page.getByTestId("goal-offer")).toHaveCount(0);
  await expect(page.getByRole("img", { name: "Hoje: 5 de 50 pontos" })).toBeVisible();
  expect((await habitOf(learner.id)).goal).toBe(50);
});

test("a plan item is a link to its page", async ({ page, learner: _ }, testInfo) => {
  await visit(page, "/");
  await page
    .getByRole("list", { name: "Plano de hoje" })
    .getByRole("link", { name: /Pronúncia · nível 1/ })
    .click();
  await expect(page).toHaveRedirectedTo("/pronunciation-game/1");
  if (jsEnabled(testInfo)) await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
