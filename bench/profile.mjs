#!/usr/bin/env node
// Where a page's time goes inside the worker (issue 13): serves the production build under `wrangler dev` with
// readable (unminified) code and workerd's DevTools port, loads one page with --connections keep-alive
// connections for --seconds while V8's sampling CPU profiler records, and prints the functions with the most
// self time and the most total time, plus the time under a few landmarks (loaders, React's render, the
// database driver), and the self time per package (from the bundle's source map). The raw profile is written to bench/results/ (open it in Chrome DevTools → Performance).
//   node bench/profile.mjs --path /labs [--seconds 6] [--connections 8] [--top 30]
// --path module / --path lesson: the catalogue's first module / its first lesson.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { SourceMapConsumer } from "source-map-js";
import WebSocket from "ws";
import { firstModuleAndLesson, requestLoop, requireFreePorts, signInAsLearner, untilReady, writeBenchVars } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    path: { type: "string", default: "/labs" },
    seconds: { type: "string", default: "6" },
    connections: { type: "string", default: "8" },
    top: { type: "string", default: "30" },
    anonymous: { type: "boolean", default: false },
  },
});
const SECONDS = Math.max(2, Math.min(60, Number(opts.seconds)));
const CONNECTIONS = Math.max(1, Math.min(64, Number(opts.connections)));
const port = "8791";
const inspectorPort = "9239";
const pgPort = "25391";
const base = `http://127.0.0.1:${port}`;
const vars = ".cache/bench-profile.vars";

await requireFreePorts([port, inspectorPort, pgPort]);
writeBenchVars(vars, { port, pgPort });
const app = spawn(
  "node",
  [
    "scripts/start.mjs",
    ...["--env-file", vars, "--port", port, "--data", ".cache/bench-profile", "--fresh", "--quiet-wrangler"],
    ...["--no-build", "--no-minify", "--inspector-port", inspectorPort],
  ],
  { stdio: ["ignore", "ignore", "inherit", "ipc"] },
);
process.on("SIGINT", () => (app.kill("SIGTERM"), process.exit(130)));

/** One DevTools Protocol session over the inspector's WebSocket. */
async function devtools() {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0];
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => (socket.once("open", resolve), socket.once("error", reject)));
  let nextId = 1;
  const pending = new Map();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data));
    if (message.id && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  });
  return {
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

/** Where a source file of the bundle comes from: an npm package, the app, or the worker's entry. */
function packageOf(source) {
  const inModules = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inModules) return inModules[1];
  if (/(^|\/)app\//.test(source))
    return `app/${
      source
        .split(/(?:^|\/)app\//)
        .pop()
        .split("/")[0]
    }`;
  return source.replace(/^(\.\.\/)+/, "");
}

/** Self time (ms) per package: each sample's leaf frame in server.js, through the source map; the rest by url. */
function selfByPackage(profile, map) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPackage = new Map();
  const place = new Map();
  profile.samples.forEach((id, i) => {
    const { callFrame } = nodes.get(id);
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

/** Self and total (inclusive, each function counted once per stack) time per function, in ms. */
function summarize(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const hits = new Map();
  profile.samples.forEach((id, i) => hits.set(id, (hits.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));
  const label = (frame) =>
    `${frame.functionName || "(anonymous)"} ${frame.url ? `${frame.url.split("/").pop()}:${frame.lineNumber + 1}` : ""}`.trim();
  const self = new Map();
  const total = new Map();
  let all = 0;
  for (const [id, ms] of hits) {
    all += ms;
    const leaf = label(nodes.get(id).callFrame);
    self.set(leaf, (self.get(leaf) ?? 0) + ms);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const name = label(nodes.get(at).callFrame);
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + ms);
    }
  }
  return { self, total, all };
}

try {
  await untilReady(app);
  const cookie = opts.anonymous ? undefined : await signInAsLearner(base);
  const courses = opts.path === "module" || opts.path === "lesson" ? await firstModuleAndLesson(vars) : undefined;
  const path = courses ? (opts.path === "module" ? `/courses/modules/${courses.moduleId}` : `/courses/lessons/${courses.lessonId}`) : opts.path;
  const url = base + path;
  for (let i = 0; i < 20; i++) await (await fetch(url, { headers: cookie ? { Cookie: cookie } : {} })).arrayBuffer();

  const session = await devtools();
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 100 });
  await session.send("Profiler.start");
  const { latencies, statuses } = await requestLoop(url, { cookie, seconds: SECONDS, connections: CONNECTIONS });
  const requests = latencies.length;
  const { profile } = await session.send("Profiler.stop");
  session.close();
  const bundleMap = servedBundleMap();

  mkdirSync("bench/results", { recursive: true });
  const file = `bench/results/profile-${opts.path.replace(/\W+/g, "_") || "root"}.cpuprofile`;
  writeFileSync(file, JSON.stringify(profile));
  const { self, total, all } = summarize(profile);
  const idle = self.get("(idle)") ?? 0;
  const busy = all - idle;
  const perRequest = (ms) => `${((ms / requests) * 1000).toFixed(0)} µs/req`.padStart(14);
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
} finally {
  app.kill("SIGTERM");
}
