#!/usr/bin/env node
// @ts-check
// Quality bar (b): encode 10 s of audio to a 16 kHz mono 16-bit WAV with the pure path
// (44.1 kHz stereo sine → toMono → resampleLinear → encodeWav). Target ≤ 30 ms at the median; exits 1 when missed.
//   node bench/wav.mjs [--smoke]      (app/lib/audio/wav.ts through tsx)
// --smoke (bench/smoke.mjs): two runs, the target reported but not enforced.
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { writeResults } from "./lib.mjs";

const { values: opts } = parseArgs({ options: { smoke: { type: "boolean", default: false } } });
const RUNS = opts.smoke ? 2 : 20;
const WARMUP = opts.smoke ? 1 : 3;
const SOURCE_RATE = 44_100;
const SECONDS = 10;
const TARGET_MS = 30;

register();
const { encodeWav, resampleLinear, toMono } = await import("../app/lib/audio/wav.ts");

const n = SOURCE_RATE * SECONDS;
const left = new Float32Array(n);
const right = new Float32Array(n);
for (let i = 0; i < n; i++) {
  left[i] = 0.6 * Math.sin((2 * Math.PI * 440 * i) / SOURCE_RATE);
  right[i] = 0.6 * Math.sin((2 * Math.PI * 660 * i) / SOURCE_RATE);
}

function once() {
  const t0 = performance.now();
  const wav = encodeWav(resampleLinear(toMono([left, right]), SOURCE_RATE, 16_000), 16_000);
  const ms = performance.now() - t0;
  if (wav.length !== 44 + 2 * 16_000 * SECONDS) throw new Error(`unexpected WAV size ${wav.length}`);
  return ms;
}

for (let i = 0; i < WARMUP; i++) once();
const times = Array.from({ length: RUNS }, once).sort((a, b) => a - b);
const median = (times[RUNS / 2 - 1] + times[RUNS / 2]) / 2;
const result = {
  bench: "wav-encode-10s",
  runs: RUNS,
  medianMs: Number(median.toFixed(2)),
  minMs: Number(times[0].toFixed(2)),
  maxMs: Number(times[RUNS - 1].toFixed(2)),
  targetMs: TARGET_MS,
  pass: median <= TARGET_MS,
  node: process.version,
};
console.log(
  `wav encode (10 s, 44.1 kHz stereo → 16 kHz mono WAV, pure path): median ${result.medianMs} ms over ${RUNS} runs ` +
    `(min ${result.minMs}, max ${result.maxMs}); target ≤ ${TARGET_MS} ms → ${result.pass ? "PASS" : "FAIL"}`,
);
writeResults("wav", result, opts.smoke);
process.exitCode = result.pass || opts.smoke ? 0 : 1;
