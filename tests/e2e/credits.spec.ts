import { eq, inArray } from "drizzle-orm";
import { creditLedger, rateLimitAttempts, users } from "../../app/server/schema";
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

test("the 5-minute cron trigger gives back a credit whose chat message a dying request never stored", async ({
  request,
  createAccount,
}, testInfo) => {
  test.skip(testInfo.project.name !== "js", "no page involved; run once");
  const { id } = await createAccount("learner", { label: "sweep", credits: 5 });
  const ref = crypto.randomUUID();
  // What a request leaves when the database stops right after the spend: the spend, no message, no refund.
  await withDb(async (db) => {
    await db.update(users).set({ monthlyCredits: 4 }).where(eq(users.id, id));
    await db
      .insert(creditLedger)
      .values({ userId: id, delta: -1, balanceAfter: 4, reason: "chat_message", ref, createdAt: new Date(Date.now() - 10 * 60_000) });
  });

  const fired = await request.get("/__scheduled?cron=*/5+*+*+*+*");
  expect(await fired.text()).toContain("Ran scheduled event");

  await expect.poll(async () => (await userById(id)).monthlyCredits).toBe(5);
  const ledger = await withDb((db) =>
    db
      .select({ delta: creditLedger.delta, reason: creditLedger.reason, ref: creditLedger.ref })
      .from(creditLedger)
      .where(eq(creditLedger.userId, id)),
  );
  expect(ledger).toEqual([
    { delta: -1, reason: "chat_message", ref },
    { delta: 1, reason: "refund:abandoned", ref },
  ]);
});

test("the hourly cron trigger prunes the rate limits' attempts older than a day and keeps the rest", async ({ request }, testInfo) => {
  test.skip(testInfo.project.name !== "js", "no page involved; run once");
  const subject = `cron-prune-${crypto.randomUUID()}`;
  const ids = await withDb(async (db) =>
    (
      await db
        .insert(rateLimitAttempts)
        .values([
          { bucket: "signin", subject, createdAt: new Date(Date.now() - 25 * 3_600_000) },
          { bucket: "signin", subject, createdAt: new Date(Date.now() - 60_000) },
        ])
        .returning({ id: rateLimitAttempts.id })
    ).map((row) => row.id),
  );

  const fired = await request.get("/__scheduled?cron=0+*+*+*+*");
  expect(await fired.text()).toContain("Ran scheduled event");

  const left = () => withDb((db) => db.select({ id: rateLimitAttempts.id }).from(rateLimitAttempts).where(inArray(rateLimitAttempts.id, ids)));
  await expect.poll(async () => (await left()).map((row) => row.id)).toEqual([ids[1]]);
});
