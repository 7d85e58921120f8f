#!/usr/bin/env node
// @ts-check
// Foundation figures: worker size (gzip, from `wrangler deploy --dry-run`), the JavaScript a first
// visit to `/` downloads (gzip), and the time from `npm start` to a ready server on a warm install.
//   node bench/foundation.mjs [--smoke]      (needs Debian's chromium for the page-JS figure)
// --smoke (bench/smoke.mjs): the worker size and the page JS only, on the app the smoke run shares; no start-up time.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { kb, launchChromium, LEARNER, startApp, stopChild, totalGzipSize, untilReady, writeBenchVars, writeResults } from "./lib.mjs";

const { values: opts } = parseArgs({ options: { smoke: { type: "boolean", default: false } } });

/** @type {Record<string, unknown>} */
const results = {};

// 1. Worker bundle
const outdir = ".cache/bench-dry-run";
rmSync(outdir, { recursive: true, force: true });
const dry = spawnSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir], {
  encoding: "utf8",
  env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
});
if (dry.status !== 0) throw new Error(dry.stderr || dry.stdout);
const files = readdirSync(outdir, { recursive: true })
  .map(String)
  .filter((f) => /\.(m?js|wasm)$/.test(f));
const raw = files.reduce((sum, f) => sum + statSync(join(outdir, f)).size, 0);
const gz = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(outdir, f))).length, 0);
results.worker = { files: files.length, minified: raw, gzip: gz };
console.log(
  `worker bundle: ${kb(raw)} raw, ${kb(gz)} gzip (${files.length} file(s)); wrangler says: ${(dry.stdout.match(/Total Upload: .*/) ?? [""])[0]}`,
);

// 2. npm start → ready, warm install (build included, data kept between runs)
/** @type {{ base: string, stop: () => Promise<void> }} */
let app;
if (opts.smoke) {
  app = await startApp({ name: "foundation", port: "8791", pgPort: "25340" });
} else {
  const port = "8791";
  const vars = ".cache/bench.vars";
  writeBenchVars(vars, { port, pgPort: "25340" });
  const timeStart = async () => {
    const started = Date.now();
    const child = spawn("node", ["scripts/start.mjs", "--env-file", vars, "--port", port, "--data", ".cache/bench-data", "--quiet-wrangler"], {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    await untilReady(child);
    return { seconds: (Date.now() - started) / 1000, child };
  };
  const first = await timeStart();
  await stopChild(first.child);
  // workerd may hold the port a moment longer than start.mjs lives
  for (let i = 0; i < 50; i++) {
    const open = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (!open) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const warm = await timeStart();
  results.startSeconds = { firstWithBuild: first.seconds, warmWithBuild: warm.seconds };
  console.log(
    `npm start → ready: ${first.seconds.toFixed(1)} s on a new database, ${warm.seconds.toFixed(1)} s on a restart (build included both times)`,
  );
  app = { base: `http://localhost:${port}`, stop: () => stopChild(warm.child) };
}

// 3. JavaScript downloaded by a first visit to / (signed in through the form, empty cache)
try {
  const browser = await launchChromium();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${app.base}/signin`);
  await page.getByLabel("Email").fill(LEARNER.email);
  await page.getByLabel("Senha").fill(LEARNER.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.waitForURL(`${app.base}/`);
  const fresh = await browser.newContext({ storageState: await context.storageState() });
  const visit = await fresh.newPage();
  /** @type {Set<string>} */
  const scripts = new Set();
  /** @type {Set<string>} */
  const styles = new Set();
  visit.on("response", (r) => {
    const type = r.request().resourceType();
    if (type === "script") scripts.add(r.url());
    if (type === "stylesheet") styles.add(r.url());
  });
  await visit.goto(`${app.base}/`, { waitUntil: opts.smoke ? "load" : "networkidle" });
  const homeJs = { files: scripts.size, gzip: await totalGzipSize(scripts) };
  const homeCss = { files: styles.size, gzip: await totalGzipSize(styles) };
  Object.assign(results, { homeJs, homeCss });
  console.log(`first visit to / downloads ${scripts.size} JS files = ${kb(homeJs.gzip)} gzip; CSS ${kb(homeCss.gzip)} gzip`);
  await browser.close();
} finally {
  await app.stop();
}
writeResults("foundation", results, opts.smoke);
process.exit(0);
