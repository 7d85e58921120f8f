#!/usr/bin/env node
// `npm test`: the whole suite — typecheck, lint (eslint, prettier --check), unit + integration tests
// (vitest, PGlite), production build, then end-to-end journeys (Playwright on Debian's Chromium against
// `wrangler dev`), each with JavaScript on and off. The benches' smoke run is `npm run bench:smoke`: at ~110 s it
// pushed CI past its 30 minutes, and the benches stay type-checked here. Ends with one line: "N passed, N failed".
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";

const started = Date.now();
const stepTimes = [];
let currentStep = null;
const endStep = () => currentStep && stepTimes.push(`${currentStep.name} ${((Date.now() - currentStep.at) / 1000).toFixed(0)} s`);
const step = (name) => {
  endStep();
  currentStep = { name: name.split(" (")[0], at: Date.now() };
  console.log(`\n\x1b[36m[test]\x1b[0m ${name}`);
};
const run = (command, args, env = {}) => spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1;
const runAside = (command, args) =>
  new Promise((resolve) => spawn(command, args, { stdio: "inherit" }).on("close", (code) => resolve(code ?? 1)));

const lock = "package-lock.json";
const installed = "node_modules/.package-lock.json";
if (!existsSync(installed) || statSync(lock).mtimeMs > statSync(installed).mtimeMs) {
  step("npm install");
  if (run("npm", ["install", "--no-audit", "--no-fund"]) !== 0) process.exit(1);
}
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.error(`[test] Chromium not found at ${chromium}. Install Debian's: sudo apt-get install -y chromium`);
  process.exit(1);
}

mkdirSync(".cache", { recursive: true });
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null);
let failedSteps = 0;

// The shipped content (fingerprinted files + the manifests the app imports) is generated, not committed.
step("content assets");
if (run("node", ["scripts/content/content-assets.mjs"]) !== 0) process.exit(1);

// Side by side: each is mostly one core, and the machine has two.
step("typecheck and lint (tsc, eslint, prettier)");
if (run("npx", ["react-router", "typegen"]) !== 0) failedSteps++;
const checks = await Promise.all([
  runAside("npx", ["tsc"]),
  runAside("npx", ["eslint", ".", "--max-warnings=0"]),
  runAside("npx", ["prettier", "--check", "."]),
]);
failedSteps += checks.filter((code) => code !== 0).length;

step("unit + integration (vitest)");
const vitestRun = (output, files = []) =>
  run("npx", ["vitest", "run", ...files, "--reporter=default", "--reporter=json", `--outputFile.json=${output}`]);
vitestRun(".cache/vitest.json");
// Under CI, as Playwright does (retries: 1): the files with a failure run once more; a test that then passes is
// reported as flaky, by name, and one that fails again fails the run.
const failedFiles = (results) => (results?.testResults ?? []).filter((file) => file.status === "failed").map((file) => file.name);
let vitestRerun = null;
if (process.env.CI && failedFiles(readJson(".cache/vitest.json")).length > 0) {
  step("vitest: the failed files once more");
  vitestRun(".cache/vitest-rerun.json", failedFiles(readJson(".cache/vitest.json")));
  vitestRerun = readJson(".cache/vitest-rerun.json") ?? { numPassedTests: 0, numFailedTests: 1, testResults: [] };
}

step("production build");
if (run("npx", ["react-router", "build"]) !== 0) {
  console.error("[test] build failed");
  process.exit(1);
}

step("end-to-end (playwright, JS on and off)");
run("npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: ".cache/playwright.json" });

endStep();
console.log(`\n[test] steps: ${stepTimes.join(" · ")}`);
const vitest = readJson(".cache/vitest.json");
const playwright = readJson(".cache/playwright.json");
const failedTests = (results) =>
  (results?.testResults ?? []).flatMap((file) => {
    const where = file.name.replace(`${process.cwd()}/`, "");
    const tests = file.assertionResults.filter((test) => test.status === "failed");
    if (tests.length === 0 && file.status === "failed") return [{ where, title: "(the file itself)", why: file.message }];
    return tests.map((test) => ({ where, title: test.fullName, why: test.failureMessages?.[0] }));
  });
const firstFailures = failedTests(vitest);
const lastFailures = vitestRerun ? failedTests(vitestRerun) : firstFailures;
const vitestFlaky = vitestRerun ? firstFailures.filter((f) => !lastFailures.some((l) => l.where === f.where && l.title === f.title)) : [];
const vPassed = (vitest?.numPassedTests ?? 0) + vitestFlaky.length;
const vFailed = !vitest ? 1 : vitestRerun ? lastFailures.length : vitest.numFailedTests + (vitest.numFailedTestSuites ?? 0);
for (const { where, title, why } of lastFailures) console.log(`[test] vitest failed: ${where} › ${title}\n    ${(why ?? "").split("\n")[0]}`);
for (const { where, title } of vitestFlaky) console.log(`[test] vitest flaky (passed on its second run): ${where} › ${title}`);
const pPassed = (playwright?.stats?.expected ?? 0) + (playwright?.stats?.flaky ?? 0);
const pFailed = playwright ? playwright.stats.unexpected : 1;
const passed = vPassed + pPassed;
const failed = vFailed + pFailed + failedSteps;
console.log(
  `\n[test] vitest ${vPassed} passed, ${vFailed} failed${vitestFlaky.length ? ` (${vitestFlaky.length} flaky)` : ""} · playwright ${pPassed} passed, ${pFailed} failed` +
    `${playwright?.stats?.flaky ? ` (${playwright.stats.flaky} flaky)` : ""} · ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
