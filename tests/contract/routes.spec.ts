// The route contract: every route of the built manifest, as anonymous, blocked, learner and admin,
// against the worker served by `wrangler dev` (workerd) with the embedded database.
//  1. Every route module declares its access level (`export const handle: RouteHandle = { access }`,
//     app/lib/access.ts); a route without one fails here — a new route is covered without editing this.
//  2. GET of every addressable route and an empty POST to every action answer as the declaration says
//     (redirect to /signin, /blocked or /, 401/403, or allowed).
//  3. A fixed corpus of malformed requests goes to every action and resource route as every role: every
//     answer is < 500, a refused request (4xx) inserts, deletes or updates no row of any table, and the app still serves a
//     page afterwards.
//  4. Every post form the pages render (as each role) is sent with every field twice, intent included, to its
//     action as every role: the roles that see the form get a 4xx with the pt-BR refusal, nobody gets a 5xx, and
//     no row of any table changes.
// It runs in its own Playwright project before the journeys (they would change the tables meanwhile).
import { execFileSync } from "node:child_process";
import { request as httpRequest } from "node:http";
import type { Page, TestInfo } from "@playwright/test";
import { sql } from "drizzle-orm";
import { ACCESS_LEVELS, type Access } from "../../app/lib/access";
import { BODY_MESSAGES } from "../../app/server/request.server";
import { connect, loadEnv } from "../../scripts/lib/node-db";
import { expect, insertAccount, test, withDb, type Account, type Role } from "../e2e/support";

type ManifestRoute = {
  id: string;
  path: string;
  addressable: boolean;
  hasLoader: boolean;
  hasAction: boolean;
  hasComponent: boolean;
  access: Access | null;
};

const manifest: ManifestRoute[] = JSON.parse(
  execFileSync(process.execPath, ["--conditions=workerd", "--conditions=worker", "tests/contract/route-manifest.mjs"], { encoding: "utf8" }),
);

/** CONTRACT_ONLY=<regex> limits the requests to routes whose id matches (while working on one route). */
const only = process.env.CONTRACT_ONLY ? new RegExp(process.env.CONTRACT_ONLY) : null;
const checked = manifest.filter((route) => !only || only.test(route.id));

const ROLES = ["anonymous", "blocked", "learner", "admin"] as const;
type Who = (typeof ROLES)[number];

/** playwright.config.ts serves the app here (wrangler dev on the production build). */
const BASE = new URL("http://localhost:8797");

// ——— raw HTTP (exact bytes and headers, no client-side fixing of what we send) ———

type Answer = { status: number; location: string | null; body: string };

function send(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Buffer; cookie?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.cookie) headers.Cookie = options.cookie;
    if (options.body) headers["Content-Length"] = String(options.body.byteLength);
    let answered = false;
    const req = httpRequest(new URL(path, BASE), { method, headers, timeout: 30_000 }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          location: res.headers.location ?? null,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer in 30 s: ${method} ${path}`)));
    // A server may answer (413) and hang up before a big body is fully written: the answer counts.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    req.on("socket", (socket) => socket.on("error", () => {})); // reported through req's own error event
    req.end(options.body);
  });
}

const redirectPath = (answer: Answer) => (answer.location ? new URL(answer.location, BASE).pathname : null);
const isRedirect = (answer: Answer) => answer.status >= 300 && answer.status < 400;

// ——— samples for path parameters (real rows, so allowed pages answer 200) ———

type Samples = Record<string, string>;

async function arrangeSamples(learner: Account): Promise<Samples> {
  return withDb(async (db) => {
    const [module] = (
      await db.execute(sql`
      insert into modules (title, description, order_index, available)
      values ('Contrato de rotas', 'Módulo do teste de contrato.', -9000000, 'yes') returning id`)
    ).rows as { id: string }[];
    const [lesson] = (
      await db.execute(sql`
      insert into lessons (module_id, title, order_index, duration_seconds, video_url)
      values (${module!.id}, 'Aula do contrato', 1, 90, 'https://www.youtube.com/watch?v=dQw4w9WgXcQ') returning id`)
    ).rows as { id: string }[];
    const [conversation] = (
      await db.execute(sql`
      insert into chat_conversations (user_id, mode) values (${learner.id}, 'english') returning id`)
    ).rows as { id: string }[];
    const [card] = (await db.execute(sql`select id from flashcard_cards where category_slug = 'animais' order by order_index limit 1`)).rows as {
      id: string;
    }[];
    const [game] = (
      await db.execute(sql`
      insert into flashcard_games (user_id, category_slug, kind, question_count) values (${learner.id}, 'animais', 'category', 1) returning id`)
    ).rows as { id: string }[];
    await db.execute(sql`
      insert into flashcard_questions (game_id, position, card_id, option_ids)
      select ${game!.id}, 0, ${card!.id}, array_agg(id) from (select id from flashcard_cards where category_slug = 'animais' order by order_index limit 4) four`);
    const [attempt] = (
      await db.execute(sql`
      insert into pronunciation_attempts (user_id, level, sentence, scorer, status, overall_score, accuracy_score, fluency_score,
        completeness_score, pronunciation_score, words)
      values (${learner.id}, 1, 'The cat sat.', 'azure', 'scored', 50, 50, 50, 50, 50, '[]'::jsonb) returning id`)
    ).rows as { id: string }[];
    /** An account of its own for the admin's user page (/admin/users/:userId); cleanSamples deletes it. */
    const [sampleUser] = (
      await db.execute(sql`
      insert into users (name, email) values ('Conta do contrato', ${`contrato-${Date.now().toString(36)}@example.com`}) returning id`)
    ).rows as { id: string }[];
    return {
      userId: sampleUser!.id,
      attemptId: attempt!.id,
      moduleId: module!.id,
      lessonId: lesson!.id,
      conversationId: conversation!.id,
      category: "animais",
      cardId: card!.id,
      gameId: game!.id,
      mode: "english",
      lessonKey: "M01A01",
      /** A pronunciation level (1–100, seeded): the learners' level page and the admin's level form. */
      level: "1",
      file: "0b5e3c1c-0000-4000-8000-000000000000.mp3",
      "*": "nao-existe/arquivo.png",
    };
  });
}

async function cleanSamples(samples: Samples) {
  await withDb(async (db) => {
    await db.execute(sql`delete from chat_conversations where id = ${samples.conversationId}`);
    await db.execute(sql`delete from flashcard_games where id = ${samples.gameId}`);
    await db.execute(sql`delete from pronunciation_attempts where id = ${samples.attemptId}`);
    await db.execute(sql`delete from modules where id = ${samples.moduleId}`);
    await db.execute(sql`delete from users where id = ${samples.userId}`);
  });
}

function urlOf(route: ManifestRoute, samples: Samples): string {
  return route.path
    .split("/")
    .map((segment) => {
      if (segment === "*") return samples["*"];
      if (!segment.startsWith(":")) return segment;
      const value = samples[segment.slice(1).replace(/\?$/, "")];
      if (!value) throw new Error(`No sample value for the path parameter ${segment} of ${route.id}: add one to arrangeSamples()`);
      return value;
    })
    .join("/");
}

/** Where a form of the route posts: an index route's action is addressed with `?index` (as React Router's <Form> does). */
const actionUrl = (route: ManifestRoute, url: string) => (route.id.endsWith("_index") ? `${url}${url.includes("?") ? "&" : "?"}index` : url);

// ——— fingerprints of every table (rows inserted, deleted or updated) ———

/** One connection for the whole file: the corpus fingerprints the tables around every batch. */
const counting = connect(loadEnv("tests/e2e/e2e.vars"));
test.afterAll(() => counting.pool.end());
let fingerprintQuery: string | undefined;

/**
 * Columns a request may touch without changing data: the session's sliding expiry and "last seen"
 * (refreshed by any signed-in request, refused or not).
 */
const VOLATILE_COLUMNS: Record<string, string[]> = { sessions: ["last_seen_at", "expires_at"], users: ["last_seen_at"] };

/**
 * Per table: the row count and an order-independent hash of every row's columns (volatile ones left
 * out), so an UPDATE by a refused request shows as well as an INSERT or DELETE.
 */
async function tableFingerprints(): Promise<Record<string, string>> {
  const db = counting.db;
  if (!fingerprintQuery) {
    const columns = (
      await db.execute(sql`
      select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.table_name not like '__drizzle%'
      order by c.table_name, c.ordinal_position`)
    ).rows as { table_name: string; column_name: string }[];
    const byTable = new Map<string, string[]>();
    for (const { table_name: table, column_name: column } of columns) {
      if (VOLATILE_COLUMNS[table]?.includes(column)) continue;
      byTable.set(table, [...(byTable.get(table) ?? []), `x."${column}"`]);
    }
    fingerprintQuery = [...byTable]
      .map(
        ([table, cols]) =>
          `select '${table}' as t, count(*) || ':' || md5(coalesce(string_agg(md5(row(${cols.join(", ")})::text), ',' order by md5(row(${cols.join(", ")})::text)), '')) as f from "${table}" x`,
      )
      .join(" union all ");
  }
  const rows = (await db.execute(sql.raw(fingerprintQuery))).rows as { t: string; f: string }[];
  return Object.fromEntries(rows.map((row) => [row.t, row.f]));
}

/**
 * Site-wide settings an admin form may legitimately change with a body that happens to be valid (the
 * banner takes any title): saved before a route's corpus and put back after, so later journeys see
 * the seeded content.
 */
async function snapshotSiteSettings() {
  const db = counting.db;
  const banners = (await db.execute(sql`select * from site_banners`)).rows;
  const config = (await db.execute(sql`select * from app_config`)).rows;
  return async () => {
    await db.execute(sql`delete from site_banners`);
    for (const row of banners)
      await db.execute(sql`insert into site_banners select * from json_populate_record(null::site_banners, ${JSON.stringify(row)}::json)`);
    await db.execute(sql`delete from app_config`);
    for (const row of config)
      await db.execute(sql`insert into app_config select * from json_populate_record(null::app_config, ${JSON.stringify(row)}::json)`);
  };
}

const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);

// ——— expectations per declaration ———

/** What the declaration says `who` gets from a GET (pages) or POST (actions). */
function expected(route: ManifestRoute, who: Who, method: "GET" | "POST"): "allowed" | "signin" | "blocked" | "home" | "forbidden" {
  const access = route.access!;
  if (access === "public" || access === "dev") return "allowed";
  if (access === "guest") {
    if (method === "POST" || who === "anonymous") return "allowed";
    return who === "blocked" ? "blocked" : "home";
  }
  if (who === "anonymous") return "signin";
  if (who === "blocked") return "blocked";
  if (access === "admin" && who === "learner") return method === "GET" && route.hasComponent ? "home" : "forbidden";
  return "allowed";
}

/** Routes whose successful answer is a redirect to a page that is also a guard target. */
const SUCCESS_REDIRECTS: Record<string, string> = {
  "/signout": "/signin",
  // Google's answer without a state (here: no answer at all) ends on /signin with the Google error toast (decision 0017).
  "/auth/google/callback": "/signin",
};

/** Does the answer match? Endpoints (no component) may say 401/403 where pages redirect. */
function matches(answer: Answer, expectation: ReturnType<typeof expected>, route: ManifestRoute): boolean {
  const to = isRedirect(answer) ? redirectPath(answer) : null;
  if (expectation === "allowed" && to && SUCCESS_REDIRECTS[route.path] === to) return true;
  const endpoint = !route.hasComponent;
  switch (expectation) {
    case "signin":
      return to === "/signin" || (endpoint && answer.status === 401);
    case "blocked":
      return to === "/blocked" || (endpoint && answer.status === 403);
    case "home":
      return to === "/";
    case "forbidden":
      return answer.status === 403 || (endpoint && to === "/");
    case "allowed":
      return answer.status > 0 && answer.status < 500 && answer.status !== 401 && answer.status !== 403 && to !== "/signin" && to !== "/blocked";
  }
}

/** Pages an allowed user opens without a query string, and what they answer (200 unless listed). */
const PAGE_STATUS: Record<string, number> = {
  "/*": 404, // the not-found page
  "/confirm-email": 400, // no token in the link
  "/reset-password": 400, // no token in the link
  "/lembretes/cancelar": 400, // no token in the link
  "/lembretes/confirmar": 400, // no token in the link
};

/** Pages of one learner's own record (the sample belongs to the learner): anybody else gets a 404. */
const OWNER_ONLY_PAGES = new Set(["/flashcard-v2/:gameId", "/conversas/:conversationId/resumo"]);
const pageStatus = (route: ManifestRoute, who: Who) =>
  OWNER_ONLY_PAGES.has(route.path) && who !== "learner" ? 404 : (PAGE_STATUS[route.path] ?? 200);

// ——— the malformed corpus ———

const crlf = (lines: string[]) => Buffer.from(lines.join("\r\n"));
const multipart = (boundary: string, parts: { name: string; filename?: string; type?: string; body: Buffer | string }[]) =>
  Buffer.concat([
    ...parts.flatMap((part) => [
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ""}\r\n` +
          (part.type ? `Content-Type: ${part.type}\r\n` : "") +
          "\r\n",
      ),
      Buffer.isBuffer(part.body) ? part.body : Buffer.from(part.body),
      Buffer.from("\r\n"),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
const FILE_FIELDS = ["file", "audio", "image_file", "banner_file", "thumbnail_file", "background_image_file"];
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>');
const EXE = Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00\x04\x00", "latin1"), Buffer.alloc(2048, 0x41)]);
const FORM = "application/x-www-form-urlencoded";
const BIG = "a".repeat(300 * 1024);

type Malformed = { name: string; headers: Record<string, string>; body?: Buffer; oversized?: true };

/**
 * The oversized body: 54 MB (over the largest cap, 50 MB uploads + 256 KB of fields) as admin, the role
 * that gets past every guard to the body; 1 MB (over every cap of a form without files) for the others,
 * whom the guards refuse before reading (54 MB × 4 roles × every route would only test loopback).
 */
const OVER_ALL_CAPS = Buffer.alloc(54 * 1024 * 1024, 0x61);
const OVER_FORM_CAPS = Buffer.alloc(1024 * 1024, 0x61);
const bodyFor = (malformed: Malformed, who: Who) => (malformed.oversized ? (who === "admin" ? OVER_ALL_CAPS : OVER_FORM_CAPS) : malformed.body);

const CORPUS: Malformed[] = [
  { name: "JSON", headers: { "Content-Type": "application/json" }, body: Buffer.from('{"intent":"comment","content":"oi","email":"a@b.c"}') },
  { name: "text/plain", headers: { "Content-Type": "text/plain" }, body: Buffer.from("intent=comment&content=oi") },
  {
    name: "XML",
    headers: { "Content-Type": "application/xml" },
    body: Buffer.from('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>'),
  },
  { name: "no content type", headers: {}, body: Buffer.from("intent=comment&content=oi") },
  {
    name: "broken multipart",
    headers: { "Content-Type": "multipart/form-data; boundary=XYZ" },
    body: crlf(["--XYZ", 'Content-Disposition: form-data; name="intent"', "", "comment", "--XYZ", "Content-Disposition: form-da"]),
  },
  { name: "multipart without boundary", headers: { "Content-Type": "multipart/form-data" }, body: Buffer.from("intent=comment") },
  {
    name: "invalid UTF-8",
    headers: { "Content-Type": FORM },
    body: Buffer.concat([
      Buffer.from("intent=comment&content="),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]),
      Buffer.from("&email=\xff@x", "latin1"),
    ]),
  },
  {
    name: "bad percent-encoding",
    headers: { "Content-Type": FORM },
    body: Buffer.from("intent=%ZZ&content=%E0%A4%A&email=%&text=%C0%AF&url=%2e%2e%2f"),
  },
  {
    name: "repeated fields",
    headers: { "Content-Type": FORM },
    body: Buffer.from(
      "intent=comment&intent=complete&intent=remove&content=a&content=b&email=a@b.c&email=c@d.e&text=a&text=b&open=true&open=false&title=a&title=b",
    ),
  },
  { name: "300 KB field (url-encoded)", headers: { "Content-Type": FORM }, body: Buffer.from(`intent=comment&content=${BIG}&text=${BIG}`) },
  {
    name: "300 KB field (multipart)",
    headers: { "Content-Type": "multipart/form-data; boundary=B300" },
    body: multipart("B300", [
      { name: "intent", body: "comment" },
      { name: "title", body: BIG },
      { name: "text", body: BIG },
    ]),
  },
  { name: "unknown intent", headers: { "Content-Type": FORM }, body: Buffer.from("intent=__drop_table__&content=oi") },
  // A NUL byte (Postgres refuses it in text) and other control characters, in every field a route may read.
  {
    name: "NUL and control characters (url-encoded)",
    headers: { "Content-Type": FORM },
    body: Buffer.from(
      "intent=comment&content=oi%00&email=a%00%40b.c&text=%01&title=T%1B&name=%00&slug=%00&category=%00&redirectTo=%2F%00&url=%7F&q=%08",
    ),
  },
  {
    name: "NUL and control characters (JSON)",
    headers: { "Content-Type": "application/json" },
    body: Buffer.from(
      JSON.stringify({
        intent: "comment",
        content: "\u0000",
        target: "category",
        slug: "\u0000",
        text: "\u0007",
        answers: [{ cardId: "\u0000" }],
      }),
    ),
  },
  {
    name: "NUL and control characters (multipart)",
    headers: { "Content-Type": "multipart/form-data; boundary=BNUL" },
    body: multipart("BNUL", [
      { name: "intent", body: "upload" },
      { name: "title", body: "Aula\u0000" },
      ...FILE_FIELDS.map((name) => ({ name, filename: "a\u0001.pdf", type: "application/pdf", body: "x" })),
    ]),
  },
  {
    name: "numbers out of range",
    headers: { "Content-Type": FORM },
    body: Buffer.from("intent=save&order_index=99999999999999999999999&duration=-5&duration_minutes=1e309&credits=-1&open=2&title=T"),
  },
  {
    name: "path traversal in file names",
    headers: { "Content-Type": "multipart/form-data; boundary=BTR" },
    body: multipart("BTR", [
      { name: "intent", body: "upload" },
      ...FILE_FIELDS.map((name) => ({ name, filename: "../../../etc/passwd", type: "application/pdf", body: "x" })),
    ]),
  },
  {
    name: "SVG posing as an image",
    headers: { "Content-Type": "multipart/form-data; boundary=BSVG" },
    body: multipart("BSVG", [
      { name: "title", body: "T" },
      ...FILE_FIELDS.map((name) => ({ name, filename: "foto.png", type: "image/png", body: SVG })),
    ]),
  },
  {
    name: "executable posing as an image",
    headers: { "Content-Type": "multipart/form-data; boundary=BEXE" },
    body: multipart("BEXE", [
      { name: "title", body: "T" },
      ...FILE_FIELDS.map((name) => ({ name, filename: "foto.jpg", type: "image/jpeg", body: EXE })),
    ]),
  },
  {
    name: "audio that is not audio",
    headers: { "Content-Type": "multipart/form-data; boundary=BAUD" },
    body: multipart("BAUD", [{ name: "audio", filename: "voz.wav", type: "audio/wav", body: Buffer.alloc(4096, 0x20) }]),
  },
  // Over every route's cap (the largest, 50 MB uploads + 256 KB of fields): refused with 413 — before reading
  // where the guard or the Content-Length check comes first. (A Content-Length that lies about a shorter body
  // cannot be sent here: workerd drains the declared body before answering.)
  { name: "body over the cap", headers: { "Content-Type": "multipart/form-data; boundary=BBIG" }, oversized: true },
];

// ——— the test ———

// In order, in one worker (the corpus compares table fingerprints), and a failure does not skip the rest.
test.describe.configure({ mode: "default" });

test("every route declares its access level", () => {
  const undeclared = manifest.filter((route) => !route.access || !ACCESS_LEVELS.includes(route.access)).map((route) => route.id);
  expect(undeclared, "routes without `export const handle: RouteHandle = { access }`").toEqual([]);
  expect(manifest.length).toBeGreaterThan(30);
});

test("pages and actions answer every role as their declaration says", async ({}, testInfo) => {
  test.setTimeout(240_000);
  const mismatches: string[] = [];
  let requests = 0;
  const restoreSiteSettings = await snapshotSiteSettings(); // an admin's empty POST may save the banner
  for (const route of checked.filter((r) => r.addressable && r.access)) {
    // Fresh accounts and rows per route: a route that ends sessions (/signout) cannot spoil the next.
    const accounts = await accountsFor(testInfo);
    const samples = await arrangeSamples(accounts.learner!);
    try {
      const url = urlOf(route, samples);
      for (const who of ROLES) {
        const cookie = accounts[who]?.cookie;
        const got = await send("GET", url, { cookie, headers: { Accept: "text/html" } });
        requests++;
        const want = expected(route, who, "GET");
        const methodNotOffered = got.status === 405; // POST-only endpoints
        let ok = methodNotOffered || matches(got, want, route);
        if (ok && want === "allowed" && route.hasComponent && route.access !== "dev" && !isRedirect(got)) {
          ok = got.status === pageStatus(route, who);
        }
        if (!ok) mismatches.push(`GET ${url} as ${who}: expected ${want}, got ${got.status} ${got.location ?? ""} ${got.body.slice(0, 120)}`);

        if (route.hasAction) {
          const posted = await send("POST", actionUrl(route, url), { cookie, headers: { "Content-Type": FORM }, body: Buffer.from("") });
          requests++;
          const wantPost = expected(route, who, "POST");
          // A page's loaders run after its action: a guest page may still send signed-in users away.
          const ok = matches(posted, wantPost, route) || (route.access === "guest" && matches(posted, want, route));
          if (!ok)
            mismatches.push(
              `POST ${url} as ${who}: expected ${wantPost}, got ${posted.status} ${posted.location ?? ""} ${posted.body.slice(0, 120)}`,
            );
        }
      }
    } finally {
      await cleanSamples(samples);
    }
  }
  await restoreSiteSettings();
  console.log(`[contract] access table: ${requests} requests over ${checked.filter((r) => r.addressable).length} addressable routes`);
  expect(mismatches).toEqual([]);
});

test("a NUL or another control character in any route's path or query is a 400 with the pt-BR message", async ({}, testInfo) => {
  test.setTimeout(240_000);
  const failures: string[] = [];
  let requests = 0;
  const accounts = await accountsFor(testInfo);
  const samples = await arrangeSamples(accounts.learner!);
  const QUERIES = ["?slug=%00", "?redirectTo=%2F%00", "?q=%01&page=1", "?%00=1", "?c=%1B", "?target=category&slug=%7F"];
  try {
    for (const route of checked.filter((r) => r.addressable && r.access)) {
      const url = urlOf(route, samples);
      const withNulParam = route.path.includes(":") ? url.replace(/\/[^/]+$/, "/%00") : null;
      for (const who of ["anonymous", "learner", "admin"] as const) {
        const cookie = accounts[who]?.cookie;
        const sent = [...QUERIES.map((query) => ["GET", url + query] as const), ["POST", actionUrl(route, url + QUERIES[0]!)] as const];
        if (withNulParam) sent.push(["GET", withNulParam]);
        for (const [method, target] of sent) {
          const got = await send(method, target, {
            cookie,
            headers: { Accept: "text/html", "Content-Type": FORM },
            body: method === "POST" ? Buffer.from("intent=x") : undefined,
          });
          requests++;
          const message = (() => {
            try {
              return (JSON.parse(got.body) as { error?: string }).error;
            } catch {
              return null;
            }
          })();
          if (got.status !== 400 || message !== BODY_MESSAGES.controlCharacter) {
            failures.push(`${method} ${target} as ${who}: ${got.status} ${got.body.slice(0, 120)}`);
          }
        }
      }
    }
  } finally {
    await cleanSamples(samples);
  }
  console.log(`[contract] control characters in URLs: ${requests} requests`);
  expect(failures).toEqual([]);
});

test("malformed requests to every action and resource route get a 4xx and change nothing", async ({}, testInfo) => {
  test.setTimeout(600_000);
  const started = Date.now();
  const targets = checked.filter((route) => route.addressable && route.access && (route.hasAction || !route.hasComponent));
  const failures: string[] = [];
  let requests = 0;
  for (const route of targets) {
    // Fresh accounts and rows per route: a sign-out or a deletion in one route cannot spoil the next.
    const accounts = await accountsFor(testInfo);
    const samples = await arrangeSamples(accounts.learner!);
    const url = actionUrl(route, urlOf(route, samples));
    const restoreSiteSettings = await snapshotSiteSettings();
    const post = (target: string, who: Who, malformed: Malformed) =>
      send("POST", target, { cookie: accounts[who]?.cookie, headers: malformed.headers, body: bodyFor(malformed, who) }).catch(
        (error: Error): Answer => ({ status: 0, location: null, body: `no answer: ${error.message}` }),
      );
    try {
      for (const who of ROLES) {
        // Table fingerprints around each role's batch; only a batch that changed something while a request was
        // refused is replayed request by request to name the culprit (keeps the run to ~2 queries a batch).
        const before = await tableFingerprints();
        // Three at a time: the bodies are independent, and a route that answers a burst with a 5xx fails here too.
        const answers = await inBatches(CORPUS, 3, async (malformed) => {
          const label = `POST ${route.path} as ${who} with ${malformed.name}`;
          const got = await post(url, who, malformed);
          requests++;
          if (got.status >= 500 || got.status === 0) failures.push(`${label}: ${got.status} ${got.body.slice(0, 160)}`);
          return { label, got };
        });
        const changed = changedTables(before, await tableFingerprints());
        if (changed.length === 0 || answers.every(({ got }) => got.status < 400)) continue;
        for (const malformed of CORPUS) {
          const one = await tableFingerprints();
          const got = await post(url, who, malformed);
          requests++;
          const changedByOne = changedTables(one, await tableFingerprints());
          if (got.status >= 400 && changedByOne.length > 0) {
            failures.push(
              `POST ${route.path} as ${who} with ${malformed.name}: refused with ${got.status} but changed ${changedByOne.join(", ")}`,
            );
          }
        }
      }
    } finally {
      await restoreSiteSettings();
      await cleanSamples(samples);
    }
  }
  const page = await send("GET", "/signin", { headers: { Accept: "text/html" } });
  expect(page.status, "the app still serves a page after the corpus").toBe(200);
  console.log(
    `[contract] malformed corpus: ${requests} requests (${CORPUS.length} bodies × ${ROLES.length} roles × ${targets.length} action/resource routes) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  expect(failures).toEqual([]);
});

/** `work` on every item, at most `size` at once, the results in the items' order. */
async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return results;
}

// ——— every form, every field twice ———

/** A post form as a browser without JavaScript submits it (one per named submit button). */
type FormSubmission = { page: string; action: string; multipart: boolean; fields: { name: string; value: string; file: boolean }[] };

/** The post forms of a page's HTML, read by the browser itself (no script runs, nothing is fetched). */
async function formsIn(page: Page, html: string): Promise<Omit<FormSubmission, "page">[]> {
  await page.setContent(html, { waitUntil: "domcontentloaded" });
  return await page.$$eval("form", (forms) =>
    forms
      .filter((form) => form.method === "post")
      .flatMap((form) => {
        const named = [...form.querySelectorAll<HTMLButtonElement | HTMLInputElement>("button, input[type=submit]")].filter(
          (button) => button.type === "submit" && button.name,
        );
        const submitters = named.length > 0 ? named : [null];
        return submitters.map((submitter) => ({
          action: form.getAttribute("action") ?? "",
          multipart: form.enctype === "multipart/form-data",
          fields: [...new FormData(form, submitter)].map(([name, value]) =>
            typeof value === "string" ? { name, value, file: false } : { name, value: "", file: true },
          ),
        }));
      }),
  );
}

/** The manifest route a form's action URL reaches (index routes only with `?index`, as React Router addresses them). */
function routeOfAction(action: string): ManifestRoute | null {
  const url = new URL(action, BASE);
  const index = url.searchParams.has("index");
  const segments = url.pathname.split("/").filter(Boolean);
  const candidates = manifest.filter((route) => {
    if (!route.addressable || !route.hasAction || route.id.endsWith("_index") !== index) return false;
    const pattern = route.path.split("/").filter(Boolean);
    return pattern.length === segments.length && pattern.every((part, i) => part.startsWith(":") || part === segments[i]);
  });
  // The most specific pattern wins (`/courses/lessons/:lessonId/edit` over `/courses/lessons/:lessonId`).
  const statics = (route: ManifestRoute) => route.path.split("/").filter((part) => part && !part.startsWith(":")).length;
  return candidates.sort((a, b) => statics(b) - statics(a))[0] ?? null;
}

/** The body of a submission with every field twice (the same values again), url-encoded or multipart. */
function doubled(submission: FormSubmission, asMultipart: boolean): Malformed {
  const twice = [...submission.fields, ...submission.fields];
  if (!asMultipart) {
    const body = new URLSearchParams(twice.map(({ name, value }) => [name, value]));
    return { name: "every field twice (url-encoded)", headers: { "Content-Type": FORM }, body: Buffer.from(body.toString()) };
  }
  const boundary = "BTWICE";
  const parts = twice.map(({ name, value, file }) =>
    file ? { name, filename: "", type: "application/octet-stream", body: "" } : { name, body: value },
  );
  return {
    name: "every field twice (multipart)",
    headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
    body: multipart(boundary, parts),
  };
}

test("every form sent with every field twice is refused with a 4xx and changes nothing", async ({ browser }, testInfo) => {
  test.setTimeout(600_000);
  const started = Date.now();
  // One set of accounts and rows for the whole test: the forms' actions are posted where the pages point.
  const accounts = await accountsFor(testInfo);
  const samples = await arrangeSamples(accounts.learner!);
  const restoreSiteSettings = await snapshotSiteSettings();
  const failures: string[] = [];
  let requests = 0;
  // One page without JavaScript reads every page's forms; it fetches nothing.
  const reader = await browser.newContext({ javaScriptEnabled: false });
  const formReader = await reader.newPage();
  await formReader.route("**/*", (route) => route.abort());
  try {
    // The forms each role sees, by action and fields (a form on many pages is one submission).
    const submissions = new Map<string, { submission: FormSubmission; route: ManifestRoute; seenBy: Set<Who> }>();
    for (const route of checked.filter((r) => r.addressable && r.access && r.hasComponent && r.access !== "dev")) {
      const url = urlOf(route, samples);
      for (const who of ROLES) {
        const cookie = accounts[who]?.cookie;
        let got = await send("GET", url, { cookie, headers: { Accept: "text/html" } });
        // A page that opens its own record first (a new conversation: ?c=…) is read where it lands.
        if (isRedirect(got) && redirectPath(got) === new URL(url, BASE).pathname) {
          got = await send("GET", new URL(got.location!, BASE).pathname + new URL(got.location!, BASE).search, {
            cookie,
            headers: { Accept: "text/html" },
          });
        }
        requests++;
        if (got.status !== 200) continue;
        for (const form of await formsIn(formReader, got.body)) {
          const action = (form.action || url).split("#")[0]!;
          if (!action.startsWith("/")) continue; // another origin's form (checkout, Google)
          const target = routeOfAction(action);
          if (!target) continue;
          const key = `${action} ${form.fields.map((f) => `${f.name}=${f.name === "intent" ? f.value : ""}`).join("&")}`;
          const entry = submissions.get(key) ?? { submission: { ...form, action, page: url }, route: target, seenBy: new Set<Who>() };
          entry.seenBy.add(who);
          submissions.set(key, entry);
        }
      }
    }
    const withFields = [...submissions.values()].filter(({ submission }) => submission.fields.length > 0);
    expect(withFields.length, "post forms found on the pages").toBeGreaterThan(20);
    // Every action a page posts to is covered.
    const covered = new Set(withFields.map(({ route }) => route.id));
    expect(covered.size, [...covered].join(", ")).toBeGreaterThan(15);

    for (const who of ROLES) {
      const before = await tableFingerprints();
      const sent: { label: string; submission: FormSubmission; body: Malformed }[] = [];
      for (const { submission, route, seenBy } of withFields) {
        for (const body of [doubled(submission, false), ...(submission.multipart ? [doubled(submission, true)] : [])]) {
          const label = `POST ${submission.action} (${route.id}, form of ${submission.page}) as ${who} with ${body.name}`;
          const got = await send("POST", submission.action, { cookie: accounts[who]?.cookie, headers: body.headers, body: body.body }).catch(
            (error: Error): Answer => ({ status: 0, location: null, body: `no answer: ${error.message}` }),
          );
          requests++;
          sent.push({ label, submission, body });
          if (got.status >= 500 || got.status === 0) failures.push(`${label}: ${got.status} ${got.body.slice(0, 160)}`);
          else if (seenBy.has(who) && !(got.status >= 400 && got.status < 500 && got.body.includes(BODY_MESSAGES.duplicatedField))) {
            failures.push(`${label}: expected a 4xx saying "${BODY_MESSAGES.duplicatedField}", got ${got.status} ${got.location ?? ""}`);
          }
        }
      }
      if (changedTables(before, await tableFingerprints()).length === 0) continue;
      for (const { label, submission, body } of sent) {
        const one = await tableFingerprints();
        await send("POST", submission.action, { cookie: accounts[who]?.cookie, headers: body.headers, body: body.body }).catch(() => null);
        requests++;
        const changedByOne = changedTables(one, await tableFingerprints());
        if (changedByOne.length > 0) failures.push(`${label}: changed ${changedByOne.join(", ")}`);
      }
    }
    // Actions no page shows a form for without a state of its own (a token, Google's answer) or only to
    // scripts (chat streams): the corpus above sends them its repeated fields.
    const formless = manifest.filter((route) => route.hasAction && !covered.has(route.id)).map((route) => route.path);
    console.log(
      `[contract] every field twice: ${withFields.length} forms of ${covered.size} actions, ${requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s; no form found for ${formless.join(", ")}`,
    );
  } finally {
    await reader.close();
    await restoreSiteSettings();
    await cleanSamples(samples);
  }
  expect(failures).toEqual([]);
});

async function accountsFor(testInfo: TestInfo): Promise<Partial<Record<Who, Account>>> {
  const make = (role: Role) => insertAccount(testInfo, role, { label: `contrato-${role}` });
  const [blocked, learner, admin] = await Promise.all([make("blocked"), make("learner"), make("admin")]);
  return { blocked, learner, admin };
}
