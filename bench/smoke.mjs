#!/usr/bin/env node
// @ts-check
// The benches' smoke run, a step of `npm test` after the production build: every bench once with --smoke (tiny
// counts, targets reported but never enforced, figures kept out of bench/results), one after the other, against one
// app started here for all of them. A bench that no longer runs against the app as it is fails the suite instead of
// breaking silently. Serves the existing ./build; prints each bench's time and the total.
//   node bench/smoke.mjs [--only wav,courses] [--timeout 120]
// Its own ports (app 8783, database 25383, fake upstream 4013, DevTools 9233); exits 1 when a bench exits non-zero
// or runs past --timeout seconds.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { SHARED_APP_ENV, startApp } from "./lib.mjs";

/** Every bench, cheapest first; load last, as it toggles a flag and adds learners to the shared database. */
const BENCHES = [
  "wav",
  "foundation",
  "courses",
  "flashcards",
  "offline",
  "pronunciation",
  "stripe-webhook",
  "chat-ttft",
  "live",
  "throughput",
  "profile",
  "lighthouse",
  "load",
];

const { values: opts } = parseArgs({
  options: {
    only: { type: "string" },
    timeout: { type: "string", default: "120" },
  },
});
const TIMEOUT_MS = Math.max(10, Number(opts.timeout)) * 1000;
const chosen = opts.only ? opts.only.split(",") : BENCHES;
const unknown = chosen.filter((name) => !BENCHES.includes(name));
if (unknown.length) throw new Error(`no such bench: ${unknown.join(", ")} (benches: ${BENCHES.join(", ")})`);
if (!existsSync("build/server/index.js")) throw new Error("./build is missing: run `npx react-router build` first (the smoke run never builds)");

const started = performance.now();
const seconds = (/** @type {number} */ since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const say = (/** @type {string} */ message) => console.log(`\x1b[36m[smoke]\x1b[0m ${message}`);

/** @type {import("node:child_process").ChildProcess | undefined} */
let running;
/** Ends the running bench's whole process group (its browsers and workers too). */
function stopRunning() {
  if (running?.pid === undefined || running.exitCode !== null || running.signalCode !== null) return;
  try {
    process.kill(-running.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

say("starting the app the benches share…");
const app = await startApp({ name: "smoke", port: "8783", pgPort: "25383", upstreamPort: "4013", inspectorPort: "9233" });
say(`app ready (${seconds(started)})`);
const interrupted = (/** @type {number} */ code) => () => (stopRunning(), void app.stop().then(() => process.exit(code)));
process.on("SIGINT", interrupted(130));
process.on("SIGTERM", interrupted(143));
const env = {
  ...process.env,
  [SHARED_APP_ENV]: JSON.stringify({ base: app.base, vars: app.vars, upstream: app.upstream, inspectorPort: app.inspectorPort }),
};

/** @type {{ name: string, code: number | string, time: string }[]} */
const outcomes = [];
try {
  for (const name of chosen) {
    const benchStarted = performance.now();
    say(`${name}…`);
    const child = spawn("node", [`bench/${name}.mjs`, "--smoke"], { stdio: "inherit", env, detached: true });
    running = child;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stopRunning();
    }, TIMEOUT_MS);
    /** @type {number | string} */
    const code = await new Promise((resolve) => child.once("exit", (status, signal) => resolve(status ?? signal ?? "?")));
    clearTimeout(timer);
    outcomes.push({ name, code: timedOut ? `timed out after ${TIMEOUT_MS / 1000} s` : code, time: seconds(benchStarted) });
    say(`${name}: ${code === 0 && !timedOut ? "ok" : `FAILED (${outcomes.at(-1)?.code})`} in ${seconds(benchStarted)}`);
  }
} finally {
  await app.stop();
}

const failed = outcomes.filter((o) => o.code !== 0);
say(outcomes.map((o) => `${o.name} ${o.time}${o.code === 0 ? "" : " ✘"}`).join(" · "));
say(
  `${outcomes.length} benches in ${seconds(started)}: ${failed.length ? `${failed.length} failed (${failed.map((o) => o.name).join(", ")})` : "all ran"}`,
);
process.exit(failed.length ? 1 : 0);
