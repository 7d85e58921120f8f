#!/usr/bin/env node
// @ts-check
// Two builds' chat time to first token, message by message: checkout A's build and checkout B's each run as their
// own app (own embedded database, own fake provider streaming each word after 50 ms), and the learner's messages go
// to A and B in turn (ABBA), so the machine's drift falls on both alike. It prints each build's median time to the
// first token and the median of the paired differences — e.g. a change against the same tree without it. A message
// follows the previous one's end at once, so work a build leaves in the background after a reply is in the figure.
//   node bench/chat-ttft-ab.mjs --a ../wt-a --b ../wt-b [--runs 60] [--warmup 40]
// Each checkout must be built (`npx react-router build`) and have its node_modules. Loopback only.
import { existsSync } from "node:fs";
import os from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { benchDb, chatClient, LEARNER, percentile, signInAsLearner, startApp } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    a: { type: "string" },
    b: { type: "string" },
    runs: { type: "string", default: "60" },
    warmup: { type: "string", default: "40" },
  },
});
if (!opts.a || !opts.b) {
  console.error("usage: node bench/chat-ttft-ab.mjs --a <checkout> --b <checkout> [--runs 60] [--warmup 40]");
  process.exit(2);
}
const RUNS = Math.max(4, Math.min(1000, Number(opts.runs) || 60));
// The embedded database's WebAssembly reaches full speed only after about a hundred runs of a statement.
const WARMUP = Math.max(1, Math.min(1000, Number(opts.warmup) || 40));
const PER_CONVERSATION = 10;
const TOKEN_DELAY_MS = 50;
const checkouts = { A: resolve(opts.a), B: resolve(opts.b) };
for (const [name, dir] of Object.entries(checkouts)) {
  if (!existsSync(`${dir}/build/server/index.js`)) {
    console.error(`${name} (${dir}) has no build: run \`npx react-router build\` there first.`);
    process.exit(1);
  }
}

/** @param {"A" | "B"} side @param {{ port: string, pgPort: string, upstreamPort: string }} ports */
async function startSide(side, ports) {
  const app = await startApp({ name: `ttft-ab-${side.toLowerCase()}`, cwd: checkouts[side], ...ports });
  const configured = await fetch(`${app.upstream}/__ai/config?tokenDelay=${TOKEN_DELAY_MS}`, { method: "POST" });
  if (!configured.ok) throw new Error(`${side}'s fake provider answered /__ai/config with ${configured.status}`);
  const { pool } = await benchDb(app.vars);
  try {
    const updated = await pool.query("UPDATE users SET monthly_credits = 100000 WHERE email = $1", [LEARNER.email]);
    if (updated.rowCount !== 1) throw new Error(`learner ${LEARNER.email} not found in ${side}'s seed`);
  } finally {
    await pool.end();
  }
  const chat = chatClient(app.base, await signInAsLearner(app.base));
  let conversationId = await chat.newConversation();
  let sent = 0;
  /** @type {number[]} */
  const ttfts = [];
  return {
    app,
    ttfts,
    /** @param {string} text @param {boolean} measured */
    async send(text, measured) {
      if (sent > 0 && sent % PER_CONVERSATION === 0) conversationId = await chat.newConversation();
      sent++;
      const run = await chat.send(conversationId, text);
      if (measured) ttfts.push(run.ttft);
    },
  };
}

const sides = {
  A: await startSide("A", { port: "8792", pgPort: "25381", upstreamPort: "4021" }),
  B: await startSide("B", { port: "8793", pgPort: "25382", upstreamPort: "4022" }),
};
try {
  const loadBefore = os.loadavg()[0];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    // The text the fake review finds mistakes in, so build A stores caderno entries as a learner's would.
    const text = `I have 20 years and people is nice here, message ${i + 1}`;
    const order = i % 4 === 0 || i % 4 === 3 ? /** @type {const} */ (["A", "B"]) : /** @type {const} */ (["B", "A"]);
    for (const side of order) await sides[side].send(text, i >= WARMUP);
  }
  const loadAfter = os.loadavg()[0];
  // What each build asked its provider besides the replies: the review calls (the fake upstream logs them apart).
  const reviews = async (/** @type {"A" | "B"} */ side) =>
    /** @type {unknown[]} */ (await (await fetch(`${sides[side].app.upstream}/__ai/reviews`)).json()).length;

  const median = (/** @type {number[]} */ values) => percentile(values, 0.5);
  const ms = (/** @type {number} */ v) => `${v.toFixed(2)} ms`;
  const a = sides.A.ttfts;
  const b = sides.B.ttfts;
  const pairs = a.map((value, i) => value - b[i]);
  const cpu = os.cpus();
  console.log(`A = ${checkouts.A}\nB = ${checkouts.B}`);
  console.log(
    `${RUNS} messages each (after ${WARMUP} warm-up each), ABBA order, provider token delay ${TOKEN_DELAY_MS} ms; ` +
      `${cpu.length} cores (${cpu[0]?.model?.trim() ?? "unknown CPU"}), Node ${process.version}, load ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`,
  );
  console.log(`time to first token  A median ${ms(median(a))}  p90 ${ms(percentile(a, 0.9))}`);
  console.log(`                     B median ${ms(median(b))}  p90 ${ms(percentile(b, 0.9))}`);
  console.log(`review calls: A ${await reviews("A")} · B ${await reviews("B")}`);
  console.log(`A − B: difference of the medians ${ms(median(a) - median(b))} · median of the paired differences ${ms(median(pairs))}`);
} finally {
  await Promise.all([sides.A.app.stop(), sides.B.app.stop()]);
}
