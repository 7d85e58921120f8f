// Integration-test harness: a real Postgres (PGlite, in-process) with the committed migrations, and
// helpers to call loaders/actions the way React Router does — one load context per request.
import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { AppLoadContext } from "react-router";
import { expect, inject } from "vitest";
import { createSession } from "~/server/auth.server";
import { creditPeriod } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import type { Env } from "~/server/env";
import { users } from "~/server/schema";
import { takeToast } from "~/server/toast.server";
import { DEV_ACCOUNTS, seedDevelopment } from "../../scripts/lib/seed";

export async function createTestDb() {
  // The migrated template made once per run (db-template.ts); migrating here only when run without it.
  const template = inject("dbTemplate");
  const client = template ? new PGlite({ loadDataDir: new Blob([readFileSync(template)]) }) : new PGlite();
  let queries = 0;
  const db = drizzle(client, { logger: { logQuery: () => void queries++ } }) as unknown as Database;
  if (!template) await migrate(db as never, { migrationsFolder: "migrations" });
  return { db, client, queryCount: () => queries, resetQueryCount: () => void (queries = 0) };
}

export const TEST_ENV: Env = {
  APP_ENV: "test",
  DATABASE_URL: "postgres://unused",
  SESSION_SECRET: "test-secret",
  APP_URL: "http://nika.test",
  MONTHLY_CREDITS: "50",
  MEDIA: undefined as never,
  ASSETS: undefined as never,
};

export function contextFor(db: Database, env: Partial<Env> = {}): AppLoadContext {
  return {
    cloudflare: {
      env: { ...TEST_ENV, ...env },
      ctx: { waitUntil: () => {}, passThroughOnException: () => {} },
      cf: {},
      caches: undefined,
    } as never,
    db,
    queryCount: () => 0,
    connectDbEarly: () => {}, // the test database is in this process: nothing to open
    closeDb: async () => {},
    memo: new Map(),
    requestId: "test-request",
  };
}

/** A browser's cookie jar: keeps what Set-Cookie headers set, sends it back. */
export class CookieJar {
  private cookies = new Map<string, string>();
  absorb(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, ...value] = pair!.split("=");
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a.trim()));
      if (expired) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join("="));
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  has(name: string) {
    return this.cookies.has(name);
  }
}

export function request(path: string, init: { method?: string; form?: Record<string, string>; jar?: CookieJar } = {}) {
  const headers = new Headers();
  if (init.jar) headers.set("Cookie", init.jar.header());
  const body = init.form ? new URLSearchParams(init.form) : undefined;
  if (body) headers.set("Content-Type", "application/x-www-form-urlencoded");
  return new Request(`http://nika.test${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
}

export type Outcome<T = unknown> = { status: number; data: T; headers: Headers; location: string | null };

/** Runs a loader/action and normalises what it returns or throws (data(), Response, plain object). */
export async function call<T = Record<string, unknown>>(fn: () => Promise<unknown> | unknown): Promise<Outcome<T>> {
  let value: unknown;
  try {
    value = await fn();
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) {
    const text = await value.text();
    return { status: value.status, data: (text ? safeJson(text) : null) as T, headers: value.headers, location: value.headers.get("Location") };
  }
  if (value && typeof value === "object" && (value as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = value as { data: T; init: ResponseInit | null };
    const headers = new Headers(init?.headers);
    return { status: init?.status ?? 200, data, headers, location: headers.get("Location") };
  }
  if (value instanceof Error) throw value;
  return { status: 200, data: value as T, headers: new Headers(), location: null };
}

const safeJson = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** A loader's or action's arguments, as React Router passes them (the test stands for the route's pattern with the path). */
export const args = <Params extends Record<string, string> = Record<string, never>>(
  req: Request,
  context: AppLoadContext,
  params = {} as Params,
) => {
  const url = new URL(req.url);
  return { request: req, context, params, url, pattern: url.pathname };
};

/** A field of a multipart form: text, or a file (its bytes, name and declared type). */
export type Part = string | { bytes: Uint8Array; name: string; type?: string };

/** What an empty <input type="file"> sends: a file part with `filename=""` and no bytes. */
export const NO_FILE: Part = { bytes: new Uint8Array(), name: "", type: "application/octet-stream" };

/**
 * A multipart body written the way a browser writes it (HTML's multipart/form-data encoding): every
 * file part carries `filename="…"`, even an empty one — undici's FormData leaves the attribute out
 * for an empty name, which would turn "no file chosen" into a text field.
 */
export function multipartBody(fields: Iterable<[string, Part]>) {
  const boundary = `----NikaTestFormBoundary${Math.random().toString(36).slice(2)}`;
  const quoted = (text: string) => text.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const [name, value] of fields) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"`;
    if (typeof value === "string") chunks.push(encoder.encode(`${head}\r\n\r\n${value}\r\n`));
    else {
      const type = value.type || "application/octet-stream";
      chunks.push(
        encoder.encode(`${head}; filename="${quoted(value.name)}"\r\nContent-Type: ${type}\r\n\r\n`),
        value.bytes,
        encoder.encode("\r\n"),
      );
    }
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A multipart POST as a browser sends a form with file inputs, from `jar`'s session. */
export function multipart(path: string, jar: CookieJar, fields: Record<string, Part>, headers: Record<string, string> = {}) {
  const { body, contentType } = multipartBody(Object.entries(fields));
  return new Request(`http://nika.test${path}`, {
    method: "POST",
    body,
    headers: { Cookie: jar.header(), "Content-Type": contentType, ...headers },
  });
}

/** The flash toast an answer sets (what the next page shows), or null. */
export async function toastOf(outcome: Outcome) {
  const jar = new CookieJar();
  jar.absorb(outcome.headers);
  return (await takeToast(TEST_ENV, request("/", { jar }))).toast;
}

/**
 * A real R2 bucket for tests (Miniflare's implementation, the one `wrangler dev` uses), to pass as
 * `contextFor(db, { MEDIA: media.bucket })`. `keys()` lists what is stored; `dispose()` at the end.
 */
export async function createTestBucket() {
  const { Miniflare } = await import("miniflare");
  const mf = new Miniflare({ modules: true, script: "export default { fetch() { return new Response() } }", r2Buckets: ["MEDIA"] });
  const bucket = (await mf.getR2Bucket("MEDIA")) as unknown as R2Bucket;
  return {
    bucket,
    async keys(prefix?: string) {
      const listed = await bucket.list(prefix ? { prefix } : undefined);
      return listed.objects.map((o) => o.key).sort();
    },
    async clear() {
      const listed = await bucket.list();
      if (listed.objects.length > 0) await bucket.delete(listed.objects.map((o) => o.key));
    },
    dispose: () => mf.dispose(),
  };
}

/**
 * The world of the admin tests: a database with the development accounts (credits: `allowance`), a
 * real bucket, a load context factory over both, and the cookie jars of the signed-in admin and
 * learner and of an anonymous visitor. `bucket.dispose()` at the end.
 */
export async function createAdminWorld(allowance = 50) {
  const { db } = await createTestDb();
  await seedDevelopment(db, { allowance });
  const bucket = await createTestBucket();
  const ctx = (env: Record<string, unknown> = {}) => contextFor(db, { MEDIA: bucket.bucket, ...env });
  const signInAs = async (email: string, jar: CookieJar) => {
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    jar.absorb(new Headers({ "Set-Cookie": await createSession(ctx(), user!.id, request("/")) }));
    return user!.id;
  };
  const [admin, learner, anonymous] = [new CookieJar(), new CookieJar(), new CookieJar()];
  const adminId = await signInAs(DEV_ACCOUNTS.admin.email, admin);
  const learnerId = await signInAs(DEV_ACCOUNTS.learner.email, learner);
  return { db, bucket, ctx, admin, learner, anonymous, adminId, learnerId };
}
export type AdminWorld = Awaited<ReturnType<typeof createAdminWorld>>;
export type TestBucket = Awaited<ReturnType<typeof createTestBucket>>;

let learnerCount = 0;

/** A learner with `credits` for this month (or a blocked account), signed in: its id and cookie jar. */
export async function insertLearner(db: Database, options: { credits?: number; accountType?: "free" | "blocked"; name?: string } = {}) {
  const [user] = await db
    .insert(users)
    .values({
      name: options.name ?? "Aluna",
      email: `learner-${Date.now().toString(36)}-${++learnerCount}@example.com`,
      monthlyCredits: options.credits ?? 10,
      creditsPeriod: creditPeriod(new Date()),
      emailConfirmedAt: new Date(),
      accountType: options.accountType ?? "free",
    })
    .returning();
  const jar = new CookieJar();
  jar.absorb(new Headers({ "Set-Cookie": await createSession(contextFor(db), user!.id, request("/")) }));
  return { id: user!.id, jar };
}
export type TestLearner = Awaited<ReturnType<typeof insertLearner>>;

/** What a refused admin form answers: conform's reply (form errors [title, description]) and a code. */
export type AdminReply = {
  result: { status?: string; error?: Record<string, string[]>; initialValue?: Record<string, string> };
  code: string | null;
};

/** A refusal answered through conform: its status, its code and (when given) the form errors [title, description]. */
export function expectRefusal(outcome: Outcome<AdminReply>, status: number, code: string | null, formErrors?: string[]) {
  expect(outcome.status).toBe(status);
  expect(outcome.data).toMatchObject({ code, result: { status: "error" } });
  if (formErrors) expect(outcome.data.result.error?.[""]).toEqual(formErrors);
}
