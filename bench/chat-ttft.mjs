#!/usr/bin/env node
// @ts-check
// Chat time to first token (issue 4 quality bar): the latency the server ADDS to the first streamed
// token of Nika's reply, over the provider's own time to first token. A local OpenAI-compatible fake
// provider (tests/fake-upstream/server.mjs) streams each word after a fixed delay; the same kind of
// request is timed directly against it and through the app (POST /resources/chat/<id>/messages →
// text/event-stream), alternating the two so drift affects both equally. Target: ≤ 10 ms added at the median
// (issue 13; issue 4's bar was 20 ms). The greeting (POST /resources/chat/<id>/greet, the free first turn of a new
// conversation, right after its page loaded) is timed the same way, with its own target of the same 10 ms.
//   node bench/chat-ttft.mjs [--runs 40] [--warmup 40] [--smoke]
// --smoke (bench/smoke.mjs): two runs after one warm-up, no token delay, the target reported but not enforced.
// The warm-up messages are discarded: the embedded database's WebAssembly reaches full speed only after V8 has
// re-compiled its hot paths (about a hundred runs of a statement), so a short warm-up measures that ramp, not the app.
// Serves the existing ./build (never rebuilds it). Loopback only; a bounded number of requests.
import { existsSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { benchDb, chatClient, launchChromium, LEARNER, readStream, signInAsLearner, startApp, totalGzipSize, writeResults } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    runs: { type: "string", default: "40" },
    warmup: { type: "string", default: "40" },
    smoke: { type: "boolean", default: false },
  },
});
const RUNS = opts.smoke ? 2 : Math.max(4, Math.min(1000, Number(opts.runs) || 40));
const WARMUP = opts.smoke ? 1 : Math.max(1, Math.min(1000, Number(opts.warmup) || 40));
const PER_CONVERSATION = 10;
const TARGET_MS = 10;
const TOKEN_DELAY_MS = opts.smoke ? 0 : 50;

if (!existsSync("build/server/index.js")) {
  console.error("./build does not exist (build/server/index.js missing): this bench serves the existing build and never builds it.");
  process.exit(1);
}

// 1. The fake provider and the app on a fresh embedded database (migrated + development seed by start.mjs).
const app = await startApp({ name: "chat", port: "8791", pgPort: "25380", upstreamPort: "4020" });
const { base } = app;
const provider = /** @type {string} */ (app.upstream);
const apiKey = "test-openai-key";

let failed = false;
try {
  // 2. The provider streams every word token after TOKEN_DELAY_MS.
  const configured = await fetch(`${provider}/__ai/config?tokenDelay=${TOKEN_DELAY_MS}`, { method: "POST" });
  if (!configured.ok) throw new Error(`the fake provider's /__ai/config answered ${configured.status}`);

  // 3. Enough credits for every run.
  const { pool } = await benchDb(app.vars);
  try {
    const updated = await pool.query("UPDATE users SET monthly_credits = 100000 WHERE email = $1", [LEARNER.email]);
    if (updated.rowCount !== 1) throw new Error(`learner ${LEARNER.email} not found in the seed`);
  } finally {
    await pool.end();
  }

  // 4. Sign in as the learner.
  const cookie = await signInAsLearner(base);

  const chat = chatClient(base, cookie);
  const newConversation = chat.newConversation;
  const viaApp = chat.send;
  const viaAppGreet = chat.greet;
  /** @typedef {Awaited<ReturnType<typeof chat.send>>} TimedRun a run whose first token came */

  // Directly at the provider: from sending the request to the first chunk with non-empty delta.content.
  const systemPrompt =
    "You are Nika, a friendly English teacher for Brazilian learners. Answer in short, simple English, correct mistakes gently and keep the conversation going.";
  /** @param {string} text */
  async function direct(text) {
    const started = performance.now();
    const response = await fetch(`${provider}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        model: "fake-chat",
        stream: true,
        messages: [
          { role: "system", content: systemPrompt },
          { role: "user", content: text },
        ],
      }),
    });
    const hasContent = (/** @type {string} */ s) =>
      s.split("\n\n").some((block) => {
        const line = block.split("\n").find((l) => l.startsWith("data: "));
        if (!line || !block.length || line === "data: [DONE]") return false;
        try {
          return Boolean(JSON.parse(line.slice(6)).choices?.[0]?.delta?.content);
        } catch {
          return false; // a block still arriving
        }
      });
    const run = await readStream(response, started, hasContent);
    if (response.status !== 200 || run.ttft === null || !run.text.includes("data: [DONE]")) {
      throw new Error(`provider stream failed (${response.status}): ${run.text.slice(0, 300)}`);
    }
    return { ...run, ttft: run.ttft };
  }

  // Reference points for where the added latency goes, timed the same way (request → whole short answer):
  // the route without any database work (GET → 405), and a message to a conversation that does not exist, which goes
  // the message's whole way up to the provider — its connection, the session, the form, the gate statement — and
  // stops there (404, nothing spent).
  /**
   * @param {"GET" | "POST"} method
   * @param {string} path
   * @param {number} expected
   */
  async function probe(method, path, expected) {
    const started = performance.now();
    const response = await fetch(base + path, {
      method,
      headers: { Cookie: cookie, ...(method === "POST" ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
      body: method === "POST" ? new URLSearchParams({ text: "probe" }) : undefined,
    });
    await response.arrayBuffer();
    if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}, expected ${expected}`);
    return performance.now() - started;
  }
  const noDbProbe = () => probe("GET", "/resources/chat/00000000-0000-4000-8000-000000000000/messages", 405);
  const gateProbe = () => probe("POST", "/resources/chat/00000000-0000-4000-8000-00000000dead/messages", 404);

  // 5. Warm-up (discarded), then RUNS pairs, alternating which side goes first.
  let conversationId = await newConversation();
  let conversations = 1;
  for (let i = 0; i < WARMUP; i++) {
    await direct(`Warm-up message ${i + 1}`);
    await viaApp(conversationId, `Warm-up message ${i + 1}`);
    await noDbProbe();
    await gateProbe();
  }
  const loadBefore = os.loadavg()[0];
  /** @type {TimedRun[]} */
  const providerRuns = [];
  /** @type {TimedRun[]} */
  const appRuns = [];
  /** @type {number[]} */
  const noDbRuns = [];
  /** @type {number[]} */
  const gateRuns = [];
  for (let i = 0; i < RUNS; i++) {
    if (i % PER_CONVERSATION === 0) {
      conversationId = await newConversation();
      conversations++;
    }
    const text = `I like to play football on Saturdays, run ${i + 1}`;
    const pair = [() => direct(text).then((r) => providerRuns.push(r)), () => viaApp(conversationId, text).then((r) => appRuns.push(r))];
    if (i % 2 === 1) pair.reverse();
    for (const step of pair) await step();
    noDbRuns.push(await noDbProbe());
    gateRuns.push(await gateProbe());
  }
  // Greetings: each on a new conversation (whose page load keeps the learner in the isolate, as in a browser),
  // paired with a direct provider request, alternating which goes first.
  for (let i = 0; i < Math.ceil(WARMUP / 2); i++) await viaAppGreet(await newConversation());
  /** @type {TimedRun[]} */
  const greetProviderRuns = [];
  /** @type {TimedRun[]} */
  const greetRuns = [];
  for (let i = 0; i < RUNS; i++) {
    const id = await newConversation();
    conversations++;
    const pair = [() => direct("start").then((r) => greetProviderRuns.push(r)), () => viaAppGreet(id).then((r) => greetRuns.push(r))];
    if (i % 2 === 1) pair.reverse();
    for (const step of pair) await step();
  }
  const loadAfter = os.loadavg()[0];

  // 6. Figures.
  /**
   * @param {number[]} values
   * @param {number} q
   */
  const quantile = (values, q) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (sorted.length - 1) * q;
    const lo = Math.floor(at);
    return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (at - lo);
  };
  const stats = (/** @type {number[]} */ values) => ({
    median: quantile(values, 0.5),
    p90: quantile(values, 0.9),
    min: Math.min(...values),
    max: Math.max(...values),
  });
  const ms = (/** @type {number} */ v) => `${v.toFixed(1).padStart(6)} ms`;
  const providerTtft = stats(providerRuns.map((r) => r.ttft));
  const appTtft = stats(appRuns.map((r) => r.ttft));
  const appTotal = stats(appRuns.map((r) => r.total));
  const paired = stats(appRuns.map((r, i) => r.ttft - providerRuns[i].ttft));
  const added = { median: appTtft.median - providerTtft.median, p90: appTtft.p90 - providerTtft.p90 };
  const greetProviderTtft = stats(greetProviderRuns.map((r) => r.ttft));
  const greetTtft = stats(greetRuns.map((r) => r.ttft));
  const greetAdded = { median: greetTtft.median - greetProviderTtft.median, p90: greetTtft.p90 - greetProviderTtft.p90 };
  const noDb = stats(noDbRuns);
  const gate = stats(gateRuns);
  const cpu = os.cpus();

  console.log(
    `\nchat time to first token — ${RUNS} runs each side (after ${WARMUP} warm-up runs), ${conversations} conversations, provider token delay ${TOKEN_DELAY_MS} ms`,
  );
  console.log(
    `machine: ${cpu.length} cores (${cpu[0]?.model?.trim() ?? "unknown CPU"}), ${os.platform()} ${os.arch()}, Node ${process.version}, load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`,
  );
  console.log(
    `provider TTFT (direct)        median ${ms(providerTtft.median)}   p90 ${ms(providerTtft.p90)}   min ${ms(providerTtft.min)}   max ${ms(providerTtft.max)}`,
  );
  console.log(
    `app TTFT (via the app)        median ${ms(appTtft.median)}   p90 ${ms(appTtft.p90)}   min ${ms(appTtft.min)}   max ${ms(appTtft.max)}`,
  );
  console.log(`added latency (app − provider) median ${ms(added.median)}   p90 ${ms(added.p90)}`);
  console.log(`  (per-pair differences:       median ${ms(paired.median)}   p90 ${ms(paired.p90)})`);
  console.log(
    `app total time per message    median ${ms(appTotal.median)}   p90 ${ms(appTotal.p90)}   (whole reply stored + speech, until event: done)`,
  );
  console.log(
    `where it goes (medians): route without database ${ms(noDb.median)} · + connection, session, form and gate statement ${ms(gate.median - noDb.median)} · rest (the provider request out, its first token back) ${ms(added.median - gate.median)}`,
  );
  console.log(
    added.median <= TARGET_MS ? `target met (≤ ${TARGET_MS} ms added at the median)` : `target missed (> ${TARGET_MS} ms added at the median)`,
  );

  console.log(
    `greeting TTFT (via the app)   median ${ms(greetTtft.median)}   p90 ${ms(greetTtft.p90)}   (provider direct: median ${ms(greetProviderTtft.median)})`,
  );
  console.log(`greeting added (app − provider) median ${ms(greetAdded.median)}   p90 ${ms(greetAdded.p90)}`);
  console.log(
    greetAdded.median <= TARGET_MS
      ? `greeting target met (≤ ${TARGET_MS} ms added at the median)`
      : `greeting target missed (> ${TARGET_MS} ms added at the median)`,
  );

  // The JavaScript a first visit to the chat screen loads (gzip), and what the overlays add on first use.
  const pageJs = await measureChatPageJs(cookie);

  writeResults(
    "chat-ttft",
    {
      runs: RUNS,
      warmup: WARMUP,
      tokenDelayMs: TOKEN_DELAY_MS,
      cores: cpu.length,
      providerTtft,
      appTtft,
      added,
      paired,
      greeting: { providerTtft: greetProviderTtft, appTtft: greetTtft, added: greetAdded },
      appTotal,
      noDbRoute: noDb,
      gateRoute: gate,
      targetMs: TARGET_MS,
      pageJs,
    },
    opts.smoke,
  );
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await app.stop();
}
process.exit(failed ? 1 : 0);

/** @param {string} cookie */
async function measureChatPageJs(cookie) {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const [name, ...value] = cookie.split("=");
    await context.addCookies([{ name, value: value.join("="), domain: "127.0.0.1", path: "/" }]);
    const page = await context.newPage();
    const scripts = new Set();
    page.on("response", (r) => r.request().resourceType() === "script" && r.url().startsWith(base) && scripts.add(r.url()));
    await page.goto(`${base}/chat-with-nika/english`, { waitUntil: opts.smoke ? "load" : "networkidle" });
    const firstVisit = await totalGzipSize(scripts);
    const before = new Set(scripts);
    await page.getByRole("button", { name: "Modos" }).click();
    await page.getByRole("dialog").waitFor();
    if (!opts.smoke) await page.waitForLoadState("networkidle");
    const overlays = await totalGzipSize([...scripts].filter((u) => !before.has(u)));
    console.log(
      `chat page JavaScript: first visit ${before.size} files = ${(firstVisit / 1024).toFixed(1)} KB gzip; mode drawer / credits dialog on first use + ${(overlays / 1024).toFixed(1)} KB`,
    );
    return { files: before.size, gzip: firstVisit, overlaysGzip: overlays };
  } finally {
    await browser.close();
  }
}
