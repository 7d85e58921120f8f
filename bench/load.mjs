#!/usr/bin/env node
// @ts-check
// Load with nothing lost (issue 13, items 4–5): --learners virtual learners (default 50) for --seconds
// (default 60) against `wrangler dev` serving the production build with the embedded database and the
// fake upstream as the AI provider (OpenAI protocol) and the Azure scorer. Each learner loops over a
// realistic mix with small think times — /courses, a module, a lesson, a comment, a completion, a chat
// (opening one is greeted by Nika, as the page's island does — in two tabs at once for every fourth learner — then
// a message, each SSE read to its end), a flashcard game and answers, a pronunciation attempt (multipart
// WAV), a profile name — and one admin toggles a flag the mix does not use (feature_chat_roleplay).
// Every request is recorded (action, status, latency; ≥ 500 or past --timeout is an error) and every
// acknowledged write kept; afterwards the database must hold every one of them, and every learner's
// balance must equal its ledger sum, never negative, with no credit spent without its message, attempt
// or game (or the reverse).
//   node bench/load.mjs [--learners 50] [--seconds 60] [--timeout 30] [--fault] [--outage 10]
// --fault stops the database process (scripts/db-server.mjs: PGlite served over TCP) --outage seconds into the
// run for --outage seconds, then starts it again: 503 + Retry-After are expected meanwhile (counted),
// nothing may hang past --timeout, and the app must recover without a restart.
// A POST that wrangler dev's own proxy drops (its connection to the worker reset; it retries GETs itself) is counted
// apart from the app's answers, bounded at 0.1 % of the requests. The worker's and the database's output are kept in
// .cache/bench-load-logs/{load,fault}/, and the reasons the worker logged are printed when an answer is ≥ 500.
// Serves the existing ./build (run `npx react-router build` first); own ports and data folder; exits 1
// when a check fails. --smoke (bench/smoke.mjs): 3 learners for 2 s taking the mix's actions in turn (each at least
// once), an admin toggle, on the app the smoke run shares (no --fault).
import { fork, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { wranglerDevArgs, wranglerDevEnv } from "../scripts/lib/wrangler-dev.mjs";
import {
  accountMaker,
  percentile,
  requireFreePorts,
  SHARED_APP_ENV,
  startApp,
  startUpstream,
  toneWav,
  upstreamVars,
  writeBenchVars,
  writeResults,
} from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    learners: { type: "string", default: "50" },
    seconds: { type: "string", default: "60" },
    timeout: { type: "string", default: "30" },
    fault: { type: "boolean", default: false },
    outage: { type: "string", default: "10" },
    "fault-at": { type: "string", default: "20" },
    smoke: { type: "boolean", default: false },
  },
});
const LEARNERS = opts.smoke ? 3 : Math.max(1, Math.min(200, Number(opts.learners)));
const SECONDS = opts.smoke ? 2 : Math.max(5, Math.min(600, Number(opts.seconds)));
const TIMEOUT_MS = Math.max(1, Number(opts.timeout)) * 1000;
const OUTAGE_MS = Math.max(1, Number(opts.outage)) * 1000;
const FAULT_AT_MS = Math.max(1, Number(opts["fault-at"])) * 1000;
const port = "8789";
const pgPort = "25389";
const providerPort = "4029";
const dataDir = ".cache/bench-load";
// The worker's and the database's output of the last run (kept apart from dataDir, which each run starts afresh).
const logDir = `.cache/bench-load-logs/${opts.fault ? "fault" : "load"}`;
const workerLog = `${logDir}/worker.log`;
const ADMIN_FLAG = "feature_chat_roleplay";
/** The start of wrangler dev's ProxyWorker's 503 to a request other than GET/HEAD whose connection to the worker failed. */
const PROXY_DROPPED = "Your worker restarted mid-request";
const log = (/** @type {string} */ message) => console.log(`[load] ${message}`);

// Under bench/smoke.mjs: its app. Otherwise the bench's own processes — the fake upstream, the database (ours, so that
// --fault can stop only it) and wrangler — not scripts/start.mjs, whose database is not ours to stop.
const shared = Boolean(process.env[SHARED_APP_ENV]);
if (shared && opts.fault) throw new Error("--fault stops the database: it needs the bench's own (run it without bench/smoke.mjs)");
const sharedApp = shared ? await startApp({ name: "load", port, pgPort }) : undefined;
const base = sharedApp?.base ?? `http://127.0.0.1:${port}`;
const vars = sharedApp?.vars ?? ".cache/bench-load.vars";

/** @type {Set<import("node:child_process").ChildProcess>} */
const children = new Set();
/** @type {import("node:child_process").ChildProcess | undefined} */
let dbProcess;
async function startDatabase() {
  mkdirSync(dataDir, { recursive: true });
  const logFd = openSync(`${logDir}/db-server.log`, "a");
  const child = fork("scripts/db-server.mjs", ["--data", `${dataDir}/pglite`, "--pg-port", pgPort], {
    stdio: ["ignore", logFd, logFd, "ipc"],
  });
  children.add(child);
  await new Promise((resolve, reject) => {
    child.on("message", (m) => /** @type {{ ready?: boolean }} */ (m)?.ready && resolve(undefined));
    child.on("exit", (code) => reject(new Error(`db-server.mjs exited ${code}`)));
  });
  child.removeAllListeners("exit");
  child.on("exit", () => children.delete(child));
  dbProcess = child;
}
async function stopDatabase() {
  const child = dbProcess;
  if (!child) return;
  dbProcess = undefined;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/**
 * Every process below `pid`, deepest first.
 * @param {number} pid
 * @returns {number[]}
 */
function descendants(pid) {
  const direct = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
    .stdout.split("\n")
    .filter(Boolean)
    .map(Number);
  return direct.flatMap((child) => [...descendants(child), child]);
}
/** Ends every process this bench started, by pid (wrangler's tree too: npx → wrangler → workerd). */
function stopAll() {
  for (const child of children) {
    if (child.pid === undefined) continue;
    for (const pid of [...descendants(child.pid), child.pid]) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }
}
process.on("SIGINT", () => (stopAll(), process.exit(130)));
process.on("SIGTERM", () => (stopAll(), process.exit(143)));

/** The fake upstream, the database (migrated and seeded) and the worker, its output in workerLog. */
async function startOwnApp() {
  await requireFreePorts([port, pgPort, providerPort]);
  const provider = `http://127.0.0.1:${providerPort}`;
  writeBenchVars(vars, { port, pgPort, extra: upstreamVars(provider) });
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  children.add(await startUpstream(providerPort, base));
  await startDatabase();
  const scriptEnv = { ...process.env, ENV_FILE: vars };
  for (const script of ["scripts/migrate.ts", "scripts/seed.ts"]) {
    const run = spawnSync("npx", ["tsx", script], { stdio: ["ignore", "ignore", "inherit"], env: scriptEnv });
    if (run.status !== 0) throw new Error(`${script} failed`);
  }
  const wrangler = spawn(
    "npx",
    ["wrangler", "dev", "--port", port, "--ip", "127.0.0.1", "--persist-to", `${dataDir}/wrangler`, "--env-file", vars].concat(
      wranglerDevArgs("warn"),
    ),
    // The worker's console (its one-line "[503] …" reasons among them) goes to wrangler's stdout.
    { stdio: ["ignore", openSync(workerLog, "a"), openSync(workerLog, "a")], env: wranglerDevEnv() },
  );
  children.add(wrangler);
  for (const deadline = Date.now() + 120_000; ;) {
    if (Date.now() > deadline) throw new Error("the worker did not become ready in 120 s");
    const ok = await fetch(`${base}/signin`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 300));
  }
}

let exitCode = 0;
try {
  if (!shared) await startOwnApp();

  // ——— accounts: LEARNERS learners and one admin, each with a signed session cookie and a seed ledger row ———
  process.env.ENV_FILE = vars;
  const accounts = await accountMaker(vars, { label: "carga" });
  const { connect, loadEnv } = await import("../scripts/lib/node-db.ts");
  const { sql } = await import("drizzle-orm");
  const { refundAbandonedSpends, ABANDONED_AFTER_MS } = await import("../app/server/credits.server.ts");
  const { ABANDONED_SPENDS } = await import("../app/cron-jobs.server.ts");
  const env = loadEnv(vars);
  const { pool, db } = connect(env);
  /** @param {import("drizzle-orm").SQL} query */
  const rows = async (query) => (await db.execute(query)).rows;
  /** @typedef {{ id: string, index: number, cookie: string, conversationId?: string }} Account */
  const insertAccount = accounts.insertAccount;
  const learners = [];
  for (let i = 1; i <= LEARNERS; i++) learners.push(await insertAccount(i, false));
  const admin = await insertAccount(0, true);
  const moduleIds = (await rows(sql`select id from modules where available = 'yes' order by order_index`)).map((r) => String(r.id));
  const lessonRows = await rows(sql`select l.id, l.module_id from lessons l join modules m on m.id = l.module_id where m.available = 'yes'`);
  const lessonIds = lessonRows.map((r) => String(r.id));
  const categories = (
    await rows(sql`select category_slug as slug from flashcard_cards group by category_slug having count(*) >= 8`).catch(() => [])
  ).map((r) => String(r.slug));
  await pool.end();
  await accounts.close();
  if (!lessonIds.length || !categories.length)
    throw new Error(`seed has no lessons (${lessonIds.length}) or flashcard categories (${categories.length})`);

  log(`${LEARNERS} learners + 1 admin, ${moduleIds.length} modules, ${lessonIds.length} lessons, ${categories.length} flashcard categories`);

  // ——— requests, recorded ———
  /**
   * @typedef {object} Sample one request: its action, answer and timing (ms; `at` from the run's start)
   * @property {string} action
   * @property {number} status 0 when none came
   * @property {number} ms
   * @property {number} at
   * @property {string | null} retryAfter
   * @property {string | null} error "timeout" or "network: …"
   * @property {string} [body] the start of an answer ≥ 500
   * @property {string} [note] "second-tab" (an expected 409), "sse-without-done"
   */
  /** @type {Sample[]} */
  const samples = [];
  const runStart = performance.now();
  const now = () => performance.now() - runStart;
  /**
   * One request, bounded by TIMEOUT_MS (body read included); never throws.
   * @param {string} action
   * @param {string} path
   * @param {{ cookie?: string, method?: string, form?: Record<string, string>, body?: FormData, headers?: Record<string, string> }} [options]
   */
  async function hit(action, path, { cookie, method = "GET", form, body, headers = {} } = {}) {
    const started = performance.now();
    /** @type {Sample} */
    const sample = { action, status: 0, ms: 0, at: now(), retryAfter: null, error: null };
    let text = "";
    /** @type {Response | undefined} */
    let response;
    try {
      response = await fetch(base + path, {
        method,
        redirect: "manual",
        headers: {
          ...headers,
          ...(cookie ? { Cookie: cookie } : {}),
          ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
        },
        body: form ? new URLSearchParams(form) : body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      sample.status = response.status;
      sample.retryAfter = response.headers.get("Retry-After");
      text = await response.text();
      if (sample.status >= 500) sample.body = text.slice(0, 300);
    } catch (error) {
      const failure = /** @type {{ name?: string, message?: string, cause?: { code?: string } }} */ (error);
      sample.error =
        failure?.name === "TimeoutError" || failure?.name === "AbortError" ? "timeout" : `network: ${failure?.cause?.code ?? failure?.message}`;
    }
    sample.ms = performance.now() - started;
    samples.push(sample);
    return { status: sample.status, text, location: response?.headers.get("Location") ?? null, ok: !sample.error, sample };
  }

  // ——— acknowledged writes ———
  const acked = {
    /** @type {{ userId: string, lessonId: string, content: string }[]} */
    comments: [],
    /** @type {{ userId: string, lessonId: string }[]} */
    completions: [],
    /** @type {{ conversationId: string, tabs: number, done: number }[]} */
    greetings: [],
    /** @type {{ userId: string, conversationId: string, text: string }[]} */
    chat: [],
    /** @type {{ userId: string, gameId: string }[]} */
    games: [],
    /** @type {{ gameId: string, position: number, chosenId: string }[]} */
    answers: [],
    /** @type {{ userId: string, location: string | null }[]} */
    attempts: [],
    /** @type {Map<string, string>} user → its last acknowledged name */
    names: new Map(),
    /** @type {boolean | null} */
    flag: null,
  };
  /** @type {Map<string, string[]>} user → names sent after the last acknowledged one (may or may not have landed) */
  const attemptedNames = new Map();
  /** @type {boolean[]} */
  const attemptedFlags = [];
  /**
   * @template T
   * @param {T[]} list
   */
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const think = () => new Promise((r) => setTimeout(r, 150 + Math.random() * 500));
  const redirected = (/** @type {{ status: number }} */ r) => r.status === 302 || r.status === 303;

  const recording = toneWav();

  /**
   * The chat page's island greets a new conversation; a learner with it open in two tabs greets it twice at once.
   * @param {Account} l
   * @param {string} conversationId
   */
  async function greet(l, conversationId) {
    const tabs = l.index % 4 === 0 ? 2 : 1;
    const answers = await Promise.all(
      Array.from({ length: tabs }, () =>
        hit("POST chat greeting (SSE)", `/resources/chat/${conversationId}/greet`, {
          cookie: l.cookie,
          method: "POST",
          headers: { Accept: "text/event-stream" },
        }),
      ),
    );
    const done = answers.filter((r) => r.status === 200 && r.text.includes("event: done"));
    if (done.length) acked.greetings.push({ conversationId, tabs, done: done.length });
    if (tabs === 2) for (const r of answers) if (r.status === 409) r.sample.note = "second-tab";
  }

  let seq = 0;
  /** @type {Record<string, (l: Account) => Promise<void>>} */
  const actions = {
    async courses(l) {
      await hit("GET /courses", "/courses", { cookie: l.cookie });
    },
    async module(l) {
      await hit("GET module", `/courses/modules/${pick(moduleIds)}`, { cookie: l.cookie });
    },
    async lesson(l) {
      await hit("GET lesson", `/courses/lessons/${pick(lessonIds)}`, { cookie: l.cookie });
    },
    async comment(l) {
      const lessonId = pick(lessonIds);
      const content = `Comentário de carga ${l.index}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
      const r = await hit("POST comment", `/courses/lessons/${lessonId}`, {
        cookie: l.cookie,
        method: "POST",
        form: { intent: "comment", content },
      });
      if (redirected(r)) acked.comments.push({ userId: l.id, lessonId, content });
    },
    async complete(l) {
      const lessonId = pick(lessonIds);
      const r = await hit("POST complete", `/courses/lessons/${lessonId}`, { cookie: l.cookie, method: "POST", form: { intent: "complete" } });
      if (redirected(r)) acked.completions.push({ userId: l.id, lessonId });
    },
    async chat(l) {
      if (!l.conversationId) {
        const opened = await hit("GET chat (open)", "/chat-with-nika/english", { cookie: l.cookie });
        const match = /[?&]c=([0-9a-f-]{36})/.exec(opened.location ?? "");
        if (!match) return;
        l.conversationId = match[1];
        await greet(l, match[1]);
      }
      const text = `I like load tests ${l.index}-${++seq}`;
      const r = await hit("POST chat message (SSE)", `/resources/chat/${l.conversationId}/messages`, {
        cookie: l.cookie,
        method: "POST",
        form: { text },
        headers: { Accept: "text/event-stream" },
      });
      if (r.status === 200 && r.text.includes("event: done")) acked.chat.push({ userId: l.id, conversationId: l.conversationId, text });
      else if (r.ok && r.status < 500 && !r.text.includes("event: error")) r.sample.note = "sse-without-done";
    },
    async flashcards(l) {
      const started = await hit("POST flashcards start", "/flashcard-v2?index", {
        cookie: l.cookie,
        method: "POST",
        form: { intent: "start", category: pick(categories) },
      });
      const match = /\/flashcard-v2\/([0-9a-f-]{36})/.exec(started.location ?? "");
      if (!redirected(started) || !match) return;
      const gameId = match[1];
      acked.games.push({ userId: l.id, gameId });
      for (let q = 1; q <= 3; q++) {
        await think();
        const page = await hit("GET flashcards question", `/flashcard-v2/${gameId}?q=${q}`, { cookie: l.cookie });
        const position = /name="position"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="position"/.exec(page.text);
        const options = [...page.text.matchAll(/name="optionId"[^>]*value="([0-9a-f-]{36})"|value="([0-9a-f-]{36})"[^>]*name="optionId"/g)].map(
          (m) => m[1] ?? m[2],
        );
        if (!position || !options.length) return;
        const chosenId = pick(options);
        const pos = Number(position[1] ?? position[2]);
        const answered = await hit("POST flashcards answer", `/flashcard-v2/${gameId}`, {
          cookie: l.cookie,
          method: "POST",
          form: { intent: "answer", position: String(pos), optionId: chosenId },
        });
        if (redirected(answered)) acked.answers.push({ gameId, position: pos, chosenId });
        else return;
      }
    },
    async pronunciation(l) {
      const form = new FormData();
      form.set("intent", "attempt");
      form.set("audio", new Blob([recording], { type: "audio/wav" }), "gravacao.wav");
      const r = await hit("POST pronunciation attempt", "/pronunciation-game/1", { cookie: l.cookie, method: "POST", body: form });
      if (redirected(r)) acked.attempts.push({ userId: l.id, location: r.location });
    },
    async profile(l) {
      const name = `Aluno Carga ${l.index} v${++seq}`;
      const r = await hit("POST profile name", "/config?index", { cookie: l.cookie, method: "POST", form: { intent: "name", name } });
      if (redirected(r)) {
        acked.names.set(l.id, name);
        attemptedNames.set(l.id, []);
      } else attemptedNames.set(l.id, [...(attemptedNames.get(l.id) ?? []), name]);
    },
  };
  /** @type {[action: string, weight: number][]} */
  const MIX = [
    ["courses", 14],
    ["module", 10],
    ["lesson", 16],
    ["comment", 10],
    ["complete", 6],
    ["chat", 12],
    ["flashcards", 10],
    ["pronunciation", 8],
    ["profile", 5],
  ];
  const weightTotal = MIX.reduce((sum, [, w]) => sum + w, 0);
  // --smoke: the actions in turn, so that a short run takes each at least once.
  let taken = 0;
  const pickAction = () => {
    if (opts.smoke) return MIX[taken++ % MIX.length][0];
    let roll = Math.random() * weightTotal;
    for (const [name, weight] of MIX) if ((roll -= weight) < 0) return name;
    return MIX[0][0];
  };

  const endAt = SECONDS * 1000;
  /** @param {Account} l */
  async function learnerLoop(l) {
    await new Promise((r) => setTimeout(r, Math.random() * (opts.smoke ? 200 : 1000))); // staggered arrival
    while (now() < endAt || (opts.smoke && taken < MIX.length)) {
      await actions[pickAction()](l);
      await think();
    }
  }
  async function adminLoop() {
    let value = false;
    while (now() < endAt) {
      await new Promise((r) => setTimeout(r, opts.smoke ? 1000 : 4000 + Math.random() * 2000));
      if (now() >= endAt) break;
      value = !value;
      const r = await hit("POST admin flag", "/admin?index", {
        cookie: admin.cookie,
        method: "POST",
        form: { key: ADMIN_FLAG, value: String(value) },
      });
      if (redirected(r) || r.status === 200) {
        acked.flag = value;
        attemptedFlags.length = 0;
      } else attemptedFlags.push(value);
      await hit("GET /admin", "/admin", { cookie: admin.cookie });
    }
  }

  // ——— the fault: stop the database process, wait, start it again ———
  /** @type {{ stoppedAt: number | null, startedAt: number | null }} */
  const fault = { stoppedAt: null, startedAt: null };
  async function faultLoop() {
    await new Promise((r) => setTimeout(r, FAULT_AT_MS));
    log(`fault: stopping the database (${(now() / 1000).toFixed(1)} s)`);
    await stopDatabase();
    const stoppedAt = now();
    fault.stoppedAt = stoppedAt;
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    await startDatabase();
    const startedAt = now();
    fault.startedAt = startedAt;
    log(`fault: database started again (${(startedAt / 1000).toFixed(1)} s, down ${((startedAt - stoppedAt) / 1000).toFixed(1)} s)`);
  }

  log(`running ${SECONDS} s${opts.fault ? `, database stopped at ${FAULT_AT_MS / 1000} s for ${OUTAGE_MS / 1000} s` : ""}…`);
  await Promise.all([...learners.map(learnerLoop), adminLoop(), ...(opts.fault ? [faultLoop()] : [])]);
  const wall = now() / 1000;
  // Let background work (chat replies persisted after the stream) settle before checking.
  await new Promise((r) => setTimeout(r, 3000));

  // ——— figures ———
  /** @type {Map<string, { ms: number[], statuses: Map<string, number> }>} */
  const byAction = new Map();
  for (const s of samples) {
    const entry = byAction.get(s.action) ?? { ms: /** @type {number[]} */ ([]), statuses: new Map() };
    entry.ms.push(s.ms);
    const key = s.error ? s.error.split(":")[0] : String(s.status);
    entry.statuses.set(key, (entry.statuses.get(key) ?? 0) + 1);
    byAction.set(s.action, entry);
  }
  console.log(
    `\n${samples.length} requests in ${wall.toFixed(1)} s (${(samples.length / wall).toFixed(1)} req/s), ${LEARNERS} learners + 1 admin`,
  );
  console.log(`${"action".padEnd(28)} ${"n".padStart(5)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)}  statuses`);
  for (const [action, { ms, statuses }] of [...byAction].sort()) {
    const counts = [...statuses].map(([k, v]) => `${k}×${v}`).join(" ");
    console.log(
      `${action.padEnd(28)} ${String(ms.length).padStart(5)} ${percentile(ms, 0.5).toFixed(0).padStart(8)} ${percentile(ms, 0.95).toFixed(0).padStart(8)}  ${counts}`,
    );
  }
  const timeouts = samples.filter((s) => s.error === "timeout");
  const network = samples.filter((s) => s.error && s.error !== "timeout");
  const inOutage = (/** @type {Sample} */ s) =>
    fault.stoppedAt !== null && s.at + s.ms >= fault.stoppedAt - 1000 && s.at <= (fault.startedAt ?? Infinity) + 15_000;
  const unavailable = samples.filter((s) => s.status === 503);
  const expected503 = opts.fault ? unavailable.filter((s) => s.retryAfter && inOutage(s)) : [];
  // wrangler dev's ProxyWorker, a hop that exists only in local development, answers this when its kept-alive
  // connection to the worker is reset ("Network connection lost", kj's "Connection reset by peer"): it retries a GET or
  // HEAD itself, never another method. Not the app's answer: counted apart, and bounded.
  const proxyDropped = samples.filter((s) => s.status === 503 && s.body?.startsWith(PROXY_DROPPED));
  const serverErrors = samples.filter((s) => s.status >= 500 && !expected503.includes(s) && !proxyDropped.includes(s));
  const secondTabs = samples.filter((s) => s.note === "second-tab");
  const refused = samples.filter((s) => s.status >= 400 && s.status < 500 && !secondTabs.includes(s));
  console.log(
    `\n≥500: ${serverErrors.length} · timeouts (> ${TIMEOUT_MS / 1000} s): ${timeouts.length} · network errors: ${network.length} · 4xx: ${refused.length}` +
      ` · 409 to a second tab's greeting (expected): ${secondTabs.length}` +
      (opts.fault ? ` · 503 with Retry-After during the outage (expected): ${expected503.length}` : "") +
      ` · dropped by wrangler dev's proxy (not the app): ${proxyDropped.map((s) => s.action).join(", ") || 0}`,
  );
  if (serverErrors.length) {
    const examples = new Map();
    for (const s of serverErrors) examples.set(`${s.action} ${s.status}`, (examples.get(`${s.action} ${s.status}`) ?? 0) + 1);
    console.log(`  ≥500 by action: ${[...examples].map(([k, v]) => `${k}×${v}`).join(", ")}`);
    for (const s of serverErrors.slice(0, 5)) {
      console.log(`  ${s.action} ${s.status} at ${(s.at / 1000).toFixed(1)} s after ${s.ms.toFixed(0)} ms: ${JSON.stringify(s.body ?? "")}`);
    }
    if (existsSync(workerLog) && !shared) {
      const reasons = readFileSync(workerLog, "utf8")
        .split("\n")
        .filter((line) => /\[503\]|Error|error:/.test(line) && !/sideEffects|ignored-bare-import/.test(line));
      console.log(`  the worker's log (${workerLog}): ${reasons.length ? "" : "no error lines"}`);
      for (const line of reasons.slice(0, 10)) console.log(`    ${line}`);
    }
  }
  if (network.length) console.log(`  network errors: ${[...new Set(network.map((s) => s.error))].join(", ")}`);
  /** @type {Record<string, unknown>} */
  const results = {
    learners: LEARNERS,
    seconds: SECONDS,
    fault: opts.fault,
    requests: samples.length,
    perAction: Object.fromEntries(
      [...byAction].map(([a, { ms, statuses }]) => [
        a,
        { n: ms.length, p50: percentile(ms, 0.5), p95: percentile(ms, 0.95), statuses: Object.fromEntries(statuses) },
      ]),
    ),
    serverErrors: serverErrors.length,
    droppedByWranglerProxy: proxyDropped.length,
    timeouts: timeouts.length,
    networkErrors: network.length,
    refused4xx: refused.length,
    secondTabGreetings409: secondTabs.length,
  };
  let faultRun;
  if (opts.fault) {
    const { stoppedAt, startedAt } = fault;
    if (stoppedAt === null || startedAt === null) throw new Error("the database was not stopped and started again");
    const afterRestart = samples.filter((s) => s.at >= startedAt).sort((a, b) => a.at - b.at);
    const firstOk = afterRestart.find((s) => s.status >= 200 && s.status < 400);
    const during = samples.filter((s) => s.at >= stoppedAt && s.at <= startedAt);
    const late503 = unavailable.filter((s) => !expected503.includes(s) && !proxyDropped.includes(s));
    // The app's own failures: a POST that wrangler dev's proxy dropped (counted apart above) says nothing about recovery.
    const lastFailure = samples
      .filter((s) => (s.status >= 500 || s.error) && !proxyDropped.includes(s) && s.at >= startedAt)
      .reduce((max, s) => Math.max(max, s.at + s.ms), startedAt);
    faultRun = {
      outageSeconds: (startedAt - stoppedAt) / 1000,
      expected503: expected503.length,
      unexpected503: late503.length,
      requestsDuringOutage: during.length,
      maxLatencyDuringOutageMs: Math.max(0, ...during.map((s) => s.ms)),
      firstSuccessAfterRestartMs: firstOk ? firstOk.at + firstOk.ms - startedAt : null,
      lastFailureAfterRestartMs: lastFailure - startedAt,
    };
    results.faultRun = faultRun;
    console.log(
      `fault: database down ${faultRun.outageSeconds.toFixed(1)} s; ${during.length} requests started meanwhile, slowest ${faultRun.maxLatencyDuringOutageMs.toFixed(0)} ms; ` +
        `503+Retry-After ${expected503.length} (outside the window: ${late503.length}); first success ${(faultRun.firstSuccessAfterRestartMs ?? NaN).toFixed(0)} ms after the restart, last failure ${faultRun.lastFailureAfterRestartMs.toFixed(0)} ms after it`,
    );
  }

  // ——— checks in the database ———
  const { pool: checkPool, db: checkDb } = connect(env);
  /** @param {import("drizzle-orm").SQL} query */
  const q = async (query) => (await checkDb.execute(query)).rows;
  /** @type {string[]} */
  const failures = [];
  /**
   * @param {boolean} ok
   * @param {string} label
   * @param {string} [detail]
   */
  const check = (ok, label, detail = "") => {
    console.log(`${ok ? "✔" : "✘"} ${label}${detail ? ` — ${detail}` : ""}`);
    if (!ok) failures.push(label);
  };
  const ids = learners.map((l) => l.id);
  const idList = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

  const commentRows = await q(sql`select user_id, lesson_id, content from lesson_comments where user_id in (${idList})`);
  const commentKeys = new Set(commentRows.map((r) => `${r.user_id}|${r.lesson_id}|${r.content}`));
  const lostComments = acked.comments.filter((c) => !commentKeys.has(`${c.userId}|${c.lessonId}|${c.content}`));
  check(
    lostComments.length === 0,
    `comments: ${acked.comments.length} acknowledged, all present`,
    lostComments.length ? `${lostComments.length} missing` : "",
  );

  const progressRows = await q(sql`select user_id, lesson_id from user_lesson_progress where completed and user_id in (${idList})`);
  const progressKeys = new Set(progressRows.map((r) => `${r.user_id}|${r.lesson_id}`));
  const lostCompletions = acked.completions.filter((c) => !progressKeys.has(`${c.userId}|${c.lessonId}`));
  check(
    lostCompletions.length === 0,
    `completions: ${acked.completions.length} acknowledged, all present`,
    lostCompletions.length ? `${lostCompletions.length} missing` : "",
  );

  // One greeting per conversation: never two Nika messages before the learner's first, even from two tabs at once.
  const greetingRows = await q(sql`
    select c.id::text as conversation_id, count(m.id)::int as greetings from chat_conversations c
    left join chat_messages m on m.conversation_id = c.id and m.role = 'nika'
      and m.created_at < coalesce((select min(u.created_at) from chat_messages u where u.conversation_id = c.id and u.role = 'user'), 'infinity')
    where c.user_id in (${idList}) group by c.id`);
  const greetingsOf = new Map(greetingRows.map((r) => [String(r.conversation_id), Number(r.greetings)]));
  const doubled = greetingRows.filter((r) => Number(r.greetings) > 1);
  const lostGreetings = acked.greetings.filter((g) => greetingsOf.get(g.conversationId) !== 1);
  const twoTabs = acked.greetings.filter((g) => g.tabs === 2);
  check(
    doubled.length === 0 && lostGreetings.length === 0 && acked.greetings.every((g) => g.done === 1),
    `greetings: ${acked.greetings.length} acknowledged (${twoTabs.length} asked by two tabs at once), each present once, none doubled`,
    doubled.length || lostGreetings.length
      ? `${doubled.length} doubled, ${lostGreetings.length} missing, ${acked.greetings.filter((g) => g.done > 1).length} acknowledged twice`
      : "",
  );

  const chatRows = await q(sql`
    select c.user_id, m.conversation_id, m.text, m.status from chat_messages m join chat_conversations c on c.id = m.conversation_id
    where m.role = 'user' and c.user_id in (${idList})`);
  const chatKeys = new Set(chatRows.filter((r) => r.status === "complete").map((r) => `${r.conversation_id}|${r.text}`));
  const lostChat = acked.chat.filter((m) => !chatKeys.has(`${m.conversationId}|${m.text}`));
  check(
    lostChat.length === 0,
    `chat messages: ${acked.chat.length} acknowledged (SSE done), all present`,
    lostChat.length ? `${lostChat.length} missing` : "",
  );

  const gameRows = await q(sql`select id from flashcard_games where user_id in (${idList})`);
  const gameIds = new Set(gameRows.map((r) => String(r.id)));
  const lostGames = acked.games.filter((g) => !gameIds.has(g.gameId));
  check(
    lostGames.length === 0,
    `flashcard games: ${acked.games.length} acknowledged, all present`,
    lostGames.length ? `${lostGames.length} missing` : "",
  );
  const answerRows = await q(sql`select q.game_id, q.position, q.chosen_id from flashcard_questions q join flashcard_games g on g.id = q.game_id
    where q.answered_at is not null and g.user_id in (${idList})`);
  const answerKeys = new Set(answerRows.map((r) => `${r.game_id}|${r.position}|${r.chosen_id}`));
  const lostAnswers = acked.answers.filter((a) => !answerKeys.has(`${a.gameId}|${a.position}|${a.chosenId}`));
  check(
    lostAnswers.length === 0,
    `flashcard answers: ${acked.answers.length} acknowledged, all present`,
    lostAnswers.length ? `${lostAnswers.length} missing` : "",
  );

  const attemptRows = await q(sql`select user_id, id, status from pronunciation_attempts where user_id in (${idList})`);
  /** @type {Map<string, Record<string, unknown>[]>} */
  const attemptsByUser = new Map();
  for (const r of attemptRows) attemptsByUser.set(String(r.user_id), [...(attemptsByUser.get(String(r.user_id)) ?? []), r]);
  /** @type {Map<string, number>} */
  const ackedAttemptsByUser = new Map();
  for (const a of acked.attempts) ackedAttemptsByUser.set(a.userId, (ackedAttemptsByUser.get(a.userId) ?? 0) + 1);
  const shortAttempts = [...ackedAttemptsByUser].filter(
    ([u, n]) => (attemptsByUser.get(u) ?? []).filter((r) => r.status === "scored").length < n,
  );
  check(
    shortAttempts.length === 0,
    `pronunciation attempts: ${acked.attempts.length} acknowledged, all present and scored`,
    shortAttempts.length ? `${shortAttempts.length} learners short` : "",
  );

  const nameRows = await q(sql`select id, name from users where id in (${idList})`);
  const names = new Map(nameRows.map((r) => [String(r.id), String(r.name)]));
  const wrongNames = [...acked.names].filter(
    ([u, name]) => names.get(u) !== name && !(attemptedNames.get(u) ?? []).includes(String(names.get(u))),
  );
  check(
    wrongNames.length === 0,
    `profile names: ${acked.names.size} learners' last acknowledged name present`,
    wrongNames.length ? `${wrongNames.length} differ` : "",
  );

  if (acked.flag !== null) {
    const [flag] = await q(sql`select config_value from app_config where config_key = ${ADMIN_FLAG}`);
    const value = /** @type {boolean | undefined} */ (flag?.config_value);
    check(
      value === acked.flag || (value !== undefined && attemptedFlags.includes(value)),
      `admin flag ${ADMIN_FLAG}: last acknowledged value (${acked.flag}) present`,
      `stored ${value}`,
    );
  }

  // What the 5-minute cron sweep does once the run's last request is that old: a spend whose message or attempt a
  // dying request never stored (the --fault window) is refunded — the app's own function, at that later time.
  const swept = await refundAbandonedSpends(checkDb, new Date(Date.now() + ABANDONED_AFTER_MS + 60_000), ABANDONED_SPENDS);
  results.sweep = swept;
  console.log(`sweep (as the cron, 5 minutes later): ${swept.chatMessages} chat credits and ${swept.attempts} pronunciation attempts refunded`);
  // An attempt a dying request left 'scoring' (its credit spent, its score never written) is the sweep's to settle:
  // counted after it.
  const [{ stuck }] = await q(
    sql`select count(*)::int as stuck from pronunciation_attempts where user_id in (${idList}) and status = 'scoring'`,
  );

  // Credits: balance = ledger sum, never negative; every net credit matches what it paid for.
  const credit = await q(sql`
    select u.id, u.monthly_credits as balance,
      coalesce((select sum(delta) from credit_ledger l where l.user_id = u.id), 0)::int as ledger,
      coalesce((select min(balance_after) from credit_ledger l where l.user_id = u.id), 0)::int as lowest,
      (select count(*) from credit_ledger l where l.user_id = u.id and reason = 'chat_message')::int as chat_debits,
      (select count(*) from credit_ledger l where l.user_id = u.id and (reason in ('refund:provider_failed', 'refund:not_understood', 'refund:server_error')
        or (reason = 'refund:abandoned' and exists (select 1 from credit_ledger s where s.ref = l.ref and s.reason = 'chat_message'))))::int as chat_refunds,
      (select count(*) from chat_messages m join chat_conversations c on c.id = m.conversation_id
        where c.user_id = u.id and m.role = 'user' and m.status <> 'failed')::int as chat_kept,
      (select count(*) from credit_ledger l where l.user_id = u.id and reason = 'flashcards')::int as game_debits,
      (select count(*) from flashcard_games g where g.user_id = u.id)::int as games,
      (select count(*) from credit_ledger l where l.user_id = u.id and reason = 'pronunciation')::int as attempt_debits,
      (select count(*) from credit_ledger l where l.user_id = u.id and (reason = 'refund:pronunciation'
        or (reason = 'refund:abandoned' and exists (select 1 from pronunciation_attempts a where a.id = l.ref))))::int as attempt_refunds,
      (select count(*) from pronunciation_attempts a where a.user_id = u.id)::int as attempts,
      (select count(*) from pronunciation_attempts a where a.user_id = u.id and a.status = 'failed')::int as attempts_failed
    from users u where u.id in (${idList})`);
  const unbalanced = credit.filter((r) => Number(r.balance) !== Number(r.ledger));
  const negative = credit.filter((r) => Number(r.balance) < 0 || Number(r.lowest) < 0);
  check(
    unbalanced.length === 0,
    `credits: every learner's balance equals its ledger sum (${credit.length} learners)`,
    unbalanced.length ? `${unbalanced.length} differ` : "",
  );
  check(negative.length === 0, "credits: no balance ever negative");
  const chatMismatch = credit.filter((r) => Number(r.chat_debits) - Number(r.chat_refunds) !== Number(r.chat_kept));
  check(
    chatMismatch.length === 0,
    "chat: credits kept = learner messages kept (no credit without its message, nor the reverse)",
    chatMismatch.length ? `${chatMismatch.length} learners, e.g. ${JSON.stringify(chatMismatch[0])}` : "",
  );
  const gameMismatch = credit.filter((r) => r.game_debits !== r.games);
  check(gameMismatch.length === 0, "flashcards: one credit per game", gameMismatch.length ? `${gameMismatch.length} learners` : "");
  const attemptMismatch = credit.filter((r) => r.attempt_debits !== r.attempts || r.attempt_refunds !== r.attempts_failed);
  check(
    attemptMismatch.length === 0 && stuck === 0,
    "pronunciation: one credit per attempt, one refund per failed attempt, none left 'scoring'",
    attemptMismatch.length || stuck ? `${attemptMismatch.length} learners differ, ${stuck} stuck` : "",
  );
  await checkPool.end();

  check(
    serverErrors.length === 0,
    `0 responses ≥ 500${opts.fault ? " outside the expected 503s" : ""}`,
    serverErrors.length ? String(serverErrors.length) : "",
  );
  check(
    proxyDropped.length <= samples.length / 1000,
    "wrangler dev's proxy dropped at most 0.1 % of the requests",
    proxyDropped.length ? `${proxyDropped.length} of ${samples.length}` : "",
  );
  check(timeouts.length === 0, `0 timeouts (> ${TIMEOUT_MS / 1000} s)`, timeouts.length ? String(timeouts.length) : "");
  check(network.length === 0, "0 network errors");
  if (faultRun) {
    check(faultRun.unexpected503 === 0, "every 503 fell within the outage (+15 s) and carried Retry-After");
    check(faultRun.firstSuccessAfterRestartMs !== null, "the app recovered without a restart");
  }
  const acknowledged = {
    comments: acked.comments.length,
    completions: acked.completions.length,
    greetings: acked.greetings.length,
    chat: acked.chat.length,
    games: acked.games.length,
    answers: acked.answers.length,
    attempts: acked.attempts.length,
    names: acked.names.size,
  };
  Object.assign(results, { acknowledged, failures });
  console.log(
    `\nacknowledged writes: ${Object.entries(acknowledged)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  console.log(`outcome: ${failures.length ? `FAILED (${failures.join("; ")})` : "all checks passed"}`);
  console.log("(loopback, wrangler dev + embedded Postgres over TCP, fake AI provider/scorer; figures from a shared 2-core machine)");
  writeResults(`load${opts.fault ? "-fault" : ""}`, results, opts.smoke);
  exitCode = failures.length ? 1 : 0;
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  stopAll();
}
process.exit(exitCode);
