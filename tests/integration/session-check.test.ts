// /resources/session, what a signed-in page asks on tab focus and every 5 minutes (features/shell/ui/use-session-check.ts):
// read from the database now, even when this isolate keeps a fresh copy of the session for page loads.
import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { sessionCheckDestination } from "~/features/shell/ui/use-session-check";
import * as sessionCheck from "~/routes/resources+/session";
import { ACCESS_MESSAGES, getSessionUser } from "~/server/auth.server";
import type { Database } from "~/server/db.server";
import { sessions, users } from "~/server/schema";
import { args, call, contextFor, CookieJar, createTestDb, insertLearner, request } from "./harness";

let db: Database;
let isolate: AppLoadContext["cloudflare"]["env"];
beforeAll(async () => {
  ({ db } = await createTestDb());
  isolate = contextFor(db).cloudflare.env;
});

/** A request's load context served by the one isolate of this file. */
function inIsolate() {
  const context = contextFor(db);
  context.cloudflare.env = isolate;
  return context;
}
const check = (jar: CookieJar) => call(() => sessionCheck.loader(args(request("/resources/session", { jar }), inIsolate())));
/** A page load: this isolate now keeps the session's user for a few seconds. */
const openPage = (jar: CookieJar) => getSessionUser(request("/flashcard-v2", { jar }), inIsolate());

describe("GET /resources/session", () => {
  it("204 while the session is good", async () => {
    const learner = await insertLearner(db);
    const outcome = await check(learner.jar);
    expect(outcome.status).toBe(204);
    expect(outcome.headers.get("Cache-Control")).toBe("no-store");
  });

  it("403 BLOCKED as soon as the account is blocked, whatever this isolate keeps", async () => {
    const learner = await insertLearner(db);
    expect((await openPage(learner.jar))?.accountType).toBe("free");
    await db.update(users).set({ accountType: "blocked" }).where(eq(users.id, learner.id));
    const outcome = await check(learner.jar);
    expect(outcome.status).toBe(403);
    expect(outcome.data).toEqual({ error: ACCESS_MESSAGES.BLOCKED, code: "BLOCKED" });
    expect(sessionCheckDestination(outcome.status, (outcome.data as { code: string }).code, "/flashcard-v2")).toBe("/blocked");
  });

  it("401 as soon as the session is revoked, and for no session at all", async () => {
    const learner = await insertLearner(db);
    expect(await openPage(learner.jar)).not.toBeNull();
    await db.delete(sessions).where(eq(sessions.userId, learner.id));
    const outcome = await check(learner.jar);
    expect(outcome.status).toBe(401);
    expect(outcome.data).toEqual({ error: ACCESS_MESSAGES.UNAUTHENTICATED, code: "UNAUTHENTICATED" });
    expect(sessionCheckDestination(401, "UNAUTHENTICATED", "/flashcard-v2?x=1")).toBe("/signin?redirectTo=%2Fflashcard-v2%3Fx%3D1");
    expect((await check(new CookieJar())).status).toBe(401);
  });
});
