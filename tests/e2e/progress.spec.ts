// /progresso (issue 37), JS on and off: reached from the sidebar, the chart with its table, the calendar with a frozen
// day and today, the totals; axe in the default dark theme and, with JS, in light.
import { addDays, recordActivity, saoPauloDay } from "../../app/server/activity.server";
import type { ActivityKind } from "../../app/server/schema";
import { expect, expectAccessible, jsEnabled, test, visit, waitForHydration, withDb } from "./support";

test("a learner opens Progresso from the navigation and reads their last 4 weeks", async ({ page, learner }, testInfo) => {
  const today = saoPauloDay(new Date());
  const at = (day: string) => new Date(`${day}T15:00:00Z`); // noon in São Paulo
  await withDb(async (db) => {
    const record = (kind: ActivityKind, day: string, ref: string) => recordActivity(db, { userId: learner.id, kind, ref, at: at(day) });
    for (let d = 10; d >= 4; d--) await record("lesson_completed", addDays(today, -d), `lesson-${d}`); // 7 days: a freeze
    await record("review_game", addDays(today, -2), "review"); // today − 3 missed: frozen
    await record("flashcard_game", addDays(today, -1), "game");
    await record("chat_exchange", today, "chat");
  });

  await visit(page, "/labs");
  await page.getByRole("navigation", { name: "Navegação principal" }).getByRole("link", { name: "Progresso" }).click();
  await expect(page).toHaveRedirectedTo("/progresso");
  if (jsEnabled(testInfo)) await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "Progresso" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Navegação principal" }).getByRole("link", { name: "Progresso" })).toHaveAttribute(
    "aria-current",
    "page",
  );

  await expect(page.getByRole("img", { name: "Pontos por dia nas últimas 4 semanas" })).toBeVisible();
  await expect(page.getByText("Últimas 4 semanas: 81 pontos, 10 dias com atividade.")).toBeVisible();
  await page.getByText("Ver os pontos em tabela").click(); // a <details>: opens without JavaScript too
  const table = page.getByRole("table", { name: "Pontos por dia nas últimas 4 semanas" });
  await expect(table.getByRole("row")).toHaveCount(29);
  await expect(table.getByRole("row", { name: /^hoje \(/ })).toContainText("1");

  const frozen = page.locator(`td[data-day="${addDays(today, -3)}"]`);
  await expect(frozen).toHaveAttribute("data-state", "frozen");
  await expect(page.locator('td[aria-current="date"]')).toHaveAttribute("data-day", today);

  const streak = page.getByRole("region", { name: "Ofensiva" });
  await expect(streak.getByText("10 dias").first()).toBeVisible(); // 7, the review, yesterday's game and today
  const totals = page.getByRole("region", { name: "Desde o início" });
  await expect(totals.getByRole("definition").first()).toHaveText("7"); // Aulas concluídas
  await expect(totals.getByText("Minutos ao vivo")).toBeVisible();

  await expectAccessible(page); // dark, the default theme
  if (!jsEnabled(testInfo)) return;
  await page.evaluate(() => localStorage.setItem("theme", "light"));
  await page.reload();
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
  await expectAccessible(page);
});
