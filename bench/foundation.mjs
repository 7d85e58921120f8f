#!/usr/bin/env node
// Foundation figures: worker size (gzip, from `wrangler deploy --dry-run`), the JavaScript a first
// visit to `/` downloads (gzip), and the time from `npm start` to a ready server on a warm install.
//   node bench/foundation.mjs            (needs Debian's chromium for the page-JS figure)
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { kb, launchChromium, LEARNER, totalGzipSize, untilReady, writeBenchVars } from "./lib.mjs";

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
const port = "8791";
const vars = ".cache/bench.vars";
writeBenchVars(vars, { port, pgPort: "25340" });
async function timeStart(extraArgs) {
  const started = Date.now();
  const child = spawn(
    "node",
    ["scripts/start.mjs", "--env-file", vars, "--port", port, "--data", ".cache/bench-data", "--quiet-wrangler", ...extraArgs],
    {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    },
  );
  await untilReady(child);
  return { seconds: (Date.now() - started) / 1000, child };
}
const first = await timeStart([]);
first.child.kill("SIGTERM");
await new Promise((r) => setTimeout(r, 1500));
const warm = await timeStart([]);
results.startSeconds = { firstWithBuild: first.seconds, warmWithBuild: warm.seconds };
console.log(
  `npm start → ready: ${first.seconds.toFixed(1)} s on a new database, ${warm.seconds.toFixed(1)} s on a restart (build included both times)`,
);

// 3. JavaScript downloaded by a first visit to / (signed in, empty cache)
try {
  const browser = await launchChromium();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`http://localhost:${port}/signin`);
  await page.getByLabel("Email").fill(LEARNER.email);
  await page.getByLabel("Senha").fill(LEARNER.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.waitForURL(`http://localhost:${port}/`);
  const fresh = await browser.newContext({ storageState: await context.storageState() });
  const visit = await fresh.newPage();
  const scripts = new Set();
  const styles = new Set();
  visit.on("response", (r) => {
    const type = r.request().resourceType();
    if (type === "script") scripts.add(r.url());
    if (type === "stylesheet") styles.add(r.url());
  });
  await visit.goto(`http://localhost:${port}/`, { waitUntil: "networkidle" });
  results.homeJs = { files: scripts.size, gzip: await totalGzipSize(scripts) };
  results.homeCss = { files: styles.size, gzip: await totalGzipSize(styles) };
  console.log(`first visit to / downloads ${scripts.size} JS files = ${kb(results.homeJs.gzip)} gzip; CSS ${kb(results.homeCss.gzip)} gzip`);
  await browser.close();
} finally {
  warm.child.kill("SIGTERM");
}
writeFileSync(".cache/bench-foundation.json", JSON.stringify(results, null, 2));
setTimeout(() => process.exit(0), 1500);
