#!/usr/bin/env node
// @ts-check
// Where a page's time goes inside the worker (issue 13): serves the production build under `wrangler dev` with
// readable (unminified) code and workerd's DevTools port, loads one page with --connections keep-alive
// connections for --seconds while V8's sampling CPU profiler records, and prints the functions with the most
// self time and the most total time, plus the time under a few landmarks (loaders, React's render, the
// database driver), and the self time per package (from the bundle's source map). The raw profile is written to bench/results/ (open it in Chrome DevTools → Performance).
//   node bench/profile.mjs --path /labs [--seconds 6] [--connections 8] [--top 30] [--anonymous] [--smoke]
// --path module / --path lesson: the catalogue's first module / its first lesson. --smoke (bench/smoke.mjs): half a
// second, on the app the smoke run shares (minified: its functions' names are the bundle's).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { SourceMapConsumer } from "source-map-js";
import WebSocket from "ws";
import { firstModuleAndLesson, requestLoop, signInAsLearner, startApp } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    path: { type: "string", default: "/labs" },
    seconds: { type: "string", default: "6" },
    connections: { type: "string", default: "8" },
    top: { type: "string", default: "30" },
    anonymous: { type: "boolean", default: false },
    smoke: { type: "boolean", default: false },
  },
});
const SECONDS = opts.smoke ? 0.5 : Math.max(2, Math.min(60, Number(opts.seconds)));
const CONNECTIONS = opts.smoke ? 2 : Math.max(1, Math.min(64, Number(opts.connections)));
const WARMUP = opts.smoke ? 2 : 20;

const app = await startApp({ name: "profile", port: "8791", pgPort: "25391", inspectorPort: "9239", startArgs: ["--no-minify"] });
const { base } = app;
if (!app.inspectorPort) throw new Error("the app has no DevTools port");
const inspector = `http://127.0.0.1:${app.inspectorPort}`;

/** @typedef {{ functionName: string, url: string, lineNumber: number, columnNumber: number }} CallFrame */
/** @typedef {{ id: number, callFrame: CallFrame, children?: number[] }} ProfileNode */
/** @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }} Profile V8's CPU profile (Profiler.stop) */

/** One DevTools Protocol session over the inspector's WebSocket. */
async function devtools() {
  /** @type {{ webSocketDebuggerUrl?: string }[]} */
  const targets = await (await fetch(`${inspector}/json`)).json();
  const url = (targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0])?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no DevTools target at ${inspector}`);
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => (socket.once("open", resolve), socket.once("error", reject)));
  let nextId = 1;
  /** @type {Map<number, (message: { error?: { message: string }, result?: any }) => void>} */
  const pending = new Map();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data));
    const settle = pending.get(message.id);
    if (settle) {
      settle(message);
      pending.delete(message.id);
    }
  });
  return {
    /**
     * @param {string} method
     * @param {object} [params]
     * @returns {Promise<any>}
     */
    send(method, params = {}) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) =>
        pending.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result))),
      );
    },
    close: () => socket.close(),
  };
}

/** The source map of the bundle wrangler dev is serving (its newest dev bundle), for self time per package. */
function servedBundleMap() {
  const bundles = readdirSync(".wrangler/tmp")
    .filter((dir) => dir.startsWith("dev-") && existsSync(`.wrangler/tmp/${dir}/server.js.map`))
    .map((dir) => `.wrangler/tmp/${dir}/server.js.map`)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return bundles.length ? new SourceMapConsumer(JSON.parse(readFileSync(bundles[0], "utf8"))) : undefined;
}

/**
 * Where a source file of the bundle comes from: an npm package, the app, or the worker's entry.
 * @param {string} source
 */
function packageOf(source) {
  const inModules = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inModules) return inModules[1];
  const inApp = source.match(/(?:^|\/)app\/([^/]+)/);
  if (inApp) return `app/${inApp[1]}`;
  return source.replace(/^(\.\.\/)+/, "");
}

/**
 * Self time (ms) per package: each sample's leaf frame in server.js, through the source map; the rest by url.
 * @param {Profile} profile
 * @param {SourceMapConsumer | undefined} map
 */
function selfByPackage(profile, map) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  /** @type {Map<string, number>} */
  const byPackage = new Map();
  /** @type {Map<number, string>} */
  const place = new Map();
  profile.samples.forEach((id, i) => {
    const { callFrame } = /** @type {ProfileNode} */ (nodes.get(id));
    let key = place.get(id);
    if (!key) {
      if (callFrame.url === "server.js" && map) {
        const { source } = map.originalPositionFor({ line: callFrame.lineNumber + 1, column: callFrame.columnNumber });
        key = source ? packageOf(source) : "server.js (unmapped)";
      } else key = callFrame.url || callFrame.functionName || "(native)";
      place.set(id, key);
    }
    byPackage.set(key, (byPackage.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  return byPackage;
}

/**
 * Self and total (inclusive, each function counted once per stack) time per function, in ms.
 * @param {Profile} profile
 */
function summarize(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  /** @type {Map<number, number>} */
  const hits = new Map();
  profile.samples.forEach((id, i) => hits.set(id, (hits.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));
  const frameOf = (/** @type {number} */ id) => /** @type {ProfileNode} */ (nodes.get(id)).callFrame;
  const label = (/** @type {CallFrame} */ frame) =>
    `${frame.functionName || "(anonymous)"} ${frame.url ? `${frame.url.split("/").pop()}:${frame.lineNumber + 1}` : ""}`.trim();
  /** @type {Map<string, number>} */
  const self = new Map();
  /** @type {Map<string, number>} */
  const total = new Map();
  let all = 0;
  for (const [id, ms] of hits) {
    all += ms;
    const leaf = label(frameOf(id));
    self.set(leaf, (self.get(leaf) ?? 0) + ms);
    const seen = new Set();
    for (let /** @type {number | undefined} */ at = id; at !== undefined; at = parent.get(at)) {
      const name = label(frameOf(at));
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + ms);
    }
  }
  return { self, total, all };
}

let failed = false;
try {
  const cookie = opts.anonymous ? undefined : await signInAsLearner(base);
  const courses = opts.path === "module" || opts.path === "lesson" ? await firstModuleAndLesson(app.vars) : undefined;
  const path = courses ? (opts.path === "module" ? `/courses/modules/${courses.moduleId}` : `/courses/lessons/${courses.lessonId}`) : opts.path;
  const url = base + path;
  for (let i = 0; i < WARMUP; i++) await (await fetch(url, { headers: cookie ? { Cookie: cookie } : {} })).arrayBuffer();

  const session = await devtools();
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 100 });
  await session.send("Profiler.start");
  const { latencies, statuses } = await requestLoop(url, { cookie, seconds: SECONDS, connections: CONNECTIONS });
  const requests = latencies.length;
  /** @type {{ profile: Profile }} */
  const { profile } = await session.send("Profiler.stop");
  session.close();
  const bundleMap = servedBundleMap();
  if ([...statuses.keys()].some((status) => status >= 500)) failed = true;

  const dir = opts.smoke ? ".cache/bench-smoke" : "bench/results";
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/profile-${opts.path.replace(/\W+/g, "_") || "root"}.cpuprofile`;
  writeFileSync(file, JSON.stringify(profile));
  const { self, total, all } = summarize(profile);
  const idle = self.get("(idle)") ?? 0;
  const busy = all - idle;
  const perRequest = (/** @type {number} */ ms) => `${((ms / requests) * 1000).toFixed(0)} µs/req`.padStart(14);
  const top = Number(opts.top);
  console.log(
    `${path}: ${requests} requests in ${SECONDS} s (${(requests / SECONDS).toFixed(1)} req/s, statuses ${[...statuses].map(([s, n]) => `${s}×${n}`).join(" ")}); ` +
      `worker busy ${busy.toFixed(0)} ms of ${all.toFixed(0)} ms sampled = ${perRequest(busy).trim()}`,
  );
  console.log(`\nself time (top ${top})`);
  for (const [name, ms] of [...self]
    .filter(([n]) => n !== "(idle)")
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`${perRequest(ms)}  ${((ms / busy) * 100).toFixed(1).padStart(5)} %  ${name}`);
  console.log(`\ntotal time (top ${top})`);
  for (const [name, ms] of [...total]
    .filter(([n]) => !/^\((root|idle|program)\)/.test(n))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`${perRequest(ms)}  ${((ms / busy) * 100).toFixed(1).padStart(5)} %  ${name}`);
  console.log(`\nself time per package (${bundleMap ? "through the bundle's source map" : "no source map found"})`);
  for (const [name, ms] of [...selfByPackage(profile, bundleMap)]
    .filter(([n]) => n !== "(idle)")
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`${perRequest(ms)}  ${((ms / busy) * 100).toFixed(1).padStart(5)} %  ${name}`);
  console.log(`\nprofile written to ${file}`);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await app.stop();
}
process.exit(failed ? 1 : 0);
