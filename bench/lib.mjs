// Helpers the benchmarks share: an env file for scripts/start.mjs, waiting for it to be ready,
// signing in as the development learner and the gzip size of what a page downloads.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { dirname } from "node:path";
import { gzipSync } from "node:zlib";

/** The development seed's learner (scripts/lib/seed.ts). */
export const LEARNER = { email: "aluno@nika.local", password: "NikaAluno123" };

/**
 * Writes `path` from .dev.vars.example with the bench's own embedded-database port and APP_URL on
 * `port`, so it never meets a dev server; `extra` is appended as is.
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

/** Resolves when a spawned scripts/start.mjs (stdio with "ipc") reports ready; rejects if it exits first. */
export function untilReady(child) {
  return new Promise((resolve, reject) => {
    child.on("message", (m) => m?.ready && resolve());
    child.on("exit", (code) => reject(new Error(`start.mjs exited ${code}`)));
  });
}

/** Signs in as the learner through POST /signin; returns the `nika_session=…` Cookie header value. */
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

/** Debian's chromium, as the e2e tests use it. */
export async function launchChromium() {
  const { chromium } = await import("@playwright/test");
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
}

/** Bytes of `url`'s body once gzipped. */
export async function gzipSizeOf(url) {
  return gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length;
}

/** Sum of gzipSizeOf over `urls`, one at a time. */
export async function totalGzipSize(urls) {
  let total = 0;
  for (const url of urls) total += await gzipSizeOf(url);
  return total;
}

export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Exits when one of `ports` already has a listener: a bench never meets (nor kills) a foreign process. */
export async function requireFreePorts(ports) {
  const inUse = (p) =>
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

/**
 * `connections` loops requesting `url` back to back for `seconds` (keep-alive, redirects not followed, `cookie` sent):
 * every request's latency in ms and how many answered each status.
 */
export async function requestLoop(url, { cookie, seconds, connections, acceptEncoding }) {
  const latencies = [];
  const statuses = new Map();
  const deadline = performance.now() + seconds * 1000;
  const headers = { ...(cookie ? { Cookie: cookie } : {}), ...(acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {}) };
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const response = await fetch(url, { headers, redirect: "manual" });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }),
  );
  return { latencies, statuses };
}

/** The q-quantile (0–1) of `values`, nearest rank. */
export function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

/**
 * The JavaScript a first visit (empty cache) of each page loads, signed in with `cookie` (`name=value`):
 * per page label, the number of files, their gzip total and the gzip of those whose URL matches `routePattern`.
 */
export async function firstVisitScripts(base, cookie, pages, routePattern) {
  const browser = await launchChromium();
  const [name, value] = cookie.split("=");
  const sizes = {};
  try {
    for (const [label, path] of pages) {
      const context = await browser.newContext();
      await context.addCookies([{ name, value, domain: new URL(base).hostname, path: "/" }]);
      const page = await context.newPage();
      const scripts = new Set();
      page.on("response", (r) => r.request().resourceType() === "script" && r.url().startsWith(base) && scripts.add(r.url()));
      await page.goto(base + path, { waitUntil: "networkidle" });
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
 * The bench's embedded database, reached like the app reaches it (node-postgres over TCP to the env file's
 * DATABASE_URL): drizzle `db`, its `pool` (end it when done) and drizzle's `sql`. Registers tsx so the app's
 * TypeScript modules can be imported.
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

/** The first module of the catalogue and its first lesson (ids), read from the bench's embedded database. */
export async function firstModuleAndLesson(vars) {
  const { db, pool, sql } = await benchDb(vars);
  try {
    const { rows } = await db.execute(
      sql`select m.id as module_id, l.id as lesson_id from modules m join lessons l on l.module_id = m.id order by m.order_index, l.order_index limit 1`,
    );
    return { moduleId: rows[0].module_id, lessonId: rows[0].lesson_id };
  } finally {
    await pool.end();
  }
}

/** `seconds` of a 220 Hz tone as 16 kHz mono 16-bit PCM WAV (what the pages' recorder sends). */
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

/** CPU ms spent between two snapshots, summed per group that `groupOf(cmdline)` names (undefined: not counted). */
export function cpuSpent(before, after, groupOf) {
  const spent = {};
  for (const [pid, { ms, cmdline }] of after) {
    const group = groupOf(cmdline);
    if (!group) continue;
    spent[group] = (spent[group] ?? 0) + ms - (before.get(pid)?.ms ?? 0);
  }
  return spent;
}
