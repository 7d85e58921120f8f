// A hostile learner against the running app (workerd, the embedded Postgres), over plain HTTP: crafted redirects,
// bursts of parallel requests against each limit, and control characters where text reaches the database.
// HTTP only, so it runs in the JavaScript project alone.
import { and, eq, like } from "drizzle-orm";
import { offlineBundles } from "../../app/features/flashcards/tables";
import { mailOutbox, rateLimitAttempts } from "../../app/server/schema";
import { expect, jsEnabled, test, withDb } from "./support";

test.beforeEach(({}, testInfo) => test.skip(!jsEnabled(testInfo), "plain HTTP: once is enough"));

const form = (fields: Record<string, string>) => ({ form: fields, maxRedirects: 0 });

test("sign-in follows only a path on the site: tabs, newlines, backslashes and other hosts go to /", async ({ request, createAccount }) => {
  const account = await createAccount("learner");
  const sent = {
    "/\t/evil.example": "/",
    "/\n/evil.example": "/",
    "/\r/evil.example": "/",
    "/\\evil.example": "/",
    "\\/evil.example": "/",
    "//evil.example": "/",
    "https://evil.example/": "/",
    "http:evil.example": "/",
    "/%2F/evil.example": "/%2F/evil.example",
    "/labs?x=1#y": "/labs?x=1#y",
    "/cursos/ação": "/cursos/a%C3%A7%C3%A3o",
  };
  for (const [redirectTo, location] of Object.entries(sent)) {
    const answer = await request.post("/signin", form({ email: account.email, password: account.password, redirectTo }));
    expect(answer.status(), JSON.stringify(redirectTo)).toBe(302);
    expect(answer.headers().location, JSON.stringify(redirectTo)).toBe(location);
  }
  // The same through the query the session check builds: the page loads and its form carries nothing unsafe.
  for (const query of ["%09", "%0A", "%0D"]) {
    const page = await request.get(`/signin?redirectTo=/${query}/evil.example`);
    expect(page.status()).toBe(200);
    expect(await page.text()).not.toContain("evil.example");
  }
});

test("40 wrong passwords at once for one address: 5 are checked, 35 are 429", async ({ request, createAccount }) => {
  const account = await createAccount("learner");
  const answers = await Promise.all(
    Array.from({ length: 40 }, () => request.post("/signin", form({ email: account.email, password: "Errada123" }))),
  );
  const statuses = answers.map((a) => a.status());
  expect(statuses.filter((s) => s === 401)).toHaveLength(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(35);
  const attempts = await withDb((db) =>
    db
      .select()
      .from(rateLimitAttempts)
      .where(and(eq(rateLimitAttempts.bucket, "signin"), eq(rateLimitAttempts.subject, account.email))),
  );
  expect(attempts).toHaveLength(5);
});

test("60 offline downloads at once issue 30 bundles; the rest are 429", async ({ page, learner }) => {
  const answers = await Promise.all(
    Array.from({ length: 60 }, () => page.request.post("/resources/offline/bundle", { data: { target: "category", slug: "animais" } })),
  );
  const statuses = answers.map((a) => a.status());
  expect(statuses.filter((s) => s === 200)).toHaveLength(30);
  // The rest are refused: 429, or 503 when 60 connections at once exhaust the embedded database (a busy machine).
  expect(
    statuses.filter((s) => s !== 200 && s !== 429 && s !== 503),
    JSON.stringify(statuses),
  ).toEqual([]);
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  const stored = await withDb((db) => db.select({ id: offlineBundles.id }).from(offlineBundles).where(eq(offlineBundles.userId, learner.id)));
  expect(stored).toHaveLength(30);
});

test("10 e-mail changes at once mail at most 3 links", async ({ page, learner }, testInfo) => {
  const prefix = `rajada-${testInfo.testId}-${Date.now().toString(36)}`;
  await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      page.request.post("/config?index", form({ intent: "email", email: `${prefix}-${i}@example.com`, confirmed: "1" })),
    ),
  );
  const links = await withDb((db) =>
    db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(like(mailOutbox.toAddress, `${prefix}-%`)),
  );
  expect(links.length).toBeGreaterThanOrEqual(1);
  expect(links.length).toBeLessThanOrEqual(3);
  const attempts = await withDb((db) =>
    db
      .select()
      .from(rateLimitAttempts)
      .where(and(eq(rateLimitAttempts.bucket, "email_change"), eq(rateLimitAttempts.subject, learner.id))),
  );
  expect(attempts).toHaveLength(links.length);
});

test("a NUL byte in a query or a body is a 400 with a pt-BR message, never a 500", async ({ page, learner: _ }) => {
  const inQuery = await page.request.get("/resources/offline/bundle?target=category&slug=%00");
  expect(inQuery.status()).toBe(400);
  expect((await inQuery.json()).error).toBe("O envio contém caracteres inválidos.");
  const inBody = await page.request.post("/resources/offline/bundle", { data: { target: "category", slug: "\u0000" } });
  expect(inBody.status()).toBe(400);
  expect((await inBody.json()).error).toBe("O envio contém caracteres inválidos.");
  const inForm = await page.request.post("/config?index", form({ intent: "name", name: "Ana\u0000" }));
  expect(inForm.status()).toBe(400);
  const inPath = await page.request.get("/flashcard-v2/%00");
  expect(inPath.status()).toBe(400);
});
