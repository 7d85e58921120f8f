#!/usr/bin/env node
// Pronunciation game: the server's added time to a score over the scorer's own — POST
// /pronunciation-game/1 with a 2 s 16 kHz WAV (1 credit, the attempt's statement, the scorer, the
// recording to R2, the result, 303) minus what the scorer alone takes (the fake upstream's Azure REST
// endpoint, a fixed --delay ms, timed directly on the same loopback) — median and p95 over --attempts
// attempts one at a time; and the JavaScript the list and a level page load on a first visit (gzip).
//   node bench/pronunciation.mjs [--attempts 50] [--delay 150] [--build]
// By default the existing ./build is served (never rebuilt under a running server); --build rebuilds it.
// Its own ports, embedded database and data folder: it never meets `npm start` or the e2e server.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { benchDb, firstVisitScripts, kb, percentile, requireFreePorts, signInAsLearner, toneWav, untilReady, writeBenchVars } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    attempts: { type: "string", default: "50" },
    delay: { type: "string", default: "150" },
    build: { type: "boolean", default: false },
  },
});
const ATTEMPTS = Math.max(5, Math.min(500, Number(opts.attempts)));
const DELAY_MS = Math.max(0, Number(opts.delay));
const port = "8796";
const pgPort = "25396";
const providerPort = "4021";
const provider = `http://127.0.0.1:${providerPort}`;
const azureKey = "bench-azure-key";
const base = `http://127.0.0.1:${port}`;
const vars = ".cache/bench-pronunciation.vars";

await requireFreePorts([port, pgPort, providerPort]);

writeBenchVars(vars, {
  port,
  pgPort,
  extra: `\nAZURE_SPEECH_KEY=${azureKey}\nAZURE_SPEECH_ENDPOINT=${provider}\nMONTHLY_CREDITS=100000\n`,
});

// 1. The fake scorer and the app on a fresh embedded database.
const fake = spawn("node", ["tests/fake-upstream/server.mjs", "--port", providerPort, "--azure-key", azureKey], { stdio: "ignore" });
const startArgs = ["--env-file", vars, "--port", port, "--data", ".cache/bench-pronunciation", "--fresh", "--quiet-wrangler"];
const child = spawn("node", ["scripts/start.mjs", ...startArgs, ...(opts.build ? [] : ["--no-build"])], {
  stdio: ["ignore", "ignore", "inherit", "ipc"],
});
const stop = () => (child.kill("SIGTERM"), fake.kill("SIGTERM"));
process.on("SIGINT", () => (stop(), process.exit(130)));
await untilReady(child);

const ms = (value) => `${value.toFixed(1)} ms`;

const recording = toneWav();

const results = { attempts: ATTEMPTS, scorerDelayMs: DELAY_MS };
try {
  const cookie = await signInAsLearner(base);
  const delayNext = () => fetch(`${provider}/__ai/next?mode=slow&delay=${DELAY_MS}`, { method: "POST" });

  /** The scorer alone: the same Azure request the app makes, timed from here. */
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
    const response = await fetch(`${provider}/speech/recognition/conversation/cognitiveservices/v1?language=en-US&format=detailed`, {
      method: "POST",
      headers: {
        "Ocp-Apim-Subscription-Key": azureKey,
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
  const { db, pool, sql } = await benchDb(vars);
  const sentence = String((await db.execute(sql`select sentence from pronunciation_levels where level = 1`)).rows[0].sentence);
  await pool.end();

  // 2. Warm-up, then ATTEMPTS attempts and as many direct scorer calls, interleaved, one at a time.
  for (let i = 0; i < 3; i++) {
    await attempt();
    await scorerAlone(sentence);
  }
  const total = [];
  const alone = [];
  const wall = performance.now();
  for (let i = 0; i < ATTEMPTS; i++) {
    total.push(await attempt());
    alone.push(await scorerAlone(sentence));
  }
  const seconds = (performance.now() - wall) / 1000;
  const aloneMedian = percentile(alone, 0.5);
  const added = total.map((t) => t - aloneMedian);
  results.total = { median: percentile(total, 0.5), p95: percentile(total, 0.95) };
  results.scorerAlone = { median: aloneMedian, p95: percentile(alone, 0.95) };
  results.added = { median: percentile(added, 0.5), p95: percentile(added, 0.95) };
  console.log(`attempt (POST /pronunciation-game/1 → 303)   median ${ms(results.total.median)} · p95 ${ms(results.total.p95)} (n=${ATTEMPTS})`);
  console.log(`the scorer alone (fake Azure, ${DELAY_MS} ms delay) median ${ms(aloneMedian)} · p95 ${ms(results.scorerAlone.p95)}`);
  console.log(`server's added time                        median ${ms(results.added.median)} · p95 ${ms(results.added.p95)}`);
  console.log(
    `(${ATTEMPTS} attempts + ${ATTEMPTS} direct scorer calls in ${seconds.toFixed(1)} s, one at a time, loopback, wrangler dev + embedded Postgres)`,
  );

  // 3. JavaScript the list and a level page load on a first visit (empty cache), gzip.
  try {
    results.js = await firstVisitScripts(
      base,
      cookie,
      [
        ["/pronunciation-game (list)", "/pronunciation-game"],
        ["/pronunciation-game/1 (level)", "/pronunciation-game/1"],
      ],
      /pronunciation|LevelGrid|LevelScreen|ResultView|ScoreRing/i,
    );
    for (const [label, { files, gzip, routeChunks }] of Object.entries(results.js)) {
      console.log(`${label.padEnd(30)} loads ${String(files).padStart(2)} JS files = ${kb(gzip)} gzip (route chunks ${kb(routeChunks)})`);
    }
  } catch (error) {
    console.log(`(page JS sizes skipped: ${error.message})`);
  }
} finally {
  stop();
}
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/pronunciation.json", JSON.stringify(results, null, 2));
setTimeout(() => process.exit(0), 1500);
