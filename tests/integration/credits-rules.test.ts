// Credit rules a broken line must not get past (issue 8, item 11 — found by mutation testing): the
// gated spend Nika's first token uses, the amounts a spend accepts, refunds and the ledger of renewals.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  creditPeriod,
  getBalance,
  monthlyAllowance,
  refundCredits,
  renewAllCredits,
  spendCredits,
  spendCreditsGated,
} from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { creditLedger, users } from "~/server/schema";
import { createTestDb } from "./harness";

let db: Database;
let n = 0;
beforeAll(async () => {
  ({ db } = await createTestDb());
});
async function newUser(credits: number, period: string | null = creditPeriod(new Date())) {
  const [user] = await db
    .insert(users)
    .values({ name: "Regras de crédito", email: `credit-rules${++n}@example.com`, monthlyCredits: credits, creditsPeriod: period })
    .returning({ id: users.id });
  return user!.id;
}
const ledgerOf = (userId: string) => db.select().from(creditLedger).where(eq(creditLedger.userId, userId));
const MISSING_USER = "00000000-0000-4000-8000-000000000000";

describe("spendCreditsGated (read and pay in one statement)", () => {
  it("takes the credits when the gate's row allows it, and returns that row", async () => {
    const userId = await newUser(3);
    const { row, spend } = await spendCreditsGated(db, userId, 2, "chat_message", sql`select 'c1' as id, true as allowed`);
    expect(row).toEqual({ id: "c1", allowed: true });
    expect(spend).toEqual({ ok: true, balance: 1 });
    expect(await getBalance(db, userId)).toBe(1);
    expect((await ledgerOf(userId)).map((l) => [l.delta, l.balanceAfter, l.reason])).toEqual([[-2, 1, "chat_message"]]);
  });

  it("takes nothing when the gate's row says no, and reports no spend", async () => {
    const userId = await newUser(3);
    const { row, spend } = await spendCreditsGated(db, userId, 1, "chat_message", sql`select 'c1' as id, false as allowed`);
    expect(row).toEqual({ id: "c1", allowed: false });
    expect(spend).toBeNull();
    expect(await getBalance(db, userId)).toBe(3);
    expect(await ledgerOf(userId)).toEqual([]);
  });

  it("takes nothing when the gate has no row", async () => {
    const userId = await newUser(3);
    expect(await spendCreditsGated(db, userId, 1, "chat_message", sql`select true as allowed where false`)).toEqual({ row: null, spend: null });
    expect(await getBalance(db, userId)).toBe(3);
  });

  it("refuses when the balance does not cover the amount, reporting the balance (null for an unknown user)", async () => {
    const userId = await newUser(1);
    const allowed = sql`select true as allowed`;
    expect((await spendCreditsGated(db, userId, 2, "chat_message", allowed)).spend).toEqual({ ok: false, balance: 1 });
    expect((await spendCreditsGated(db, userId, 1, "chat_message", allowed)).spend).toEqual({ ok: true, balance: 0 });
    expect((await spendCreditsGated(db, userId, 1, "chat_message", allowed)).spend).toEqual({ ok: false, balance: 0 });
    expect((await spendCreditsGated(db, MISSING_USER, 1, "chat_message", allowed)).spend).toEqual({ ok: false, balance: null });
    expect((await ledgerOf(userId)).map((l) => l.delta)).toEqual([-1]);
  });

  it("lets exactly as many parallel spends through as the balance covers", async () => {
    const userId = await newUser(4);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => spendCreditsGated(db, userId, 1, "chat_message", sql`select true as allowed`)),
    );
    expect(results.filter((r) => r.spend?.ok)).toHaveLength(4);
    expect(await getBalance(db, userId)).toBe(0);
  });

  it("accepts only positive whole amounts, like spendCredits", async () => {
    const userId = await newUser(5);
    for (const amount of [0, -1, 1.5, Number.NaN]) {
      await expect(spendCreditsGated(db, userId, amount, "x", sql`select true as allowed`)).rejects.toThrow("amount must be a positive integer");
      await expect(spendCredits(db, userId, amount, "x")).rejects.toThrow("amount must be a positive integer");
    }
    expect(await getBalance(db, userId)).toBe(5);
  });
});

describe("refunds, balances and renewals", () => {
  it("a refund adds to the balance and records its reason; unknown users have no balance", async () => {
    const userId = await newUser(2);
    expect(await refundCredits(db, userId, 3, "refund:provider_failed")).toBe(5);
    expect((await ledgerOf(userId)).map((l) => [l.delta, l.balanceAfter, l.reason])).toEqual([[3, 5, "refund:provider_failed"]]);
    expect(await refundCredits(db, MISSING_USER, 1, "refund:provider_failed")).toBe(0);
    expect(await getBalance(db, MISSING_USER)).toBeNull();
  });

  it("the cron renewal counts the users it renewed and writes each one's ledger entry", async () => {
    const now = new Date("2031-03-01T03:00:00Z");
    const a = await newUser(2, "2031-01");
    const b = await newUser(45, "2031-02");
    const renewed = await renewAllCredits(db, 40, now);
    expect(renewed).toBeGreaterThanOrEqual(2);
    expect((await ledgerOf(a)).map((l) => [l.delta, l.balanceAfter, l.reason])).toEqual([[38, 40, "monthly_renewal:2031-03"]]);
    expect((await ledgerOf(b)).map((l) => [l.delta, l.balanceAfter, l.reason])).toEqual([[-5, 40, "monthly_renewal:2031-03"]]);
    const due = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`${users.creditsPeriod} is distinct from '2031-03'`);
    expect(due).toEqual([]);
  });

  it("takes a zero allowance as configured and refuses negative ones", () => {
    expect(monthlyAllowance({ MONTHLY_CREDITS: "0" })).toBe(0);
    expect(monthlyAllowance({ MONTHLY_CREDITS: "-5" })).toBe(50);
    expect(monthlyAllowance({ MONTHLY_CREDITS: "" })).toBe(50);
  });
});
