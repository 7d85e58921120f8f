#!/usr/bin/env node
// Stripe webhook under duplicate deliveries (issue 12): for each of --rounds purchases, the learner starts a
// checkout through the app (POST /comprar-creditos), the fake Stripe marks it paid without telling anyone, then
// delivers the SAME signed `checkout.session.completed` 20 times at once to POST /api/stripe/webhook. Prints the
// handling time of a delivery (median, p95 over every delivery), a lone delivery for comparison, and checks that
// each purchase added its pack's credits exactly once. Plus the JS the purchase page loads on a first visit.
//   node bench/stripe-webhook.mjs [--rounds 10] [--build]
// By default the existing ./build is served; --build rebuilds it. Its own ports, database and data folder.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { benchDb, firstVisitScripts, kb, percentile, requireFreePorts, signInAsLearner, untilReady, writeBenchVars } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: { rounds: { type: "string", default: "10" }, build: { type: "boolean", default: false } },
});
const ROUNDS = Math.max(2, Math.min(100, Number(opts.rounds)));
const CONCURRENT = 20;
const PACK = { id: "150", credits: 150 };
const port = "8795";
const pgPort = "25395";
const stripePort = "4022";
const stripe = `http://127.0.0.1:${stripePort}`;
const base = `http://127.0.0.1:${port}`;
const vars = ".cache/bench-stripe.vars";

await requireFreePorts([port, pgPort, stripePort]);
writeBenchVars(vars, {
  port,
  pgPort,
  extra:
    `\nSTRIPE_SECRET_KEY=sk_test_bench\nSTRIPE_WEBHOOK_SECRET=whsec_bench\nSTRIPE_API_URL=${stripe}\n` +
    "CREDIT_PACKS=50:990,150:2490,400:5990\n",
});

const fake = spawn(
  "node",
  [
    "tests/fake-upstream/server.mjs",
    "--port",
    stripePort,
    "--stripe-key",
    "sk_test_bench",
    "--stripe-webhook-secret",
    "whsec_bench",
    "--stripe-webhook-url",
    `${base}/api/stripe/webhook`,
  ],
  { stdio: "ignore" },
);
const startArgs = ["--env-file", vars, "--port", port, "--data", ".cache/bench-stripe", "--fresh", "--quiet-wrangler"];
const child = spawn("node", ["scripts/start.mjs", ...startArgs, ...(opts.build ? [] : ["--no-build"])], {
  stdio: ["ignore", "ignore", "inherit", "ipc"],
});
const stop = () => (child.kill("SIGTERM"), fake.kill("SIGTERM"));
process.on("SIGINT", () => (stop(), process.exit(130)));
await untilReady(child);

const ms = (value) => `${value.toFixed(1)} ms`;
const post = async (url) => (await fetch(url, { method: "POST" })).json();
const results = { rounds: ROUNDS, concurrent: CONCURRENT };
try {
  const cookie = await signInAsLearner(base);
  const { db, pool, sql } = await benchDb(vars);
  const balance = async () =>
    Number((await db.execute(sql`select monthly_credits from users where email = 'aluno@nika.local'`)).rows[0].monthly_credits);

  /** A checkout through the app, paid at the fake Stripe without an event: its session id. */
  async function paidSession() {
    // The learner may open 10 checkouts per 10 minutes (LIMITS.checkout); the bench opens more, so it forgets them.
    await db.execute(sql`delete from rate_limit_attempts where bucket = 'checkout'`);
    const response = await fetch(`${base}/comprar-creditos`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: `pack=${PACK.id}`,
    });
    if (response.status !== 303) throw new Error(`checkout answered ${response.status}`);
    const sessionId = new URL(response.headers.get("Location")).pathname.split("/").pop();
    const paid = await post(`${stripe}/__stripe/sessions/${sessionId}/pay?method=card&deliver=0`);
    if (paid.session?.payment_status !== "paid") throw new Error("the fake did not mark the session paid");
    return sessionId;
  }

  // Warm-up (first requests compile and open connections).
  for (let i = 0; i < 2; i++) await post(`${stripe}/__stripe/sessions/${await paidSession()}/send?type=checkout.session.completed`);

  const burst = [];
  const lone = [];
  let wrong = 0;
  const wall = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    const before = await balance();
    const sessionId = await paidSession();
    const delivered = await post(`${stripe}/__stripe/sessions/${sessionId}/send?type=checkout.session.completed&count=${CONCURRENT}`);
    if (delivered.statuses.some((status) => status !== 200)) throw new Error(`a delivery answered ${delivered.statuses.join(",")}`);
    burst.push(...delivered.ms);
    if ((await balance()) - before !== PACK.credits) wrong++;
    const single = await post(`${stripe}/__stripe/sessions/${await paidSession()}/send?type=checkout.session.completed`);
    lone.push(...single.ms);
  }
  const seconds = (performance.now() - wall) / 1000;
  await pool.end();
  results.burst = { median: percentile(burst, 0.5), p95: percentile(burst, 0.95), deliveries: burst.length };
  results.lone = { median: percentile(lone, 0.5), p95: percentile(lone, 0.95), deliveries: lone.length };
  results.creditedExactlyOnce = ROUNDS - wrong;
  console.log(
    `${CONCURRENT} concurrent deliveries of one event: median ${ms(results.burst.median)} · p95 ${ms(results.burst.p95)} (n=${burst.length})`,
  );
  console.log(`a lone delivery:                     median ${ms(results.lone.median)} · p95 ${ms(results.lone.p95)} (n=${lone.length})`);
  console.log(`purchases credited exactly once: ${results.creditedExactlyOnce}/${ROUNDS}`);
  console.log(`(${ROUNDS} rounds in ${seconds.toFixed(1)} s, loopback, wrangler dev + embedded Postgres)`);
  if (wrong) process.exitCode = 1;

  try {
    results.js = await firstVisitScripts(base, cookie, [["/comprar-creditos", "/comprar-creditos"]], /comprar-creditos|PurchasePage/i);
    for (const [label, { files, gzip, routeChunks }] of Object.entries(results.js)) {
      console.log(`${label.padEnd(20)} loads ${String(files).padStart(2)} JS files = ${kb(gzip)} gzip (route chunks ${kb(routeChunks)})`);
    }
  } catch (error) {
    console.log(`(page JS sizes skipped: ${error.message})`);
  }
} finally {
  stop();
}
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/stripe-webhook.json", JSON.stringify(results, null, 2));
setTimeout(() => process.exit(process.exitCode ?? 0), 1500);
