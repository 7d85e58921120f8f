// The hourly cron's deletions (app/server/housekeeping.server.ts) against PGlite: every table loses what is past its
// retention (docs/operations.md) and keeps the rest, the features' tables (named in raw SQL there) as the core ones.
// The same through the worker's cron trigger is tests/e2e/credits.spec.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { authTokens } from "~/features/auth/tables";
import { chatConversations } from "~/features/conversation/tables";
import { lessons, liveConnections, modules } from "~/features/courses/tables";
import { offlineBundles } from "~/features/flashcards/tables";
import { liveSessions } from "~/features/live/tables";
import type { Database } from "~/server/db.server";
import { pruneOldRows } from "~/server/housekeeping.server";
import { clientErrorReports, mailOutbox, sessions } from "~/server/schema";
import { createTestDb, insertLearner } from "./harness";

let db: Database;
beforeAll(async () => {
  ({ db } = await createTestDb());
});

const NOW = new Date("2026-05-10T12:00:00.000Z");
const ago = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
const ids = async (rows: Promise<{ id: unknown }[]>) => (await rows).map((row) => String(row.id)).sort();

describe("pruneOldRows", () => {
  it("deletes every table's rows past their retention and keeps the rest", async () => {
    const { id: userId } = await insertLearner(db);
    const mails = await db
      .insert(mailOutbox)
      .values(
        [8, 6].map((days) => ({
          toAddress: "a@example.com",
          subject: "s",
          textBody: "x",
          htmlBody: "x",
          kind: "test",
          status: "sent",
          createdAt: ago(days),
        })),
      )
      .returning({ id: mailOutbox.id });
    // insertLearner's own session expires in 30 days: kept.
    await db.insert(sessions).values({ id: "prune-gone", userId, expiresAt: ago(1 / 1440) });
    const tokens = await db
      .insert(authTokens)
      .values([
        { userId, tokenHash: "prune-1", purpose: "password_reset", expiresAt: ago(8) },
        { userId, tokenHash: "prune-2", purpose: "password_reset", expiresAt: ago(6) },
        { userId, tokenHash: "prune-3", purpose: "password_reset", expiresAt: ago(-1), usedAt: ago(8) },
        { userId, tokenHash: "prune-4", purpose: "password_reset", expiresAt: ago(-1), usedAt: ago(6) },
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
        })),
      )
      .returning({ id: liveSessions.id });
    const [module] = await db.insert(modules).values({ title: "Módulo" }).returning({ id: modules.id });
    const lessonRows = await db
      .insert(lessons)
      .values([0, 1].map((orderIndex) => ({ moduleId: module!.id, title: `Aula ${orderIndex}`, orderIndex })))
      .returning({ id: lessons.id });
    await db.insert(liveConnections).values([
      { userId, lessonId: lessonRows[0]!.id, connectedAt: ago(1.5) },
      { userId, lessonId: lessonRows[1]!.id, connectedAt: ago(0.5) },
    ]);
    const reports = await db
      .insert(clientErrorReports)
      .values([31, 1].map((days) => ({ userId, name: "Error", message: "x", createdAt: ago(days) })))
      .returning({ id: clientErrorReports.id });

    expect(await pruneOldRows(db, NOW)).toEqual({
      mailOutbox: 1,
      sessions: 1,
      authTokens: 2,
      offlineBundles: 1,
      liveSessions: 1,
      liveConnections: 1,
      clientErrorReports: 1,
      rateLimitAttempts: 0,
    });
    expect(await ids(db.select({ id: mailOutbox.id }).from(mailOutbox))).toEqual([String(mails[1]!.id)]);
    expect((await db.select({ id: sessions.id }).from(sessions)).map((row) => row.id)).not.toContain("prune-gone");
    expect(await ids(db.select({ id: authTokens.id }).from(authTokens))).toEqual([String(tokens[1]!.id), String(tokens[3]!.id)].sort());
    expect(await ids(db.select({ id: offlineBundles.id }).from(offlineBundles))).toEqual([bundles[1]!.id]);
    expect(await ids(db.select({ id: liveSessions.id }).from(liveSessions))).toEqual([live[1]!.id]);
    expect((await db.select({ lessonId: liveConnections.lessonId }).from(liveConnections)).map((row) => row.lessonId)).toEqual([
      lessonRows[1]!.id,
    ]);
    expect(await ids(db.select({ id: clientErrorReports.id }).from(clientErrorReports))).toEqual([String(reports[1]!.id)]);
    // Nothing left past its retention: a second run deletes nothing.
    expect(Object.values(await pruneOldRows(db, NOW)).every((count) => count === 0)).toBe(true);
  });
});
