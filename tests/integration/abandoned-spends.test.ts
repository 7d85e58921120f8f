// A request that dies between the spend and the statement storing what it paid for (the database went away, so
// its own refund could not be written either) leaves a credit without its chat message or a pronunciation attempt
// stuck `scoring`. The 5-minute sweep (refundAbandonedSpends, the cron) gives those credits back, once.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ABANDONED_SPENDS } from "~/cron-jobs.server";
import { sendMessage, ABANDONED_LOOKBACK_MS } from "~/features/chat/sending.server";
import { startConversation } from "~/features/conversation";
import { chatMessages } from "~/features/conversation/tables";
import { beginLiveSession, chargeMinute, confirmMinute, refundMinute } from "~/features/live/live.server";
import { checkRecording, failAttempt, loadLevel, pronunciationScorer, scoreAttempt } from "~/features/pronunciation/attempts.server";
import { pronunciationAttempts } from "~/features/pronunciation/tables";
import { encodeWav } from "~/lib/audio/wav";
import { ABANDONED_AFTER_MS, getBalance, refundAbandonedSpends } from "~/server/credits.server";
import { creditLedger, users } from "~/server/schema";
import { useChatWorld } from "./chat-world";
import { freePort } from "./fake-upstream";

const world = useChatWorld(await freePort(), "abandoned-openai-key");
const ctx = () => world.ctx();
const later = () => new Date(Date.now() + ABANDONED_AFTER_MS + 60_000);

let n = 0;
async function newUser(credits = 10) {
  const [user] = await world.db
    .insert(users)
    .values({ name: "Sweep Tester", email: `sweep${++n}@example.com`, monthlyCredits: credits })
    .returning();
  return user!;
}
const ledgerOf = (userId: string) =>
  world.db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.createdAt, creditLedger.id);

/**
 * Runs `body` while every statement after the spend fails for `userId`'s rows — the learner's chat message, any
 * refund, any change to a pronunciation attempt — as when the database stops right after the spend.
 */
async function databaseDiesAfterTheSpend(userId: string, body: () => Promise<void>) {
  await world.db.execute(
    sql.raw(`
    create or replace function refuse_after_spend() returns trigger language plpgsql as $$
    declare row jsonb := to_jsonb(new);
    begin
      if (tg_table_name = 'credit_ledger' and (row->>'delta')::int > 0 and row->>'user_id' = '${userId}')
        or (tg_table_name = 'chat_messages' and row->>'role' = 'user')
        or (tg_table_name = 'pronunciation_attempts' and tg_op = 'UPDATE' and row->>'user_id' = '${userId}') then
        raise exception 'Connection terminated unexpectedly';
      end if;
      return new;
    end $$`),
  );
  for (const table of ["credit_ledger", "chat_messages", "pronunciation_attempts"])
    await world.db.execute(
      sql.raw(`create trigger refuse_after_spend before insert or update on ${table} for each row execute function refuse_after_spend()`),
    );
  try {
    await body();
  } finally {
    for (const table of ["credit_ledger", "chat_messages", "pronunciation_attempts"])
      await world.db.execute(sql.raw(`drop trigger refuse_after_spend on ${table}`));
  }
}

describe("the sweep of abandoned spends", () => {
  it("gives back a chat credit whose message was never stored — after 5 minutes, once, with the message id as ref", async () => {
    const user = await newUser(10);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    await databaseDiesAfterTheSpend(user.id, async () => {
      await expect(sendMessage(ctx(), user, conversation.id, { text: "Hello Nika" })).rejects.toThrow();
    });
    expect(await getBalance(world.db, user.id)).toBe(9);
    const [spend] = await ledgerOf(user.id);
    expect(spend).toMatchObject({ reason: "chat_message", delta: -1 });
    expect(spend!.ref).toMatch(/^[0-9a-f-]{36}$/);
    expect(await world.db.select().from(chatMessages).where(eq(chatMessages.conversationId, conversation.id))).toEqual([]);

    // Too recent: the request could still be storing it.
    expect(await refundAbandonedSpends(world.db, new Date(), ABANDONED_SPENDS)).toMatchObject({ chatMessages: 0 });
    expect(await getBalance(world.db, user.id)).toBe(9);

    expect(await refundAbandonedSpends(world.db, later(), ABANDONED_SPENDS)).toMatchObject({ chatMessages: 1 });
    expect(await getBalance(world.db, user.id)).toBe(10);
    const ledger = await ledgerOf(user.id);
    expect(ledger.map((l) => [l.reason, l.delta, l.balanceAfter, l.ref])).toEqual([
      ["chat_message", -1, 9, spend!.ref],
      ["refund:abandoned", 1, 10, spend!.ref],
    ]);
    // A day later the sweep no longer looks that far back (a message deleted since would not count as never stored).
    const stale = await newUser(5);
    const oldRef = crypto.randomUUID();
    await world.db.insert(creditLedger).values({
      userId: stale.id,
      delta: -1,
      balanceAfter: 4,
      reason: "chat_message",
      ref: oldRef,
      createdAt: new Date(Date.now() - ABANDONED_LOOKBACK_MS - 60_000),
    });
    expect(await refundAbandonedSpends(world.db, new Date(), ABANDONED_SPENDS)).toMatchObject({ chatMessages: 0 });
    expect((await ledgerOf(stale.id)).map((l) => l.reason)).toEqual(["chat_message"]);
    // Once: the next sweeps find nothing, and the database refuses a second refund of the same ref.
    expect(await refundAbandonedSpends(world.db, later(), ABANDONED_SPENDS)).toEqual({ chatMessages: 0, attempts: 0, liveMinutes: 0 });
    await expect(
      world.db.insert(creditLedger).values({ userId: user.id, delta: 1, balanceAfter: 11, reason: "refund:abandoned", ref: spend!.ref }),
    ).rejects.toThrow();
    expect(await getBalance(world.db, user.id)).toBe(10);
  });

  it("leaves alone a stored message and a failure already refunded; refunds several of one learner with a running balance", async () => {
    const user = await newUser(10);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    expect((await sendMessage(ctx(), user, conversation.id, { text: "First message" })).status).toBe("ok");
    await world.hook("mode=error&status=500");
    expect((await sendMessage(ctx(), user, conversation.id, { text: "Second message" })).status).not.toBe("ok");
    const refunded = (await ledgerOf(user.id)).find((l) => l.reason === "refund:provider_failed");
    expect(refunded?.ref).toMatch(/^[0-9a-f-]{36}$/);
    expect(await refundAbandonedSpends(world.db, later(), ABANDONED_SPENDS)).toMatchObject({ chatMessages: 0 });
    expect(await getBalance(world.db, user.id)).toBe(9);

    await databaseDiesAfterTheSpend(user.id, async () => {
      for (const text of ["Third", "Fourth"]) await expect(sendMessage(ctx(), user, conversation.id, { text })).rejects.toThrow();
    });
    expect(await getBalance(world.db, user.id)).toBe(7);
    expect(await refundAbandonedSpends(world.db, later(), ABANDONED_SPENDS)).toMatchObject({ chatMessages: 2 });
    expect(await getBalance(world.db, user.id)).toBe(9);
    const sweepRows = (await ledgerOf(user.id)).filter((l) => l.reason === "refund:abandoned");
    expect(sweepRows.map((l) => l.balanceAfter).sort()).toEqual([8, 9]);
    const sum = (await ledgerOf(user.id)).reduce((total, l) => total + l.delta, 10);
    expect(sum).toBe(9);
  });

  it("fails a pronunciation attempt left `scoring` and gives its credit back, once", async () => {
    const user = await newUser(10);
    const level = (await loadLevel(world.db, user.id, 1))!;
    const checked = checkRecording(encodeWav(new Float32Array(16_000).fill(0.1), 16_000));
    if (!checked.ok) throw new Error("the test recording is refused");
    await world.hook("mode=error&status=500");
    await databaseDiesAfterTheSpend(user.id, async () => {
      await expect(scoreAttempt(ctx(), user.id, level, checked.recording, pronunciationScorer(ctx())!)).rejects.toThrow();
    });
    const [attempt] = await world.db.select().from(pronunciationAttempts).where(eq(pronunciationAttempts.userId, user.id));
    expect(attempt!.status).toBe("scoring");
    expect(await getBalance(world.db, user.id)).toBe(9);

    expect(await refundAbandonedSpends(world.db, new Date(), ABANDONED_SPENDS)).toMatchObject({ attempts: 0 });
    expect(await refundAbandonedSpends(world.db, later(), ABANDONED_SPENDS)).toMatchObject({ attempts: 1 });
    const [after] = await world.db.select().from(pronunciationAttempts).where(eq(pronunciationAttempts.id, attempt!.id));
    expect(after!.status).toBe("failed");
    expect(await getBalance(world.db, user.id)).toBe(10);
    expect((await ledgerOf(user.id)).map((l) => [l.reason, l.delta, l.ref])).toEqual([
      ["pronunciation", -1, null],
      ["refund:abandoned", 1, attempt!.id],
    ]);
    // The request's own refund path finds nothing left to refund.
    expect(await failAttempt(world.db, attempt!.id)).toBeNull();
    expect(await refundAbandonedSpends(world.db, later(), ABANDONED_SPENDS)).toEqual({ chatMessages: 0, attempts: 0, liveMinutes: 0 });
    expect(await getBalance(world.db, user.id)).toBe(10);
  });

  it("gives back a live minute whose object died before the provider served it (still `pending`), once, by its amount", async () => {
    const user = await newUser(10);
    const conversation = await startConversation(ctx(), user, { mode: "english" });
    const sessionId = await beginLiveSession(world.db, user.id, conversation.id, 2);
    // Minute 1 served (confirmed), minute 2 paid and then the object died.
    expect(await chargeMinute(world.db, { sessionId, userId: user.id, minute: 1, credits: 2, status: "pending" })).toMatchObject({ ok: true });
    await confirmMinute(world.db, sessionId, 1);
    expect(await chargeMinute(world.db, { sessionId, userId: user.id, minute: 2, credits: 2, status: "pending" })).toMatchObject({ ok: true });
    // A minute is paid once: the same minute again fails, spend included.
    await expect(chargeMinute(world.db, { sessionId, userId: user.id, minute: 2, credits: 2, status: "used" })).rejects.toThrow();
    expect(await getBalance(world.db, user.id)).toBe(6);

    expect(await refundAbandonedSpends(world.db, new Date(), ABANDONED_SPENDS)).toMatchObject({ liveMinutes: 0 });
    expect(await refundAbandonedSpends(world.db, later(), ABANDONED_SPENDS)).toMatchObject({ liveMinutes: 1 });
    expect(await getBalance(world.db, user.id)).toBe(8);
    expect(await refundAbandonedSpends(world.db, later(), ABANDONED_SPENDS)).toMatchObject({ liveMinutes: 0 });
    expect(await refundMinute(world.db, sessionId, 2)).toBeNull(); // the relay's own refund finds nothing left
    expect(await getBalance(world.db, user.id)).toBe(8);
    const ledger = (await ledgerOf(user.id)).map((l) => [l.reason, l.delta, l.balanceAfter]);
    expect(ledger).toEqual([
      ["live_minute", -2, 8],
      ["live_minute", -2, 6],
      ["refund:abandoned", 2, 8],
    ]);
  });
});
