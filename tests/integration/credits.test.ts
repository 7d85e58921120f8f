import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createSession, getSessionUser } from "~/server/auth.server";
import {
  creditPeriod,
  getBalance,
  monthlyAllowance,
  refundCredits,
  renewAllCredits,
  renewCreditsIfDue,
  spendCredits,
} from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { creditLedger, users } from "~/server/schema";
import { contextFor, CookieJar, createTestDb, request } from "./harness";

let db: Database;
let n = 0;
async function newUser(credits: number, period: string | null = creditPeriod(new Date())) {
  const [user] = await db
    .insert(users)
    .values({ name: "Credit Tester", email: `credits${++n}@example.com`, monthlyCredits: credits, creditsPeriod: period })
    .returning({ id: users.id });
  return user!.id;
}
const ledgerOf = (userId: string) => db.select().from(creditLedger).where(eq(creditLedger.userId, userId));

beforeAll(async () => {
  ({ db } = await createTestDb());
});

describe("spending", () => {
  it("lets exactly 10 of 50 parallel spends through on a balance of 10", async () => {
    const userId = await newUser(10);
    const results = await Promise.all(Array.from({ length: 50 }, () => spendCredits(db, userId, 1, "chat_message")));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.filter((r) => !r.ok)).toHaveLength(40);
    expect(await getBalance(db, userId)).toBe(0);
    const ledger = await ledgerOf(userId);
    expect(ledger).toHaveLength(10);
    expect(ledger.map((row) => row.balanceAfter).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("never goes below zero and reports the balance when refused", async () => {
    const userId = await newUser(2);
    expect(await spendCredits(db, userId, 3, "x")).toEqual({ ok: false, balance: 2 });
    expect(await spendCredits(db, userId, 2, "x")).toEqual({ ok: true, balance: 0 });
    expect(await spendCredits(db, userId, 1, "x")).toEqual({ ok: false, balance: 0 });
  });

  it("gives credits back with a ledger entry", async () => {
    const userId = await newUser(1);
    await spendCredits(db, userId, 1, "chat_message");
    expect(await refundCredits(db, userId, 1, "refund:provider_failed")).toBe(1);
    expect((await ledgerOf(userId)).map((row) => row.delta)).toEqual([-1, 1]);
  });

  it("rejects non-positive amounts", async () => {
    const userId = await newUser(5);
    await expect(spendCredits(db, userId, 0, "x")).rejects.toThrow();
    await expect(spendCredits(db, userId, -1, "x")).rejects.toThrow();
  });
});

describe("monthly renewal in São Paulo time", () => {
  it("puts the month boundary at midnight in America/Sao_Paulo (03:00 UTC)", () => {
    expect(creditPeriod(new Date("2026-12-01T02:59:59Z"))).toBe("2026-11");
    expect(creditPeriod(new Date("2026-12-01T03:00:00Z"))).toBe("2026-12");
    expect(creditPeriod(new Date("2027-01-01T02:30:00Z"))).toBe("2026-12");
    expect(creditPeriod(new Date("2027-01-01T03:00:00Z"))).toBe("2027-01");
  });

  it("renews once when a new month starts and not again in the same month", async () => {
    const userId = await newUser(3, "2026-11");
    expect(await renewCreditsIfDue(db, userId, 50, new Date("2026-11-30T23:00:00Z"))).toBeNull(); // 20:00 in SP, still November
    expect(await renewCreditsIfDue(db, userId, 50, new Date("2026-12-01T03:00:01Z"))).toBe(50);
    await spendCredits(db, userId, 5, "x");
    expect(await renewCreditsIfDue(db, userId, 50, new Date("2026-12-15T12:00:00Z"))).toBeNull();
    expect(await getBalance(db, userId)).toBe(45);
    const renewal = (await ledgerOf(userId)).find((row) => row.reason === "monthly_renewal:2026-12");
    expect(renewal).toMatchObject({ delta: 47, balanceAfter: 50 });
  });

  it("renews every due user in one cron run, idempotently", async () => {
    const due = [await newUser(0, "2030-01"), await newUser(7, null)];
    const current = await newUser(9, "2030-02");
    const now = new Date("2030-02-01T03:00:00Z");
    expect(await renewAllCredits(db, 40, now)).toBeGreaterThanOrEqual(2);
    for (const id of due) expect(await getBalance(db, id)).toBe(40);
    expect(await getBalance(db, current)).toBe(9);
    expect(await renewAllCredits(db, 40, now)).toBe(0);
  });

  it("applies lazily when a signed-in user is loaded in a new month", async () => {
    const userId = await newUser(0, "2000-01");
    const jar = new CookieJar();
    const context = contextFor(db);
    jar.absorb(new Headers({ "Set-Cookie": await createSession(context, userId, request("/")) }));
    const user = await getSessionUser(request("/", { jar }), contextFor(db, { MONTHLY_CREDITS: "30" }));
    expect(user?.monthlyCredits).toBe(30);
    expect(user?.creditsPeriod).toBe(creditPeriod(new Date())); // patched with the balance (a kept copy must not look stale)
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    expect(row!.creditsPeriod).toBe(creditPeriod(new Date()));
  });

  it("reads the allowance from configuration with a sane default", () => {
    expect(monthlyAllowance({ MONTHLY_CREDITS: "120" })).toBe(120);
    expect(monthlyAllowance({ MONTHLY_CREDITS: undefined })).toBe(50);
    expect(monthlyAllowance({ MONTHLY_CREDITS: "lots" })).toBe(50);
  });
});
