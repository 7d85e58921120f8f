import { expect, test } from "@playwright/test";
import { eq, sql } from "drizzle-orm";
import { creditLedger, users } from "../../app/server/schema";
import { createConfirmedUser, uniqueEmail, withDb } from "./support";

test("the monthly cron trigger renews credits in the worker", async ({ request }, testInfo) => {
  test.skip(testInfo.project.name !== "js", "no page involved; run once");
  const email = uniqueEmail(testInfo, "cron");
  await createConfirmedUser(email);
  await withDb((db) => db.update(users).set({ monthlyCredits: 2, creditsPeriod: "2001-01" }).where(eq(users.email, email)));

  const fired = await request.get("/__scheduled?cron=0+3+1+*+*");
  expect(await fired.text()).toContain("Ran scheduled event");

  await expect
    .poll(() => withDb(async (db) => (await db.select().from(users).where(eq(users.email, email)))[0]!.monthlyCredits))
    .toBe(50);
  const ledger = await withDb((db) =>
    db
      .select({ delta: creditLedger.delta, reason: creditLedger.reason })
      .from(creditLedger)
      .innerJoin(users, eq(users.id, creditLedger.userId))
      .where(sql`${users.email} = ${email}`),
  );
  expect(ledger).toEqual([{ delta: 48, reason: expect.stringMatching(/^monthly_renewal:\d{4}-\d{2}$/) }]);
});
