#!/usr/bin/env node
// @ts-check
// Stripe webhook under duplicate deliveries (issue 12): for each of --rounds purchases, the learner starts a
// checkout through the app (POST /comprar-creditos), the fake Stripe marks it paid without telling anyone, then
// delivers the SAME signed `checkout.session.completed` 20 times at once to POST /api/stripe/webhook. Prints the
// handling time of a delivery (median, p95 over every delivery), a lone delivery for comparison, and checks that
// each purchase added its pack's credits exactly once (exits 1 otherwise). Plus the JS the purchase page loads on a
// first visit.
//   node bench/stripe-webhook.mjs [--rounds 10] [--build] [--smoke]
// By default the existing ./build is served; --build rebuilds it. --smoke (bench/smoke.mjs): one round.
// Its own ports, database and data folder.
import { parseArgs } from "node:util";
import { benchDb, firstVisitScripts, percentile, printPageScripts, signInAsLearner, startApp, writeResults } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    rounds: { type: "string", default: "10" },
    build: { type: "boolean", default: false },
    smoke: { type: "boolean", default: false },
  },
});
const ROUNDS = opts.smoke ? 1 : Math.max(2, Math.min(100, Number(opts.rounds)));
const WARMUP = opts.smoke ? 1 : 2;
const CONCURRENT = 20;
const PACK = { id: "150", credits: 150 };

const app = await startApp({ name: "stripe", port: "8795", pgPort: "25397", upstreamPort: "4022", build: opts.build });
const { base } = app;
const stripe = /** @type {string} */ (app.upstream);

const ms = (/** @type {number} */ value) => `${value.toFixed(1)} ms`;
/**
 * A test hook of the fake Stripe (POST, JSON answer).
 * @param {string} url
 * @returns {Promise<any>}
 */
const post = async (url) => (await fetch(url, { method: "POST" })).json();
/** @typedef {{ median: number, p95: number, deliveries: number }} Timing */
/** @type {{ rounds: number, concurrent: number, burst?: Timing, lone?: Timing, creditedExactlyOnce?: number, js?: unknown }} */
const results = { rounds: ROUNDS, concurrent: CONCURRENT };
let failed = false;
try {
  const cookie = await signInAsLearner(base);
  const { db, pool, sql } = await benchDb(app.vars);
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
    const location = response.headers.get("Location");
    if (response.status !== 303 || !location) throw new Error(`checkout answered ${response.status}`);
    const sessionId = new URL(location).pathname.split("/").pop();
    const paid = await post(`${stripe}/__stripe/sessions/${sessionId}/pay?method=card&deliver=0`);
    if (paid.session?.payment_status !== "paid") throw new Error("the fake did not mark the session paid");
    return sessionId;
  }

  // Warm-up (first requests compile and open connections).
  for (let i = 0; i < WARMUP; i++) await post(`${stripe}/__stripe/sessions/${await paidSession()}/send?type=checkout.session.completed`);

  /** @type {number[]} */
  const burst = [];
  /** @type {number[]} */
  const lone = [];
  let wrong = 0;
  const wall = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    const before = await balance();
    const sessionId = await paidSession();
    /** @type {{ statuses: number[], ms: number[] }} */
    const delivered = await post(`${stripe}/__stripe/sessions/${sessionId}/send?type=checkout.session.completed&count=${CONCURRENT}`);
    if (delivered.statuses.some((status) => status !== 200)) throw new Error(`a delivery answered ${delivered.statuses.join(",")}`);
    burst.push(...delivered.ms);
    if ((await balance()) - before !== PACK.credits) wrong++;
    /** @type {{ ms: number[] }} */
    const single = await post(`${stripe}/__stripe/sessions/${await paidSession()}/send?type=checkout.session.completed`);
    lone.push(...single.ms);
  }
  const seconds = (performance.now() - wall) / 1000;
  await pool.end();
  const timings = {
    burst: { median: percentile(burst, 0.5), p95: percentile(burst, 0.95), deliveries: burst.length },
    lone: { median: percentile(lone, 0.5), p95: percentile(lone, 0.95), deliveries: lone.length },
  };
  Object.assign(results, timings, { creditedExactlyOnce: ROUNDS - wrong });
  console.log(
    `${CONCURRENT} concurrent deliveries of one event: median ${ms(timings.burst.median)} · p95 ${ms(timings.burst.p95)} (n=${burst.length})`,
  );
  console.log(`a lone delivery:                     median ${ms(timings.lone.median)} · p95 ${ms(timings.lone.p95)} (n=${lone.length})`);
  console.log(`purchases credited exactly once: ${ROUNDS - wrong}/${ROUNDS}`);
  console.log(`(${ROUNDS} rounds in ${seconds.toFixed(1)} s, loopback, wrangler dev + embedded Postgres)`);
  if (wrong) failed = true;

  const js = await firstVisitScripts(base, cookie, [["/comprar-creditos", "/comprar-creditos"]], /comprar-creditos|PurchasePage/i, opts.smoke);
  results.js = js;
  printPageScripts(js);
  writeResults("stripe-webhook", results, opts.smoke);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await app.stop();
}
process.exit(failed ? 1 : 0);
