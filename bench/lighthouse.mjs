#!/usr/bin/env node
// @ts-check
// Lighthouse on every main page (issue 13): the `lighthouse` npm package against Debian's chromium, mobile form
// factor with Lighthouse's default simulated throttling, categories performance, accessibility and best practices.
// /signin anonymous; the others signed in as the development learner (its session cookie sent as a header).
// Each page --runs times (the run with the median performance score is kept); prints a table and, for a page under
// 98 performance or under 100 in another category, the failing audits, and Lighthouse's CPU benchmark index (how fast the
// machine's unthrottled core is: the simulated 4× slowdown stands for a mid-range phone only near 2,000–2,700);
// writes bench/results/lighthouse.json.
//   node bench/lighthouse.mjs [--runs 1] [--only /signin,/courses] [--timeout 120] [--reports DIR] [--build] [--smoke]
// --reports DIR also writes each page's full Lighthouse result (the median run) as DIR/<page>.json.
// By default the existing ./build is served; --build rebuilds it. Own ports, embedded database and data folder.
// On a shared machine hold the build lock so nobody rebuilds ./build under it: flock /tmp/nika-e2e.lock npm run bench:lighthouse
// --smoke (bench/smoke.mjs): /signin only, one run, on the app the smoke run shares.
// Exits non-zero only on errors (a page that fails to load or times out), never on low scores.
import { mkdirSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { firstModuleAndLesson, signInAsLearner, startApp, writeResults } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    runs: { type: "string", default: "1" },
    timeout: { type: "string", default: "120" },
    build: { type: "boolean", default: false },
    only: { type: "string" },
    reports: { type: "string" },
    smoke: { type: "boolean", default: false },
  },
});
const RUNS = Math.max(1, Math.min(9, Number(opts.runs) || 1));
const TIMEOUT_MS = Math.max(30, Math.min(600, Number(opts.timeout) || 120)) * 1000;
const ONLY = opts.smoke ? "/signin" : opts.only;
const CATEGORIES = ["performance", "accessibility", "best-practices"];
const CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu"];

const app = await startApp({ name: "lighthouse", port: "8798", pgPort: "25398", build: opts.build });
const { base } = app;
/** Chromes still running (a timed-out run's included), killed on the way out. */
/** @type {Set<import("chrome-launcher").LaunchedChrome>} */
const chromes = new Set();
const stop = async () => {
  for (const chrome of chromes) chrome.kill();
  await app.stop();
};
process.on("SIGINT", () => void stop().then(() => process.exit(130)));
process.on("SIGTERM", () => void stop().then(() => process.exit(143)));

/** @typedef {import("lighthouse").Result} LighthouseResult */
/** @typedef {LighthouseResult["audits"][string]} AuditResult */

/**
 * One Lighthouse run of `url` in a fresh chromium; rejects after TIMEOUT_MS.
 * @param {string} url
 * @param {string} [cookie]
 * @returns {Promise<LighthouseResult>}
 */
async function audit(url, cookie) {
  const chrome = await launch({ chromePath: "/usr/bin/chromium", chromeFlags: CHROME_FLAGS, logLevel: "silent" });
  chromes.add(chrome);
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  try {
    const run = lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: CATEGORIES,
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    /** @type {Promise<never>} */
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    });
    const result = await Promise.race([run, timeout]);
    const lhr = result?.lhr;
    if (!lhr) throw new Error("Lighthouse returned no result");
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    return lhr;
  } finally {
    clearTimeout(timer);
    await Promise.resolve(chrome.kill()).catch(() => {});
    chromes.delete(chrome);
  }
}

const score = (/** @type {{ score: number | null } | undefined} */ category) =>
  category?.score == null ? null : Math.round(category.score * 100);

/**
 * Audits of a category that did not pass, with their savings when Lighthouse estimates any.
 * @param {LighthouseResult} lhr
 * @param {string} categoryId
 */
function failingAudits(lhr, categoryId) {
  const category = lhr.categories[categoryId];
  const skipped = new Set(["notApplicable", "manual", "informative", "error"]);
  return category.auditRefs
    .filter((ref) => !(categoryId === "performance" && ref.group === "metrics"))
    .map((ref) => lhr.audits[ref.id])
    .filter((a) => a && !skipped.has(a.scoreDisplayMode) && a.score !== null && a.score < 1)
    .filter((a) => categoryId !== "performance" || (a.score ?? 0) < 0.9 || hasSavings(a))
    .map((a) => ({
      id: a.id,
      title: a.title,
      score: a.score,
      displayValue: a.displayValue ?? null,
      savingsMs: detailsOf(a)?.overallSavingsMs ?? null,
      savingsBytes: detailsOf(a)?.overallSavingsBytes ?? null,
      metricSavings: a.metricSavings ?? null,
      items: (detailsOf(a)?.items ?? []).slice(0, 5).map(describeItem),
    }));
}

/**
 * The parts of an audit's details this bench reads (their shape varies by audit type).
 * @param {AuditResult} a
 * @returns {{ overallSavingsMs?: number, overallSavingsBytes?: number, items?: unknown[] } | undefined}
 */
const detailsOf = (a) => /** @type {any} */ (a.details);

/**
 * What an audit's detail row is about (a URL, an element, a reason), for the JSON file.
 * @param {any} item a row of an audit's details table (its shape varies by audit)
 */
function describeItem(item) {
  const what = item.url ?? item.node?.snippet ?? item.source?.url ?? item.reason ?? item.description ?? item.node?.selector;
  const wasted = item.wastedBytes ?? item.wastedMs;
  return wasted == null ? String(what ?? "") : `${what} (${Math.round(wasted)})`;
}

/** @param {AuditResult} a */
function hasSavings(a) {
  const metric = Object.values(a.metricSavings ?? {}).some((v) => (v ?? 0) > 0);
  return metric || (detailsOf(a)?.overallSavingsMs ?? 0) > 0 || (detailsOf(a)?.overallSavingsBytes ?? 0) > 0;
}

/** @param {LighthouseResult} lhr */
function summarize(lhr) {
  const metric = (/** @type {string} */ id) => lhr.audits[id]?.numericValue ?? null;
  const result = {
    finalUrl: lhr.finalDisplayedUrl,
    performance: score(lhr.categories.performance),
    accessibility: score(lhr.categories.accessibility),
    bestPractices: score(lhr.categories["best-practices"]),
    fcpMs: metric("first-contentful-paint"),
    lcpMs: metric("largest-contentful-paint"),
    tbtMs: metric("total-blocking-time"),
    cls: metric("cumulative-layout-shift"),
    speedIndexMs: metric("speed-index"),
    serverResponseMs: metric("server-response-time"),
    /** Lighthouse's CPU benchmark index of this run's machine (how fast the unthrottled core was). */
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    /** @type {Record<string, ReturnType<typeof failingAudits>>} */
    failing: {},
  };
  if ((result.performance ?? 0) < 98) result.failing.performance = failingAudits(lhr, "performance");
  if ((result.accessibility ?? 0) < 100) result.failing.accessibility = failingAudits(lhr, "accessibility");
  if ((result.bestPractices ?? 0) < 100) result.failing["best-practices"] = failingAudits(lhr, "best-practices");
  return result;
}
/** @typedef {ReturnType<typeof summarize>} Summary */

const results = {
  date: new Date().toISOString(),
  lighthouse: (await import("lighthouse/package.json", { with: { type: "json" } })).default.version,
  formFactor: "mobile",
  throttling: "simulate (Lighthouse mobile defaults)",
  chromium: "/usr/bin/chromium " + CHROME_FLAGS.join(" "),
  runs: RUNS,
  /** @type {Record<string, { path: string, error?: true, performanceScores?: (number | null)[], tbtRuns?: number[] } & Partial<Summary>>} */
  pages: {},
};
let errors = 0;
try {
  const cookie = await signInAsLearner(base);

  // A module and its first lesson, read from the same embedded database the app uses.
  const { moduleId, lessonId } = await firstModuleAndLesson(app.vars);

  // A chat: /chat-with-nika/english opens a conversation and redirects to its page (…?c=<id>); audit that page.
  const opened = await fetch(`${base}/chat-with-nika/english`, { headers: { Cookie: cookie }, redirect: "manual" });
  await opened.arrayBuffer();
  const chatPath = opened.headers.get("location");
  if (!chatPath) throw new Error(`/chat-with-nika/english answered ${opened.status} without a conversation`);

  /** @type {[label: string, path: string, signedIn: boolean][]} */
  const all = [
    ["/signin", "/signin", false],
    ["/", "/", true],
    ["/courses", "/courses", true],
    ["a module", `/courses/modules/${moduleId}`, true],
    ["a lesson", `/courses/lessons/${lessonId}`, true],
    ["/chat-with-nika", "/chat-with-nika", true],
    ["a chat (english)", new URL(chatPath, base).pathname + new URL(chatPath, base).search, true],
    ["/labs", "/labs", true],
    ["/flashcard-v2", "/flashcard-v2", true],
    ["/pronunciation-game", "/pronunciation-game", true],
    ["/config", "/config", true],
    ["/comprar-creditos", "/comprar-creditos", true],
  ];
  const pages = all.filter(([label, path]) => !ONLY || ONLY.split(",").some((wanted) => wanted === label || wanted === path));

  // Warm-up: every page once, so no run pays for the worker's first compilation of a route.
  for (const [, path, signedIn] of pages) {
    const response = await fetch(base + path, { headers: signedIn ? { Cookie: cookie } : {}, redirect: "manual" });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status} (expected 200)`);
  }

  for (const [label, path, signedIn] of pages) {
    /** @type {Summary[]} */
    const runs = [];
    /** @type {Map<Summary, LighthouseResult>} */
    const reports = new Map();
    for (let i = 0; i < RUNS; i++) {
      const up = await fetch(`${base}/signin`).then(
        (r) => r.ok,
        () => false,
      );
      if (!up) throw new Error("the app stopped answering (was ./build rebuilt under it? run the bench under flock /tmp/nika-e2e.lock)");
      try {
        // Lighthouse sometimes loses a trace on a busy machine (NO_NAVSTART, NO_FCP): one more try before it counts.
        const lhr = await audit(base + path, signedIn ? cookie : undefined).catch((error) => {
          if (/timed out/.test(error.message)) throw error;
          console.error(`${label} (run ${i + 1}): ${error.message}; trying once more`);
          return audit(base + path, signedIn ? cookie : undefined);
        });
        const summary = summarize(lhr);
        runs.push(summary);
        if (opts.reports) reports.set(summary, lhr);
      } catch (error) {
        errors++;
        console.error(`${label} (run ${i + 1}): ${error instanceof Error ? error.message : error}`);
      }
    }
    if (runs.length === 0) {
      results.pages[label] = { path, error: true };
      continue;
    }
    const sorted = [...runs].sort((a, b) => (a.performance ?? 0) - (b.performance ?? 0));
    const median = sorted[Math.floor((sorted.length - 1) / 2)];
    results.pages[label] = { path, performanceScores: runs.map((r) => r.performance), tbtRuns: runs.map((r) => r.tbtMs ?? 0), ...median };
    if (opts.reports) {
      mkdirSync(opts.reports, { recursive: true });
      writeFileSync(
        `${opts.reports}/${label.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "home"}.json`,
        JSON.stringify(reports.get(median)),
      );
    }
    process.stderr.write(`${label}: ${runs.map((r) => r.performance).join(", ")}\n`);
  }
} catch (error) {
  errors++;
  console.error(error);
} finally {
  await stop();
}

// The table.
const ms = (/** @type {number | null | undefined} */ v) => (v == null ? "—" : `${Math.round(v)} ms`);
const cell = (/** @type {string | number | null | undefined} */ v, /** @type {number} */ width) => String(v ?? "—").padStart(width);
const header = ["page", "perf", "a11y", "best pr.", "FCP", "LCP", "TBT", "CLS", "CPU index"];
const widths = [22, 5, 5, 8, 8, 8, 8, 6, 9];
console.log(header.map((h, i) => (i === 0 ? h.padEnd(widths[i]) : h.padStart(widths[i]))).join("  "));
for (const [label, page] of Object.entries(results.pages)) {
  if (page.error) {
    console.log(`${label.padEnd(widths[0])}  (failed)`);
    continue;
  }
  const scores = page.performanceScores ?? [];
  const runsNote =
    scores.length > 1 ? `  (perf runs ${scores.join(", ")}; TBT ${(page.tbtRuns ?? []).map((v) => Math.round(v)).join(", ")} ms)` : "";
  console.log(
    [
      label.padEnd(widths[0]),
      cell(page.performance, widths[1]),
      cell(page.accessibility, widths[2]),
      cell(page.bestPractices, widths[3]),
      cell(ms(page.fcpMs), widths[4]),
      cell(ms(page.lcpMs), widths[5]),
      cell(ms(page.tbtMs), widths[6]),
      cell(page.cls == null ? null : page.cls.toFixed(3), widths[7]),
      cell(page.benchmarkIndex == null ? null : Math.round(page.benchmarkIndex), widths[8]),
    ].join("  ") + runsNote,
  );
}
for (const [label, page] of Object.entries(results.pages)) {
  for (const [category, audits] of Object.entries(page.failing ?? {})) {
    if (audits.length === 0) continue;
    console.log(`\n${label} — ${category}:`);
    for (const a of audits) {
      const savings = [
        a.savingsMs ? `${Math.round(a.savingsMs)} ms` : null,
        a.savingsBytes ? `${(a.savingsBytes / 1024).toFixed(1)} KiB` : null,
        ...Object.entries(a.metricSavings ?? {}).flatMap(([k, v]) =>
          v && v > 0 ? [`${k} ${k === "CLS" ? v.toFixed(3) : `${Math.round(v)} ms`}`] : [],
        ),
      ].filter(Boolean);
      console.log(`  - ${a.title}${a.displayValue ? ` (${a.displayValue})` : ""}${savings.length ? ` — savings: ${savings.join(", ")}` : ""}`);
    }
  }
}
console.log(
  `\n(Lighthouse ${results.lighthouse}, mobile, simulated throttling, ${RUNS} run(s) per page, median performance kept; wrangler dev + embedded Postgres)`,
);

writeResults("lighthouse", results, opts.smoke);
process.exit(errors > 0 ? 1 : 0);
