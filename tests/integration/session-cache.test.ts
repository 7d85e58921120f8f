// The session's user kept per isolate for page loads (decision 0019): within SESSION_STALE_MS a GET of the same
// isolate needs no query; any other method reads the database; a session ended or an account blocked elsewhere
// is refused within the bound; what this isolate changes (sign-out, an admin's block or credits, a purchase) is
// seen by the very next request.
import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as adminUser from "~/routes/_app+/admin.users.$userId";
import * as signout from "~/routes/_auth+/signout";
import { createSession, forgetUserSessions, getSessionUser, requireUser, SESSION_STALE_MS } from "~/server/auth.server";
import { creditPeriod } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { userRoles, users } from "~/server/schema";
import { args, call, contextFor, CookieJar, createTestDb, insertLearner, request } from "./harness";

let db: Database;
let queryCount: () => number;
let isolate: AppLoadContext["cloudflare"]["env"];
beforeAll(async () => {
  ({ db, queryCount } = await createTestDb());
  isolate = contextFor(db).cloudflare.env;
});
afterEach(() => {
  vi.useRealTimers();
});

/** A request's load context served by the one isolate of this file. */
function inIsolate() {
  const context = contextFor(db);
  context.cloudflare.env = isolate;
  return context;
}
const page = (jar: CookieJar) => getSessionUser(request("/labs", { jar }), inIsolate());
const post = (jar: CookieJar) => getSessionUser(request("/labs", { jar, form: { a: "b" } }), inIsolate());
const at = (ms: number) => vi.useFakeTimers({ toFake: ["Date"], now: ms });

describe("the session's user kept per isolate", () => {
  it("a page load within the bound needs no query; past it the user is read again", async () => {
    const start = Date.now();
    at(start);
    const learner = await insertLearner(db, { credits: 7 });
    expect((await page(learner.jar))?.monthlyCredits).toBe(7);
    await db.update(users).set({ monthlyCredits: 3 }).where(eq(users.id, learner.id));
    const before = queryCount();
    at(start + SESSION_STALE_MS - 1);
    expect((await page(learner.jar))?.monthlyCredits).toBe(7);
    expect(queryCount()).toBe(before);
    at(start + SESSION_STALE_MS);
    expect((await page(learner.jar))?.monthlyCredits).toBe(3);
    expect(queryCount()).toBe(before + 1);
  });

  it("any other method reads the database, and the next page load too", async () => {
    const learner = await insertLearner(db, { credits: 7 });
    await page(learner.jar);
    await db.update(users).set({ monthlyCredits: 1 }).where(eq(users.id, learner.id));
    expect((await post(learner.jar))?.monthlyCredits).toBe(1);
    expect((await page(learner.jar))?.monthlyCredits).toBe(1);
  });

  it("a block elsewhere is refused within the bound; a block by an admin of this isolate at once", async () => {
    const start = Date.now();
    at(start);
    const blockedElsewhere = await insertLearner(db);
    await page(blockedElsewhere.jar);
    await db.update(users).set({ accountType: "blocked" }).where(eq(users.id, blockedElsewhere.id));
    expect((await post(blockedElsewhere.jar))?.accountType).toBe("blocked"); // actions: at once
    at(start + SESSION_STALE_MS);
    const refused = await call(() => requireUser(request("/labs", { jar: blockedElsewhere.jar }), inIsolate()));
    expect(refused.location).toBe("/blocked");

    vi.useRealTimers();
    const admin = await insertLearner(db);
    await db.insert(userRoles).values({ userId: admin.id, role: "admin" });
    const learner = await insertLearner(db);
    expect((await page(learner.jar))?.accountType).toBe("free");
    const blocking = await call(() =>
      adminUser.action(
        args(request(`/admin/users/${learner.id}`, { jar: admin.jar, form: { intent: "block" } }), inIsolate(), { userId: learner.id }),
      ),
    );
    expect(blocking.status).toBe(302);
    const next = await call(() => requireUser(request("/labs", { jar: learner.jar }), inIsolate()));
    expect(next.location).toBe("/blocked");
  });

  it("signing out in this isolate ends the kept session at once", async () => {
    const learner = await insertLearner(db);
    expect(await page(learner.jar)).not.toBeNull();
    const out = await call(() => signout.action(args(request("/signout", { jar: learner.jar, form: {} }), inIsolate())));
    expect(out.status).toBe(302);
    expect(await page(learner.jar)).toBeNull();
  });

  it("forgetUserSessions drops every kept session of that user only", async () => {
    const learner = await insertLearner(db, { credits: 4 });
    const secondDevice = new CookieJar();
    secondDevice.absorb(new Headers({ "Set-Cookie": await createSession(contextFor(db), learner.id, request("/")) }));
    const other = await insertLearner(db, { credits: 4 });
    await Promise.all([page(learner.jar), page(secondDevice), page(other.jar)]);
    await db.update(users).set({ monthlyCredits: 9 }).where(eq(users.id, learner.id));
    await db.update(users).set({ monthlyCredits: 9 }).where(eq(users.id, other.id));
    forgetUserSessions(inIsolate(), learner.id);
    expect((await page(learner.jar))?.monthlyCredits).toBe(9);
    expect((await page(secondDevice))?.monthlyCredits).toBe(9);
    expect((await page(other.jar))?.monthlyCredits).toBe(4);
  });

  it("a new São Paulo month is never served from the kept copy (the renewal runs)", async () => {
    // Fixed dates: from today's, the next month's 2nd can lie past the session's 30 days (on the 1st of a 31-day month).
    at(Date.UTC(2026, 9, 20, 12)); // 20 October
    const learner = await insertLearner(db, { credits: 2 });
    expect((await page(learner.jar))?.monthlyCredits).toBe(2);
    const nextMonth = new Date(Date.UTC(2026, 10, 2, 12)); // 2 November, 13 days later
    at(nextMonth.getTime());
    const renewed = await page(learner.jar);
    expect(renewed).toMatchObject({ monthlyCredits: 50, creditsPeriod: creditPeriod(nextMonth) });
  });

  it("another isolate (another env object) keeps its own copy", async () => {
    const learner = await insertLearner(db, { credits: 6 });
    await page(learner.jar);
    await db.update(users).set({ monthlyCredits: 2 }).where(eq(users.id, learner.id));
    expect((await getSessionUser(request("/labs", { jar: learner.jar }), contextFor(db)))?.monthlyCredits).toBe(2);
    expect((await page(learner.jar))?.monthlyCredits).toBe(6);
  });
});
