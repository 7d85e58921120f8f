#!/usr/bin/env node
// Dev-time only: synthesises the flashcard feedback sounds (no speech, no samples: sine and triangle notes with a
// soft envelope) and encodes them with LAME.
//   node scripts/content/feedback-sounds.mjs
// Writes content/flashcards/sounds/{correct,incorrect,perfect,good,okay,poor}.mp3 (committed). Deterministic: the
// same script gives byte-identical files. Needs `lame` on PATH.
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tool, writeWav } from "./audio-tools.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const soundsDir = join(root, "content", "flashcards", "sounds");

const RATE = 22050;
const LAME_ARGS = ["-m", "m", "-b", "48", "-q", "2", "--noreplaygain", "--silent"];

/** Frequency of a note name such as "C5", "F#4" or "Bb3" (A4 = 440 Hz). */
function hz(note) {
  const match = /^([A-G])([#b]?)(\d)$/.exec(note);
  if (!match) throw new Error(`bad note ${note}`);
  const semitone = { C: -9, D: -7, E: -5, F: -4, G: -2, A: 0, B: 2 }[match[1]] + (match[2] === "#" ? 1 : match[2] === "b" ? -1 : 0);
  return 440 * 2 ** (semitone / 12 + (Number(match[3]) - 4));
}

const waves = {
  /** A bell-like sine with a quiet octave and twelfth. */
  chime: (phase) => Math.sin(phase) + 0.25 * Math.sin(2 * phase) + 0.08 * Math.sin(3 * phase),
  /** A plain sine: the softest colour. */
  sine: (phase) => Math.sin(phase),
  /** A triangle: rounder than a square, warmer than a sine. */
  triangle: (phase) => (2 / Math.PI) * Math.asin(Math.sin(phase)),
};

/**
 * Renders notes into one buffer. Each note: start (s), note name, length (s) before its release, volume (0–1),
 * waveform; an attack of 8 ms, an exponential decay while held, then a release of `release` seconds.
 */
function render(notes, { release = 0.25, decay = 3 } = {}) {
  const end = Math.max(...notes.map((n) => n.at + n.length + release)) + 0.02;
  const mix = new Float64Array(Math.ceil(end * RATE));
  for (const { at, note, length, volume = 0.5, wave = "chime" } of notes) {
    const frequency = hz(note);
    const start = Math.round(at * RATE);
    const total = Math.round((length + release) * RATE);
    for (let i = 0; i < total; i++) {
      const t = i / RATE;
      const attack = Math.min(1, t / 0.008);
      const held = Math.exp(-decay * Math.min(t, length));
      const released = t > length ? Math.exp(-(t - length) / (release / 5)) : 1;
      mix[start + i] += volume * attack * held * released * waves[wave](2 * Math.PI * frequency * t);
    }
  }
  const peak = mix.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
  const gain = peak > 0.7 ? 0.7 / peak : 1; // feedback sits below the speech (the player also sets volume 0.7)
  return Int16Array.from(mix, (s) => Math.round(s * gain * 32767));
}

const notes = (list, step, length, options = {}) => list.map((note, i) => ({ at: i * step, note, length, ...options }));

const SOUNDS = {
  /** Rising two-note chime. */
  correct: render(notes(["A5", "E6"], 0.09, 0.12, { volume: 0.5 }), { release: 0.3 }),
  /** Soft, low double tone (not a buzzer). */
  incorrect: render(notes(["E3", "E3"], 0.16, 0.1, { volume: 0.6, wave: "triangle" }), { release: 0.12, decay: 5 }),
  /** Short fanfare: a C-major arpeggio that lands on a held chord. */
  perfect: render(
    [
      ...notes(["C5", "E5", "G5"], 0.1, 0.09, { volume: 0.45 }),
      ...["C6", "G5", "E5", "C5"].map((note, i) => ({ at: 0.3, note, length: 0.45, volume: i === 0 ? 0.45 : 0.25 })),
    ],
    { release: 0.5, decay: 1.5 },
  ),
  /** Three rising notes. */
  good: render(notes(["C5", "E5", "G5"], 0.13, 0.12, { volume: 0.5 }), { release: 0.35 }),
  /** Two notes, a friendly fourth up. */
  okay: render(notes(["G4", "C5"], 0.16, 0.14, { volume: 0.5 }), { release: 0.3 }),
  /** Gentle descending pair, soft sines (encouraging, not a fail sound). */
  poor: render(notes(["E5", "C5"], 0.22, 0.18, { volume: 0.5, wave: "sine" }), { release: 0.35, decay: 2 }),
};

function main() {
  mkdirSync(soundsDir, { recursive: true });
  let total = 0;
  for (const [name, samples] of Object.entries(SOUNDS)) {
    const file = join(soundsDir, `${name}.mp3`);
    writeFileSync(file, tool("lame", [...LAME_ARGS, "-", "-"], writeWav(samples, RATE)));
    total += statSync(file).size;
    console.log(`  ${name}.mp3  ${(samples.length / RATE).toFixed(2)} s  ${statSync(file).size} bytes`);
  }
  console.log(`[feedback-sounds] ${Object.keys(SOUNDS).length} sounds, ${total} bytes → content/flashcards/sounds/`);
}

main();
