// The attempt limiter itself (app/server/rate-limit.server.ts) against PGlite: where a window starts
// and ends, what counts, how long to wait, and the helpers the pages use to say it.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db.server";
import {
  checkLimit,
  clearAttempts,
  LIMITS,
  minutesLeft,
  pruneAttempts,
  recordAttempt,
  secondsLeft,
  type Limit,
} from "~/server/rate-limit.server";
import { rateLimitAttempts } from "~/server/schema";
import { createTestDb } from "./harness";

let db: Database;
let n = 0;
beforeAll(async () => {
  ({ db } = await createTestDb());
});
const subject = () => `limite${++n}@example.com`;
const T0 = new Date("2026-05-10T12:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const THREE_PER_MINUTE: Limit = { bucket: "test_three", max: 3, windowMs: 60_000 };

describe("checkLimit", () => {
  it("allows up to max - 1 recorded attempts and refuses at max", async () => {
    const who = subject();
    for (let i = 0; i < 3; i++) {
      expect(await checkLimit(db, THREE_PER_MINUTE, who, at(10_000))).toEqual({ allowed: true });
      await recordAttempt(db, THREE_PER_MINUTE, who, at(i * 1000));
    }
    // oldest attempt at T0: the window reopens at T0 + 60 s
    expect(await checkLimit(db, THREE_PER_MINUTE, who, at(10_000))).toEqual({ allowed: false, retryAfterMs: 50_000 });
  });

  it("counts only attempts inside the window that ends now", async () => {
    const who = subject();
    for (let i = 0; i < 3; i++) await recordAttempt(db, THREE_PER_MINUTE, who, at(i * 10_000)); // T0, +10 s, +20 s
    expect((await checkLimit(db, THREE_PER_MINUTE, who, at(59_999))).allowed).toBe(false);
    // at T0 + 60 s the first attempt is exactly one window old: no longer counted
    expect(await checkLimit(db, THREE_PER_MINUTE, who, at(60_000))).toEqual({ allowed: true });
  });

  it("waits for the oldest attempt of the window to leave it, at least one second", async () => {
    const who = subject();
    for (const offset of [5_000, 20_000, 40_000]) await recordAttempt(db, THREE_PER_MINUTE, who, at(offset));
    expect(await checkLimit(db, THREE_PER_MINUTE, who, at(45_000))).toEqual({ allowed: false, retryAfterMs: 20_000 });
    expect(await checkLimit(db, THREE_PER_MINUTE, who, at(64_800))).toEqual({ allowed: false, retryAfterMs: 1000 });
  });

  it("keeps subjects and buckets apart", async () => {
    const who = subject();
    const other = subject();
    const otherBucket: Limit = { ...THREE_PER_MINUTE, bucket: "test_other" };
    for (let i = 0; i < 3; i++) await recordAttempt(db, THREE_PER_MINUTE, who, at(0));
    expect((await checkLimit(db, THREE_PER_MINUTE, who, at(1000))).allowed).toBe(false);
    expect((await checkLimit(db, THREE_PER_MINUTE, other, at(1000))).allowed).toBe(true);
    expect((await checkLimit(db, otherBucket, who, at(1000))).allowed).toBe(true);
  });

  it("uses the documented limits (decision 0002)", () => {
    expect(LIMITS.signin).toMatchObject({ max: 5, windowMs: 15 * 60_000 });
    expect(LIMITS.signup).toMatchObject({ max: 3, windowMs: 60 * 60_000 });
    expect(LIMITS.verificationResend).toMatchObject({ max: 1, windowMs: 45_000 });
    expect(LIMITS.passwordReset).toMatchObject({ max: 3, windowMs: 15 * 60_000 });
    const buckets = Object.values(LIMITS).map((l) => l.bucket);
    expect(new Set(buckets).size).toBe(buckets.length);
  });
});

describe("recording and clearing", () => {
  it("records the attempt at the given time, under the limit's bucket", async () => {
    const who = subject();
    await recordAttempt(db, THREE_PER_MINUTE, who, at(1234));
    const rows = await db.select().from(rateLimitAttempts).where(eq(rateLimitAttempts.subject, who));
    expect(rows.map((r) => [r.bucket, r.createdAt.toISOString()])).toEqual([["test_three", at(1234).toISOString()]]);
  });

  it("clearAttempts empties one bucket of one subject only", async () => {
    const who = subject();
    const other = subject();
    const otherBucket: Limit = { ...THREE_PER_MINUTE, bucket: "test_cleared_not" };
    for (let i = 0; i < 3; i++) {
      await recordAttempt(db, THREE_PER_MINUTE, who, at(0));
      await recordAttempt(db, THREE_PER_MINUTE, other, at(0));
      await recordAttempt(db, otherBucket, who, at(0));
    }
    await clearAttempts(db, THREE_PER_MINUTE, who);
    expect(await checkLimit(db, THREE_PER_MINUTE, who, at(1000))).toEqual({ allowed: true });
    expect((await checkLimit(db, THREE_PER_MINUTE, other, at(1000))).allowed).toBe(false);
    expect((await checkLimit(db, otherBucket, who, at(1000))).allowed).toBe(false);
  });

  it("pruneAttempts drops attempts older than a day and keeps the rest", async () => {
    const who = subject();
    const now = at(0);
    const day = 86_400_000;
    await recordAttempt(db, THREE_PER_MINUTE, who, new Date(now.getTime() - day - 1000));
    await recordAttempt(db, THREE_PER_MINUTE, who, new Date(now.getTime() - day + 1000));
    await recordAttempt(db, THREE_PER_MINUTE, who, now);
    await pruneAttempts(db, now);
    const left = await db.select().from(rateLimitAttempts).where(eq(rateLimitAttempts.subject, who));
    expect(left.map((r) => r.createdAt.getTime()).sort()).toEqual([now.getTime() - day + 1000, now.getTime()]);
  });
});

describe("how long to wait, for the pages", () => {
  it("rounds up to whole minutes and seconds, never below 1", () => {
    expect([0, 1, 60_000, 60_001, 14 * 60_000 + 1].map(minutesLeft)).toEqual([1, 1, 1, 2, 15]);
    expect([0, 1, 1000, 1001, 44_500].map(secondsLeft)).toEqual([1, 1, 1, 2, 45]);
  });
});
