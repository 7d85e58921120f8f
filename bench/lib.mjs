// @ts-check
// Helpers the benchmarks share: the app under measurement (scripts/start.mjs on the bench's own ports, or the one
// bench/smoke.mjs shares), signing in as the development learner, request loops and percentiles, the gzip size of
// what a page downloads, the bench's database and where its figures are written.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";

/** The development seed's learner (scripts/lib/seed.ts). */
export const LEARNER = { email: "aluno@nika.local", password: "NikaAluno123" };

/** Set by bench/smoke.mjs for the benches it runs: the app it started once for all of them (JSON of a BenchApp's data). */
export const SHARED_APP_ENV = "NIKA_BENCH_APP";

/**
 * @typedef {object} BenchApp
 * @property {string} base the app's origin, e.g. http://127.0.0.1:8792
 * @property {string} vars its env file (DATABASE_URL among them)
 * @property {string} [upstream] the fake upstream's origin (AI provider, Azure scorer, Stripe), when started
 * @property {string} [inspectorPort] workerd's DevTools port, when opened
 * @property {boolean} shared whether it is bench/smoke.mjs's app (then stop() leaves it running)
 * @property {() => Promise<void>} stop ends what startApp started
 */

/**
 * Writes `path` from .dev.vars.example with the bench's own embedded-database port and APP_URL on
 * `port`, so it never meets a dev server; `extra` is appended as is.
 * @param {string} path
 * @param {{ port: string, pgPort: string, extra?: string }} options
 */
export function writeBenchVars(path, { port, pgPort, extra = "" }) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    readFileSync(".dev.vars.example", "utf8")
      .replace(/127\.0\.0\.1:25320/, `127.0.0.1:${pgPort}`)
      .replace(/APP_URL=.*/, `APP_URL=http://localhost:${port}`) + extra,
  );
}

/**
 * The settings that point the app at the fake upstream on `upstream` (its default keys): Nika's AI (its realtime
 * provider too), the pronunciation scorer and Stripe, with credits enough for any run.
 * @param {string} upstream
 */
export function upstreamVars(upstream) {
  return [
    "",
    `OPENAI_BASE_URL=${upstream}/v1`,
    "OPENAI_API_KEY=test-openai-key",
    "OPENAI_CHAT_MODEL=fake-chat",
    `OPENAI_REALTIME_URL=${upstream.replace(/^http/, "ws")}/v1/realtime`,
    "OPENAI_REALTIME_MODEL=fake-realtime",
    "AZURE_SPEECH_KEY=test-azure-key",
    `AZURE_SPEECH_ENDPOINT=${upstream}`,
    "STRIPE_SECRET_KEY=sk_test_fake",
    "STRIPE_WEBHOOK_SECRET=whsec_test_fake",
    `STRIPE_API_URL=${upstream}`,
    "CREDIT_PACKS=50:990,150:2490,400:5990",
    "MONTHLY_CREDITS=100000",
    "",
  ].join("\n");
}

/**
 * Starts the fake upstream (tests/fake-upstream/server.mjs) on `port`, delivering Stripe's events to `appBase`.
 * @param {string} port
 * @param {string} appBase
 */
export async function startUpstream(port, appBase) {
  const child = spawn("node", ["tests/fake-upstream/server.mjs", "--port", port, "--stripe-webhook-url", `${appBase}/api/stripe/webhook`], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the fake upstream exited ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/__health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    if (i > 200) throw new Error("the fake upstream did not answer /__health");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Resolves when a spawned scripts/start.mjs (stdio with "ipc") reports ready; rejects if it exits first.
 * @param {import("node:child_process").ChildProcess} child
 * @returns {Promise<void>}
 */
export function untilReady(child) {
  return new Promise((resolve, reject) => {
    child.on("message", (m) => /** @type {{ ready?: boolean }} */ (m)?.ready && resolve());
    child.on("exit", (code) => reject(new Error(`start.mjs exited ${code}`)));
  });
}

/**
 * Ends `child` with SIGTERM and resolves once it has exited (scripts/start.mjs ends its own tree).
 * @param {import("node:child_process").ChildProcess} child
 * @returns {Promise<void>}
 */
export function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once("exit", () => resolve(undefined)));
  child.kill("SIGTERM");
  return exited;
}

/**
 * The app a bench measures: scripts/start.mjs on `port` with its own embedded database (`pgPort`) and data folder
 * (.cache/bench-<name>, fresh: migrated and seeded), serving the existing ./build unless `build`. With `upstreamPort`
 * the fake upstream answers as the AI provider, the pronunciation scorer and Stripe (upstreamVars). The app's output
 * (wrangler's and the worker's) goes to .cache/bench-<name>.log. Under bench/smoke.mjs it is the app that run shares
 * (every setting on), which stop() leaves running. Ctrl+C or SIGTERM stops what was started. `cwd` serves another
 * checkout's build (its .cache/ holds the data, vars and log).
 * @param {{ name: string, port: string, pgPort: string, upstreamPort?: string, inspectorPort?: string, build?: boolean, startArgs?: string[], cwd?: string }} options
 * @returns {Promise<BenchApp>}
 */
export async function startApp({ name, port, pgPort, upstreamPort, inspectorPort, build = false, startArgs = [], cwd = "." }) {
  const shared = cwd === "." && process.env[SHARED_APP_ENV];
  if (shared) return { ...JSON.parse(shared), shared: true, stop: async () => {} };

  await requireFreePorts([port, pgPort, ...(upstreamPort ? [upstreamPort] : []), ...(inspectorPort ? [inspectorPort] : [])]);
  const base = `http://127.0.0.1:${port}`;
  const upstream = upstreamPort ? `http://127.0.0.1:${upstreamPort}` : undefined;
  const vars = join(cwd, `.cache/bench-${name}.vars`);
  const log = join(cwd, `.cache/bench-${name}.log`);
  writeBenchVars(vars, { port, pgPort, extra: upstream ? upstreamVars(upstream) : "" });

  /** @type {import("node:child_process").ChildProcess[]} */
  const children = [];
  const stop = async () => {
    await Promise.all(children.map(stopChild));
  };
  const interrupted = (/** @type {number} */ code) => () => void stop().then(() => process.exit(code));
  process.once("SIGINT", interrupted(130));
  process.once("SIGTERM", interrupted(143));
  try {
    if (upstreamPort) children.push(await startUpstream(upstreamPort, base));
    const output = openSync(log, "w");
    const app = spawn(
      "node",
      [
        "scripts/start.mjs",
        ...["--env-file", vars, "--port", port, "--data", `.cache/bench-${name}`, "--fresh", "--quiet-wrangler"],
        ...(build ? [] : ["--no-build"]),
        ...(inspectorPort ? ["--inspector-port", inspectorPort] : []),
        ...startArgs,
      ],
      { cwd, stdio: ["ignore", output, output, "ipc"] },
    );
    children.push(app);
    await untilReady(app);
  } catch (error) {
    await stop();
    if (existsSync(log)) console.error(`the end of ${log}:\n${readFileSync(log, "utf8").split("\n").slice(-30).join("\n")}`);
    throw error;
  }
  return { base, vars, upstream, inspectorPort, shared: false, stop };
}

/**
 * Signs in as the learner through POST /signin; returns the `nika_session=…` Cookie header value.
 * @param {string} base
 * @param {Record<string, string>} [extraFields]
 */
export async function signInAsLearner(base, extraFields = {}) {
  const response = await fetch(`${base}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...LEARNER, ...extraFields }),
  });
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => c.startsWith("nika_session="))
    .join("; ");
  if (!cookie) throw new Error(`sign-in failed (${response.status})`);
  return cookie;
}

/**
 * Reads a streamed body to its end; `isFirst(text so far)` marks the first token. Times in ms from `started`.
 * @param {Response} response
 * @param {number} started
 * @param {(text: string) => boolean} isFirst
 * @returns {Promise<{ ttft: number | null, total: number, text: string }>}
 */
export async function readStream(response, started, isFirst) {
  if (!response.body) throw new Error(`no body (${response.status})`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  /** @type {number | null} */
  let ttft = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (ttft === null && isFirst(text)) ttft = performance.now() - started;
  }
  return { ttft, total: performance.now() - started, text };
}

/**
 * The chat as the learner's browser drives it: a new English conversation, a message, a greeting; a message or a
 * greeting is timed from its request to the stream's first `event: token` (`ttft`) and to its end (`total`).
 * @param {string} base
 * @param {string} cookie
 */
export function chatClient(base, cookie) {
  const firstToken = (/** @type {string} */ s) => /(^|\n)event: token\ndata: .*\n\n/.test(s);
  /**
   * @param {string} what
   * @param {string} path
   * @param {RequestInit} init
   */
  async function timed(what, path, init) {
    const started = performance.now();
    const response = await fetch(`${base}${path}`, { method: "POST", ...init, headers: { Cookie: cookie, ...init.headers } });
    const run = await readStream(response, started, firstToken);
    if (response.status !== 200 || run.ttft === null || !run.text.includes("event: done")) {
      throw new Error(`${what} failed (${response.status}): ${run.text.slice(0, 300)}`);
    }
    return { ...run, ttft: run.ttft };
  }
  return {
    async newConversation() {
      const response = await fetch(`${base}/chat-with-nika/english`, { redirect: "manual", headers: { Cookie: cookie } });
      await response.arrayBuffer();
      const id = new URL(response.headers.get("location") ?? "", base).searchParams.get("c");
      if (response.status !== 302 || !id) throw new Error(`/chat-with-nika/english answered ${response.status} (no ?c=)`);
      return id;
    },
    /**
     * @param {string} conversationId
     * @param {string} text
     */
    send: (conversationId, text) =>
      timed("app stream", `/resources/chat/${conversationId}/messages`, {
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ text }),
      }),
    /** @param {string} conversationId a conversation with no message yet */
    greet: (conversationId) => timed("app greeting", `/resources/chat/${conversationId}/greet`, {}),
  };
}

let typeScriptLoaded = false;
/** Lets this process import the app's TypeScript modules (through tsx), once. */
export async function loadTypeScript() {
  if (typeScriptLoaded) return;
  const { register } = await import("tsx/esm/api");
  register();
  typeScriptLoaded = true;
}

/**
 * Accounts made straight in the bench's database, each with a seed ledger row and a signed `nika_session` cookie:
 * signing in through /signin would meet its rate limit and pay for password hashing on every account.
 * `vars` is the app's env file (DATABASE_URL, SESSION_SECRET); `label` names the accounts (`<label>-<index>@nika.local`).
 * @param {string} vars
 * @param {{ label: string, credits?: number }} options
 */
export async function accountMaker(vars, { label, credits = 100_000 }) {
  await loadTypeScript();
  const { connect, loadEnv } = await import("../scripts/lib/node-db.ts");
  const { sql } = await import("drizzle-orm");
  const { createCookie } = await import("react-router");
  const { randomToken, sha256Hex } = await import("../app/server/password.ts");
  const { creditPeriod } = await import("../app/server/credits.server.ts");
  const env = loadEnv(vars);
  const { pool, db } = connect(env);
  const sessionCookie = createCookie("nika_session", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: false,
    secrets: [String(env.SESSION_SECRET)],
    maxAge: 30 * 24 * 3600,
  });
  return {
    /**
     * A learner (or an admin) with `credits` credits this month and a session of 30 days.
     * @param {number} index
     * @param {boolean} [admin]
     * @returns {Promise<{ id: string, index: number, cookie: string }>}
     */
    async insertAccount(index, admin = false) {
      const token = randomToken();
      const email = admin ? `${label}-admin@nika.local` : `${label}-${index}@nika.local`;
      const { rows } = await db.execute(sql`
        with u as (
          insert into users (name, email, phone_number, email_confirmed_at, account_type, monthly_credits, credits_period)
          values (${admin ? `Admin ${label}` : `Aluno ${label} ${index}`}, ${email}, '+55 11 90000-0002', now(), 'free', ${credits}, ${creditPeriod(new Date())})
          returning id
        ), l as (
          insert into credit_ledger (user_id, delta, balance_after, reason) select id, ${credits}, ${credits}, 'seed' from u
        ), s as (
          insert into sessions (id, user_id, user_agent, expires_at)
          select ${await sha256Hex(token)}, id, ${`bench ${label}`}, now() + interval '30 days' from u
        ), r as (
          insert into user_roles (user_id, role) select id, 'admin' from u where ${admin}
        )
        select id from u`);
      const cookie = (await sessionCookie.serialize(token)).split(";")[0];
      return { id: String(rows[0]?.id), index, cookie };
    },
    close: () => pool.end(),
  };
}

/** Debian's chromium, as the e2e tests use it. */
export async function launchChromium() {
  const { chromium } = await import("@playwright/test");
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
}

/**
 * Bytes of `url`'s body once gzipped.
 * @param {string} url
 */
export async function gzipSizeOf(url) {
  return gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length;
}

/**
 * Sum of gzipSizeOf over `urls`, one at a time.
 * @param {Iterable<string>} urls
 */
export async function totalGzipSize(urls) {
  let total = 0;
  for (const url of urls) total += await gzipSizeOf(url);
  return total;
}

export const kb = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Exits when one of `ports` already has a listener: a bench never meets (nor kills) a foreign process.
 * @param {string[]} ports
 */
export async function requireFreePorts(ports) {
  const inUse = (/** @type {string} */ p) =>
    new Promise((resolve) => {
      const socket = net.connect({ host: "127.0.0.1", port: Number(p) });
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
  for (const p of ports) {
    if (await inUse(p)) {
      console.error(`port ${p} is already in use by another process; stop it first (this bench does not kill foreign processes).`);
      process.exit(1);
    }
  }
}

/** Across loops, so that a loop after another goes on with the next cookie rather than the first ones again. */
let cookiesSent = 0;

/**
 * `connections` loops requesting `url` back to back for `seconds` (keep-alive, redirects not followed, `cookie` sent;
 * several cookies are taken in turn, one a request): every request's latency in ms and how many answered each status.
 * @param {string} url
 * @param {{ cookie?: string | string[], seconds: number, connections: number, acceptEncoding?: string }} options
 */
export async function requestLoop(url, { cookie, seconds, connections, acceptEncoding }) {
  /** @type {number[]} */
  const latencies = [];
  /** @type {Map<number, number>} */
  const statuses = new Map();
  const deadline = performance.now() + seconds * 1000;
  const cookies = Array.isArray(cookie) ? cookie : cookie ? [cookie] : [];
  const headersOf = (/** @type {string | undefined} */ each) => ({
    ...(each ? { Cookie: each } : {}),
    ...(acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {}),
  });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const response = await fetch(url, { headers: headersOf(cookies[cookiesSent++ % cookies.length]), redirect: "manual" });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }),
  );
  return { latencies, statuses };
}

/**
 * The q-quantile (0–1) of `values`, nearest rank.
 * @param {number[]} values
 * @param {number} q
 */
export function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

/**
 * The JavaScript a first visit (empty cache) of each page loads, signed in with `cookie` (`name=value`):
 * per page label, the number of files, their gzip total and the gzip of those whose URL matches `routePattern`.
 * @param {string} base
 * @param {string} cookie
 * @param {[label: string, path: string][]} pages
 * @param {RegExp} routePattern
 * @param {boolean} [smoke] up to the load event only, not until the network is quiet (chunks loaded later are missed)
 */
export async function firstVisitScripts(base, cookie, pages, routePattern, smoke = false) {
  const browser = await launchChromium();
  const [name, value] = cookie.split("=");
  /** @type {Record<string, { files: number, gzip: number, routeChunks: number }>} */
  const sizes = {};
  try {
    for (const [label, path] of pages) {
      const context = await browser.newContext();
      await context.addCookies([{ name, value, domain: new URL(base).hostname, path: "/" }]);
      // only the app's own files: a video's thumbnail or player would wait on the network, and counts for nothing here
      await context.route(
        (url) => url.origin !== base,
        (route) => route.abort(),
      );
      const page = await context.newPage();
      /** @type {Set<string>} */
      const scripts = new Set();
      page.on("response", (r) => r.request().resourceType() === "script" && r.url().startsWith(base) && scripts.add(r.url()));
      const response = await page.goto(base + path, { waitUntil: smoke ? "load" : "networkidle" });
      if (response?.status() !== 200) throw new Error(`${path} answered ${response?.status()} in the browser`);
      const matching = [...scripts].filter((url) => routePattern.test(url));
      sizes[label] = { files: scripts.size, gzip: await totalGzipSize(scripts), routeChunks: await totalGzipSize(matching) };
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return sizes;
}

/**
 * Prints firstVisitScripts' sizes, a line per page.
 * @param {Record<string, { files: number, gzip: number, routeChunks: number }>} sizes
 * @param {string} chunksLabel what the route chunks are, e.g. "course route chunks"
 */
export function printPageScripts(sizes, chunksLabel = "route chunks") {
  const width = Math.max(...Object.keys(sizes).map((label) => label.length)) + 2;
  for (const [label, { files, gzip, routeChunks }] of Object.entries(sizes)) {
    console.log(`${label.padEnd(width)} loads ${String(files).padStart(2)} JS files = ${kb(gzip)} gzip (${chunksLabel} ${kb(routeChunks)})`);
  }
}

/**
 * The bench's embedded database, reached like the app reaches it (node-postgres over TCP to the env file's
 * DATABASE_URL): drizzle `db`, its `pool` (end it when done) and drizzle's `sql`. Registers tsx so the app's
 * TypeScript modules can be imported.
 * @param {string} vars
 */
export async function benchDb(vars) {
  process.env.ENV_FILE = vars;
  const { register } = await import("tsx/esm/api");
  register();
  const { connect, loadEnv } = await import("../scripts/lib/node-db.ts");
  const { sql } = await import("drizzle-orm");
  const { pool, db } = connect(loadEnv(vars));
  return { db, pool, sql };
}

/**
 * The first module of the catalogue and its first lesson (ids), read from the bench's embedded database.
 * @param {string} vars
 */
export async function firstModuleAndLesson(vars) {
  const { db, pool, sql } = await benchDb(vars);
  try {
    const { rows } = await db.execute(
      sql`select m.id as module_id, l.id as lesson_id from modules m join lessons l on l.module_id = m.id order by m.order_index, l.order_index limit 1`,
    );
    return { moduleId: String(rows[0].module_id), lessonId: String(rows[0].lesson_id) };
  } finally {
    await pool.end();
  }
}

/**
 * Writes a run's figures to bench/results/<name>.json (git-ignored: the last run's). A --smoke run's tiny counts are
 * no figures: they go to .cache/bench-smoke/ instead.
 * @param {string} name
 * @param {unknown} results
 * @param {boolean} smoke
 */
export function writeResults(name, results, smoke) {
  const dir = smoke ? ".cache/bench-smoke" : "bench/results";
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/${name}.json`, JSON.stringify(results, null, 2));
}

/**
 * `seconds` of a 220 Hz tone as 16 kHz mono 16-bit PCM WAV (what the pages' recorder sends).
 * @param {number} [seconds]
 */
export function toneWav(seconds = 2) {
  const rate = 16_000;
  const count = rate * seconds;
  const bytes = Buffer.alloc(44 + count * 2);
  bytes.write("RIFF", 0, "ascii");
  bytes.writeUInt32LE(36 + count * 2, 4);
  bytes.write("WAVEfmt ", 8, "ascii");
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20);
  bytes.writeUInt16LE(1, 22);
  bytes.writeUInt32LE(rate, 24);
  bytes.writeUInt32LE(rate * 2, 28);
  bytes.writeUInt16LE(2, 32);
  bytes.writeUInt16LE(16, 34);
  bytes.write("data", 36, "ascii");
  bytes.writeUInt32LE(count * 2, 40);
  for (let i = 0; i < count; i++) bytes.writeInt16LE(Math.round(9000 * Math.sin((2 * Math.PI * 220 * i) / rate)), 44 + i * 2);
  return bytes;
}

/**
 * CPU time (ms, user + system) of every process on the machine by pid, with its command line: two snapshots'
 * difference says which process a run of requests kept busy (Linux /proc only).
 * @returns {Map<number, { ms: number, cmdline: string }>}
 */
export function cpuSnapshot() {
  const ticks = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      ticks.set(Number(entry), { ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS, cmdline });
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks;
}
const CLOCK_TICKS = 100; // USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK)

/**
 * CPU ms spent between two snapshots, summed per group that `groupOf(cmdline)` names (undefined: not counted).
 * @param {ReturnType<typeof cpuSnapshot>} before
 * @param {ReturnType<typeof cpuSnapshot>} after
 * @param {(cmdline: string) => string | undefined} groupOf
 */
export function cpuSpent(before, after, groupOf) {
  /** @type {Record<string, number>} */
  const spent = {};
  for (const [pid, { ms, cmdline }] of after) {
    const group = groupOf(cmdline);
    if (!group) continue;
    spent[group] = (spent[group] ?? 0) + ms - (before.get(pid)?.ms ?? 0);
  }
  return spent;
}
