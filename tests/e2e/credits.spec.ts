import { eq } from "drizzle-orm";
import { creditLedger, users } from "../../app/server/schema";
import { expect, test, userById, withDb } from "./support";

test("the monthly cron trigger renews credits in the worker", async ({ request, createAccount }, testInfo) => {
  test.skip(testInfo.project.name !== "js", "no page involved; run once");
  const { id } = await createAccount("learner", { label: "cron", credits: 2 });
  await withDb((db) => db.update(users).set({ creditsPeriod: "2001-01" }).where(eq(users.id, id)));

  const fired = await request.get("/__scheduled?cron=0+3+1+*+*");
  expect(await fired.text()).toContain("Ran scheduled event");

  await expect.poll(async () => (await userById(id)).monthlyCredits).toBe(50);
  const ledger = await withDb((db) =>
    db.select({ delta: creditLedger.delta, reason: creditLedger.reason }).from(creditLedger).where(eq(creditLedger.userId, id)),
  );
  expect(ledger).toEqual([{ delta: 48, reason: expect.stringMatching(/^monthly_renewal:\d{4}-\d{2}$/) }]);
});
