#!/usr/bin/env node
// @ts-check
// Pronunciation game: the server's added time to a score over the scorer's own — POST
// /pronunciation-game/1 with a 2 s 16 kHz WAV (1 credit, the attempt's statement, the scorer, the
// recording to R2, the result, 303) minus what the scorer alone takes (the fake upstream's Azure REST
// endpoint, a fixed --delay ms, timed directly on the same loopback) — median and p95 over --attempts
// attempts one at a time; and the JavaScript the list and a level page load on a first visit (gzip).
//   node bench/pronunciation.mjs [--attempts 50] [--delay 150] [--build] [--smoke]
// By default the existing ./build is served (never rebuilt under a running server); --build rebuilds it.
// --smoke (bench/smoke.mjs): two attempts, no scorer delay.
// Its own ports, embedded database and data folder: it never meets `npm start` or the e2e server.
import { parseArgs } from "node:util";
import { benchDb, firstVisitScripts, percentile, printPageScripts, signInAsLearner, startApp, toneWav, writeResults } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    attempts: { type: "string", default: "50" },
    delay: { type: "string", default: "150" },
    build: { type: "boolean", default: false },
    smoke: { type: "boolean", default: false },
  },
});
const ATTEMPTS = opts.smoke ? 2 : Math.max(5, Math.min(500, Number(opts.attempts)));
const WARMUP = opts.smoke ? 1 : 3;
const DELAY_MS = opts.smoke ? 0 : Math.max(0, Number(opts.delay));

// 1. The fake scorer and the app on a fresh embedded database.
const app = await startApp({ name: "pronunciation", port: "8796", pgPort: "25396", upstreamPort: "4021", build: opts.build });
const { base } = app;
const upstream = /** @type {string} */ (app.upstream);

const ms = (/** @type {number} */ value) => `${value.toFixed(1)} ms`;

const recording = toneWav();

/** @typedef {{ median: number, p95: number }} Timing */
/** @type {{ attempts: number, scorerDelayMs: number, total?: Timing, scorerAlone?: Timing, added?: Timing, js?: unknown }} */
const results = { attempts: ATTEMPTS, scorerDelayMs: DELAY_MS };
let failed = false;
try {
  const cookie = await signInAsLearner(base);
  const delayNext = () => fetch(`${upstream}/__ai/next?mode=slow&delay=${DELAY_MS}`, { method: "POST" });

  /**
   * The scorer alone: the same Azure request the app makes, timed from here.
   * @param {string} sentence
   */
  async function scorerAlone(sentence) {
    await delayNext();
    const header = Buffer.from(
      JSON.stringify({
        ReferenceText: sentence,
        GradingSystem: "HundredMark",
        Granularity: "Phoneme",
        Dimension: "Comprehensive",
        EnableMiscue: true,
      }),
    ).toString("base64");
    const started = performance.now();
    const response = await fetch(`${upstream}/speech/recognition/conversation/cognitiveservices/v1?language=en-US&format=detailed`, {
      method: "POST",
      headers: {
        "Ocp-Apim-Subscription-Key": "test-azure-key",
        "Content-Type": "audio/wav; codecs=audio/pcm; samplerate=16000",
        Accept: "application/json",
        "Pronunciation-Assessment": header,
      },
      body: recording,
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`the fake scorer answered ${response.status}`);
    return performance.now() - started;
  }

  /** One attempt through the app, timed until the whole answer (a 303) is read. */
  async function attempt() {
    await delayNext();
    const form = new FormData();
    form.set("intent", "attempt");
    form.set("audio", new Blob([recording], { type: "audio/wav" }), "gravacao.wav");
    const started = performance.now();
    const response = await fetch(`${base}/pronunciation-game/1`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie },
      body: form,
    });
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (response.status !== 303) throw new Error(`an attempt answered ${response.status}`);
    return elapsed;
  }

  // The level's sentence, read as the app reads it (the same embedded database).
  const { db, pool, sql } = await benchDb(app.vars);
  const sentence = String((await db.execute(sql`select sentence from pronunciation_levels where level = 1`)).rows[0].sentence);
  await pool.end();

  // 2. Warm-up, then ATTEMPTS attempts and as many direct scorer calls, interleaved, one at a time.
  for (let i = 0; i < WARMUP; i++) {
    await attempt();
    await scorerAlone(sentence);
  }
  /** @type {number[]} */
  const total = [];
  /** @type {number[]} */
  const alone = [];
  const wall = performance.now();
  for (let i = 0; i < ATTEMPTS; i++) {
    total.push(await attempt());
    alone.push(await scorerAlone(sentence));
  }
  const seconds = (performance.now() - wall) / 1000;
  const aloneMedian = percentile(alone, 0.5);
  const added = total.map((t) => t - aloneMedian);
  const timings = {
    total: { median: percentile(total, 0.5), p95: percentile(total, 0.95) },
    scorerAlone: { median: aloneMedian, p95: percentile(alone, 0.95) },
    added: { median: percentile(added, 0.5), p95: percentile(added, 0.95) },
  };
  Object.assign(results, timings);
  console.log(`attempt (POST /pronunciation-game/1 → 303)   median ${ms(timings.total.median)} · p95 ${ms(timings.total.p95)} (n=${ATTEMPTS})`);
  console.log(`the scorer alone (fake Azure, ${DELAY_MS} ms delay) median ${ms(aloneMedian)} · p95 ${ms(timings.scorerAlone.p95)}`);
  console.log(`server's added time                        median ${ms(timings.added.median)} · p95 ${ms(timings.added.p95)}`);
  console.log(
    `(${ATTEMPTS} attempts + ${ATTEMPTS} direct scorer calls in ${seconds.toFixed(1)} s, one at a time, loopback, wrangler dev + embedded Postgres)`,
  );

  // 3. JavaScript the list and a level page load on a first visit (empty cache), gzip.
  const js = await firstVisitScripts(
    base,
    cookie,
    [
      ["/pronunciation-game (list)", "/pronunciation-game"],
      ["/pronunciation-game/1 (level)", "/pronunciation-game/1"],
    ],
    /pronunciation|LevelGrid|LevelScreen|ResultView|ScoreRing/i,
    opts.smoke,
  );
  results.js = js;
  printPageScripts(js);
  writeResults("pronunciation", results, opts.smoke);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await app.stop();
}
process.exit(failed ? 1 : 0);
