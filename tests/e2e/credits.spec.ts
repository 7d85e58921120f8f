import { eq, inArray, sql } from "drizzle-orm";
import { authTokens } from "../../app/features/auth/tables";
import { chatConversations } from "../../app/features/conversation/tables";
import { offlineBundles } from "../../app/features/flashcards/tables";
import { liveSessions } from "../../app/features/live/tables";
import { clientErrorReports, creditLedger, mailOutbox, rateLimitAttempts, sessions, users } from "../../app/server/schema";
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

test("the hourly cron trigger prunes every table past its retention (docs/operations.md) and keeps the rest", async ({
  request,
  createAccount,
}, testInfo) => {
  test.skip(testInfo.project.name !== "js", "no page involved; run once");
  const { id: userId, email } = await createAccount("learner", { label: "retention" });
  const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
  const marker = `retencao-${crypto.randomUUID()}`;
  const rows = await withDb(async (db) => {
    const mails = await db
      .insert(mailOutbox)
      .values(
        [8, 6].map((days) => ({
          toAddress: email,
          subject: marker,
          textBody: "x",
          htmlBody: "x",
          kind: "test",
          status: "sent",
          createdAt: ago(days),
        })),
      )
      .returning({ id: mailOutbox.id });
    const expiredSession = await db
      .insert(sessions)
      .values([
        { id: `${marker}-gone`, userId, expiresAt: ago(1 / 1440) },
        { id: `${marker}-kept`, userId, expiresAt: ago(-1) },
      ])
      .returning({ id: sessions.id });
    const tokens = await db
      .insert(authTokens)
      .values([
        { userId, tokenHash: `${marker}-1`, purpose: "password_reset", expiresAt: ago(8) },
        { userId, tokenHash: `${marker}-2`, purpose: "password_reset", expiresAt: ago(6) },
        { userId, tokenHash: `${marker}-3`, purpose: "password_reset", expiresAt: ago(-1), usedAt: ago(8) },
      ])
      .returning({ id: authTokens.id });
    const bundles = await db
      .insert(offlineBundles)
      .values([31, 29].map((days) => ({ userId, kind: "review" as const, cards: {}, issuedAt: ago(days + 14), expiresAt: ago(days) })))
      .returning({ id: offlineBundles.id });
    const [conversation] = await db.insert(chatConversations).values({ userId, mode: "english" }).returning({ id: chatConversations.id });
    const live = await db
      .insert(liveSessions)
      .values(
        [31, 29].map((days) => ({
          userId,
          conversationId: conversation!.id,
          status: "ended" as const,
          creditsPerMinute: 1,
          startedAt: ago(days),
          endedAt: ago(days),
        })),
      )
      .returning({ id: liveSessions.id });
    const reports = await db
      .insert(clientErrorReports)
      .values([31, 1].map((days) => ({ userId, name: marker, message: "x", createdAt: ago(days) })))
      .returning({ id: clientErrorReports.id });
    return { mails, expiredSession, tokens, bundles, live, reports };
  });

  const fired = await request.get("/__scheduled?cron=0+*+*+*+*");
  expect(await fired.text()).toContain("Ran scheduled event");

  // Which of the ids inserted above are still there, table by table.
  const idsLeft = (table: string, ids: (string | number)[]) =>
    withDb(async (db) =>
      (
        await db.execute(
          sql`select id from ${sql.identifier(table)} where id::text in ${sql`(${sql.join(
            ids.map((id) => sql`${String(id)}`),
            sql`, `,
          )})`}`,
        )
      ).rows.map((row) => ({ id: typeof ids[0] === "number" ? Number(row.id) : row.id })),
    );
  const left = async () => ({
    mails: await idsLeft(
      "mail_outbox",
      rows.mails.map((r) => r.id),
    ),
    expiredSession: await idsLeft(
      "sessions",
      rows.expiredSession.map((r) => r.id),
    ),
    tokens: await idsLeft(
      "auth_tokens",
      rows.tokens.map((r) => r.id),
    ),
    bundles: await idsLeft(
      "offline_bundles",
      rows.bundles.map((r) => r.id),
    ),
    live: await idsLeft(
      "live_sessions",
      rows.live.map((r) => r.id),
    ),
    reports: await idsLeft(
      "client_error_reports",
      rows.reports.map((r) => r.id),
    ),
  });
  await expect.poll(left).toEqual({
    mails: [rows.mails[1]],
    expiredSession: [rows.expiredSession[1]],
    tokens: [rows.tokens[1]],
    bundles: [rows.bundles[1]],
    live: [rows.live[1]],
    reports: [rows.reports[1]],
  });
});
