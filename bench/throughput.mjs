#!/usr/bin/env node
// @ts-check
// Throughput next to the runtime's floor (issue 13): a hello-world worker and the app, each under its own
// `wrangler dev` (same wrangler, same workerd) running side by side, measured ALTERNATELY — the floor right
// before each page — with --connections keep-alive connections for --seconds each. Prints req/s, p50/p95 and
// each page's ratio to the floor measured next to it. Signed in as the development learner.
//   node bench/throughput.mjs [--seconds 6] [--connections 8] [--warmup 2] [--build] [--only /labs,/courses] [--learners 1] [--identity] [--cpu] [--database-core] [--smoke]
// --learners N (default 1, the development learner): N learners made for the run, each request the next one's. One
// learner reloading a page is served its session from the isolate's memory (5 s, decision 0019), which learners coming
// one after another are not: with N well above req/s × 5, every request reads its session as real traffic does.
// --warmup loads every page for that many seconds first (discarded): the embedded database's WebAssembly runs a
// statement several times slower over its first hundred or so runs, until V8 has re-compiled its hot paths.
// --identity asks for uncompressed answers (Accept-Encoding: identity): wrangler dev gzips every page inside workerd,
// which a deployed worker does not pay (Cloudflare's edge compresses outside the worker's CPU time).
// --cpu also prints each page's CPU per request in every process it keeps busy (workerd, wrangler's proxy, the
// embedded database, this load generator), measured from /proc.
// --database-core pins the embedded database to the second core and everything else (both workerd, wrangler, this load
// generator) to the first, so the ratio counts only the worker's side of a page — the shape of a deployment, where
// the database runs on other machines (Neon) — instead of a database sharing the worker's two cores.
// --smoke (bench/smoke.mjs): every page for a tenth of a second, two connections, no warm-up.
// By default the existing ./build is served; --build rebuilds it. Own ports, database and data folder.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { parseArgs, parseEnv } from "node:util";
import { wranglerDevArgs, wranglerDevEnv } from "../scripts/lib/wrangler-dev.mjs";
import {
  accountMaker,
  cpuSnapshot,
  cpuSpent,
  firstModuleAndLesson,
  percentile,
  requestLoop,
  requireFreePorts,
  signInAsLearner,
  startApp,
  writeResults,
} from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    seconds: { type: "string", default: "6" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "8" },
    build: { type: "boolean", default: false },
    only: { type: "string" },
    identity: { type: "boolean", default: false },
    cpu: { type: "boolean", default: false },
    "database-core": { type: "boolean", default: false },
    learners: { type: "string", default: "1" },
    smoke: { type: "boolean", default: false },
  },
});
const SECONDS = opts.smoke ? 0.1 : Math.max(2, Math.min(60, Number(opts.seconds)));
const CONNECTIONS = opts.smoke ? 2 : Math.max(1, Math.min(64, Number(opts.connections)));
const WARMUP_SECONDS = opts.smoke ? 0 : Math.max(0, Math.min(60, Number(opts.warmup)));
const LEARNERS = opts.smoke ? 2 : Math.max(1, Math.min(5_000, Number(opts.learners)));
const helloPort = "8792";
const hello = `http://127.0.0.1:${helloPort}`;

await requireFreePorts([helloPort]);
const app = await startApp({ name: "throughput", port: "8794", pgPort: "25394", build: opts.build });
const { base, vars } = app;

// The floor: a worker that answers a fixed text, on the same wrangler and compatibility settings. Its /statement
// is the floor of any page that reads the database: the app's own per-request database (createRequestDb: node-postgres,
// one connection, the same timeouts), one small parameterised statement on that fresh connection, closed after the
// answer as server.ts closes it.
const databaseUrl = parseEnv(readFileSync(vars, "utf8")).DATABASE_URL;
mkdirSync(".cache/bench-hello", { recursive: true });
writeFileSync(
  ".cache/bench-hello/worker.js",
  `import { sql } from "drizzle-orm";
import { createRequestDb } from "../../app/server/db.server.ts";
export default {
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname !== "/statement") return new Response("hello world");
    const requestDb = createRequestDb({ DATABASE_URL: ${JSON.stringify(databaseUrl)} });
    const { rows } = await requestDb.db.execute(
      sql\`select i, md5(i::text) as h, i % 3 = 0 as b, 'lição ' || i as s from generate_series(1, \${20}::int) as i\`,
    );
    ctx.waitUntil(requestDb.close());
    return new Response(String(rows.length));
  },
};
`,
);
writeFileSync(
  ".cache/bench-hello/wrangler.toml",
  'name = "bench-hello"\nmain = "worker.js"\ncompatibility_date = "2025-09-01"\ncompatibility_flags = ["nodejs_compat"]\n',
);

// Started like scripts/start.mjs starts the app's wrangler (log level, environment), so both sides pay the same
// wrangler (at "info" it logs every request from its Node process).
const floor = spawn(
  "npx",
  [...["wrangler", "dev", "--config", ".cache/bench-hello/wrangler.toml", "--port", helloPort, "--ip", "127.0.0.1"], ...wranglerDevArgs()],
  { stdio: "ignore", env: wranglerDevEnv(), detached: true },
);
/** Ends the floor's process group (npx → wrangler → workerd), then the app. */
const stop = async () => {
  try {
    process.kill(-(/** @type {number} */ (floor.pid)), "SIGTERM");
  } catch {
    // already gone
  }
  await app.stop();
};
process.on("SIGINT", () => void stop().then(() => process.exit(130)));
process.on("SIGTERM", () => void stop().then(() => process.exit(143)));
async function untilFloorAnswers() {
  for (let i = 0; ; i++) {
    const up = await fetch(hello).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    if (i > 300) throw new Error("the hello-world worker did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * `count` learners' session cookies, made straight in the database (accountMaker).
 * @param {number} count
 */
async function learnerCookies(count) {
  const accounts = await accountMaker(vars, { label: `vazao-${Date.now().toString(36)}` });
  try {
    const cookies = [];
    for (let i = 1; i <= count; i++) cookies.push((await accounts.insertAccount(i)).cookie);
    return cookies;
  } finally {
    await accounts.close();
  }
}

/**
 * requestLoop for SECONDS over CONNECTIONS: req/s, p50/p95 and how many answered another status than `expected`.
 * @param {string} url
 * @param {string | string[]} [cookie]
 * @param {number} [expected]
 */
async function load(url, cookie, expected = 200) {
  const acceptEncoding = opts.identity ? "identity" : undefined;
  const cpuBefore = opts.cpu ? cpuSnapshot() : undefined;
  const { latencies, statuses } = await requestLoop(url, { cookie, seconds: SECONDS, connections: CONNECTIONS, acceptEncoding });
  const cpu = cpuBefore ? cpuSpent(cpuBefore, cpuSnapshot(), processGroup) : undefined;
  return {
    cpuPerRequest: cpu && Object.fromEntries(Object.entries(cpu).map(([group, ms]) => [group, ms / latencies.length])),
    rps: latencies.length / SECONDS,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    requests: latencies.length,
    failures: latencies.length - (statuses.get(expected) ?? 0),
  };
}

/**
 * Which of the processes a request crosses `cmdline` is.
 * @param {string} cmdline
 */
function processGroup(cmdline) {
  if (cmdline.includes("workerd")) return "workerd";
  if (cmdline.includes("db-server.mjs")) return "database";
  if (cmdline.includes("wrangler")) return "wrangler";
  if (cmdline.includes("bench/throughput.mjs")) return "load";
  return undefined;
}

/** --database-core: the database alone on core 1, every other process of the run (and its threads) on core 0. */
function pinDatabaseToItsOwnCore() {
  if (availableParallelism() < 2) throw new Error("--database-core needs two cores");
  const pinned = { database: 0, other: 0 };
  for (const [pid, { cmdline }] of cpuSnapshot()) {
    const group = processGroup(cmdline);
    if (!group) continue;
    const core = group === "database" ? "1" : "0";
    execFileSync("taskset", ["-a", "-p", "-c", core, String(pid)], { stdio: "ignore" });
    pinned[group === "database" ? "database" : "other"]++;
  }
  if (!pinned.database) throw new Error("--database-core: no database server process found");
  console.log(`pinned: the database (${pinned.database} process) on core 1, ${pinned.other} other processes on core 0`);
}

/** @type {Record<string, unknown>} */
const pages = {};
const results = {
  seconds: SECONDS,
  connections: CONNECTIONS,
  learners: LEARNERS,
  identity: opts.identity,
  databaseCore: opts["database-core"],
  pages,
};
let failed = false;
try {
  await untilFloorAnswers();
  if (opts["database-core"]) pinDatabaseToItsOwnCore();
  const cookie = LEARNERS === 1 ? await signInAsLearner(base) : await learnerCookies(LEARNERS);
  const { moduleId, lessonId } = await firstModuleAndLesson(vars);

  // [label, path, expected status]; the first three are references: the floor worker sending one statement on its own
  // connection (what any page with data pays at least), the router with no database work at all (a resource route
  // answering 405) and a public page (root loader: flags, no session).
  /** @type {[label: string, path: string, expected?: number][]} */
  const measured = [
    ["ref: floor + a statement", `${hello}/statement`],
    ["ref: router without database", "/api/errors", 405],
    ["ref: public /nika", "/nika"],
    ["/", "/"],
    ["/labs", "/labs"],
    ["/courses", "/courses"],
    ["a module", `/courses/modules/${moduleId}`],
    ["a lesson", `/courses/lessons/${lessonId}`],
    ["/chat-with-nika", "/chat-with-nika"],
    ["/flashcard-v2", "/flashcard-v2"],
    ["/pronunciation-game", "/pronunciation-game"],
    ["/config", "/config"],
  ];
  const toMeasure = measured.filter(([label, path]) => !opts.only || opts.only.split(",").some((wanted) => wanted === label || wanted === path));

  // Warm-up: every page under load for WARMUP_SECONDS (the worker's and the database's code compiled), the connections open.
  const urlOf = (/** @type {string} */ path) => (path.startsWith("http") ? path : base + path);
  const firstCookie = Array.isArray(cookie) ? cookie[0] : cookie;
  for (const [, path] of toMeasure) await (await fetch(urlOf(path), { headers: { Cookie: firstCookie } })).arrayBuffer();
  if (WARMUP_SECONDS > 0) {
    for (const [, path] of toMeasure)
      await requestLoop(urlOf(path), {
        cookie,
        seconds: WARMUP_SECONDS,
        connections: CONNECTIONS,
        acceptEncoding: opts.identity ? "identity" : undefined,
      });
  }
  await load(hello);

  const ms = (/** @type {number} */ value) => `${value.toFixed(1)} ms`.padStart(9);
  console.log(
    `${CONNECTIONS} connections, ${SECONDS} s each, ${LEARNERS === 1 ? "one learner" : `${LEARNERS} learners in turn`}, floor measured right before each page (loopback, wrangler dev` +
      `${opts.identity ? ", uncompressed answers" : ""}${opts["database-core"] ? ", the database on its own core" : ""})`,
  );
  console.log(`${"page".padEnd(28)} ${"req/s".padStart(7)} ${"p50".padStart(9)} ${"p95".padStart(9)}   floor req/s   ratio`);
  for (const [label, path, expected] of toMeasure) {
    const floorRun = await load(hello);
    const run = await load(urlOf(path), cookie, expected);
    const ratio = run.rps / floorRun.rps;
    pages[label] = { path, ...run, floorRps: floorRun.rps, ratio };
    console.log(
      `${label.padEnd(28)} ${run.rps.toFixed(1).padStart(7)} ${ms(run.p50)} ${ms(run.p95)}   ${floorRun.rps.toFixed(1).padStart(11)}   ${ratio.toFixed(2)}` +
        (run.failures ? `   (${run.failures} non-200!)` : ""),
    );
    if (opts.cpu) {
      const perRequest = (/** @type {Record<string, number> | undefined} */ cpu) =>
        Object.entries(cpu ?? {})
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([group, ms]) => `${group} ${ms.toFixed(2)}`)
          .join(" · ");
      console.log(`${"".padEnd(28)} CPU ms/request: ${perRequest(run.cpuPerRequest)}  (floor: ${perRequest(floorRun.cpuPerRequest)})`);
    }
    if (run.failures) failed = true;
  }
  writeResults("throughput", results, opts.smoke);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await stop();
}
process.exit(failed ? 1 : 0);
