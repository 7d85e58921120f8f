import { beforeAll, describe, expect, it } from "vitest";
import * as root from "~/root";
import * as appLayout from "~/routes/_app+/_layout";
import * as courses from "~/routes/_app+/courses+/_layout";
import * as signin from "~/routes/_auth+/signin";
import type { Database } from "~/server/db.server";
import { DEV_ACCOUNTS, seedDevelopment } from "../../scripts/lib/seed";
import { args, call, contextFor, CookieJar, createTestDb, request } from "./harness";

let db: Database;
let queryCount: () => number;
const jar = new CookieJar();

beforeAll(async () => {
  ({ db, queryCount } = await createTestDb());
  await seedDevelopment(db, { allowance: 50 });
  const outcome = await call(() =>
    signin.action(
      args(request("/signin", { form: { email: DEV_ACCOUNTS.learner.email, password: DEV_ACCOUNTS.learner.password } }), contextFor(db)),
    ),
  );
  jar.absorb(outcome.headers);
});

/** Runs the loaders of one page the way React Router does: in parallel, sharing one load context. */
async function loadPage(path: string, loaders: ((a: ReturnType<typeof args>) => unknown)[]) {
  const context = contextFor(db);
  const before = queryCount();
  const results = await Promise.all(loaders.map((loader) => call(() => loader(args(request(path, { jar }), context)))));
  return { results, queries: queryCount() - before };
}

describe("signed-in pages", () => {
  it("load / with two queries (session + flags), whatever the number of loaders", async () => {
    const { results, queries } = await loadPage("/", [root.loader, appLayout.loader]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect((results[1]!.data as { user: { email: string } }).user.email).toBe(DEV_ACCOUNTS.learner.email);
    expect(queries).toBe(2);
  });

  it("load a gated page (/courses) with the same two queries", async () => {
    const { results, queries } = await loadPage("/courses", [root.loader, appLayout.loader, courses.loader]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(queries).toBe(2);
  });

  it("send an anonymous visitor to /signin from every protected loader", async () => {
    const context = contextFor(db);
    for (const loader of [appLayout.loader, courses.loader]) {
      const outcome = await call(() => loader(args(request("/labs"), context)));
      expect(outcome.status).toBe(302);
      expect(outcome.location).toMatch(/^\/signin/);
    }
  });
});
