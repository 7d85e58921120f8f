#!/usr/bin/env node
// Dev-time only: the spoken English word of every flashcard, as a small MP3.
//   node scripts/content/word-audio.mjs [--force]
// For each card of content/flashcards/cards.json: eSpeak NG (American English) → 16-bit WAV → silence trimmed and
// peak-normalised here → LAME (mono, 22.05 kHz, 32 kbps CBR) → content/flashcards/audio/<card-id>.mp3.
// The generated files are committed as data. A file is skipped when it exists and was made for the same word with
// the same settings (recorded in audio/index.json), unless --force; files of cards that no longer exist are removed.
// Needs `espeak-ng` and `lame` on PATH (apt-get install espeak-ng lame). eSpeak NG is GPL-3.0: a tool that makes
// data, never bundled with the app.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { readWav, tool, writeWav } from "./audio-tools.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const contentDir = join(root, "content", "flashcards");
const audioDir = join(contentDir, "audio");
const indexFile = join(audioDir, "index.json");

const { values: opts } = parseArgs({ options: { force: { type: "boolean", default: false } } });

/** Voice and encoder settings; changing them regenerates every file. */
const ESPEAK_ARGS = ["-v", "en-us", "-s", "140", "-a", "100"];
const LAME_ARGS = ["-m", "m", "--resample", "22.05", "-b", "32", "-q", "2", "--noreplaygain", "--silent"];
const SETTINGS = `espeak-ng ${ESPEAK_ARGS.join(" ")} | trim+normalise -1 dB | lame ${LAME_ARGS.join(" ")}`;

const SILENCE = 0.015; // below 1.5 % of full scale counts as silence when trimming
const PAD_BEFORE = 0.03; // seconds kept before the first sound
const PAD_AFTER = 0.06; // seconds kept after the last sound (the tail of the word decays slowly)
const PEAK = 0.89; // ≈ -1 dBFS

/** Cuts the leading and trailing silence (keeping a little padding) and scales the peak to PEAK. */
function trimAndNormalise({ rate, samples }) {
  const threshold = SILENCE * 32767;
  let first = samples.findIndex((s) => Math.abs(s) > threshold);
  if (first < 0) throw new Error("eSpeak produced silence");
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last]) <= threshold) last--;
  first = Math.max(0, first - Math.round(PAD_BEFORE * rate));
  last = Math.min(samples.length - 1, last + Math.round(PAD_AFTER * rate));
  const cut = samples.slice(first, last + 1);
  const peak = cut.reduce((max, s) => Math.max(max, Math.abs(s)), 1);
  const gain = (PEAK * 32767) / peak;
  const out = new Int16Array(cut.length);
  const fade = Math.round(0.01 * rate); // 10 ms fade-out so the cut never clicks
  for (let i = 0; i < cut.length; i++) {
    const tail = cut.length - 1 - i;
    const envelope = tail < fade ? tail / fade : 1;
    out[i] = Math.max(-32768, Math.min(32767, Math.round(cut[i] * gain * envelope)));
  }
  return { rate, samples: out };
}

function speak(word) {
  const wav = tool("espeak-ng", [...ESPEAK_ARGS, "--stdout", word]);
  const { rate, samples } = trimAndNormalise(readWav(wav));
  return tool("lame", [...LAME_ARGS, "-", "-"], writeWav(samples, rate));
}

function main() {
  const { cards } = JSON.parse(readFileSync(join(contentDir, "cards.json"), "utf8"));
  mkdirSync(audioDir, { recursive: true });
  const previous = existsSync(indexFile) ? JSON.parse(readFileSync(indexFile, "utf8")) : { settings: "", words: {} };
  const sameSettings = previous.settings === SETTINGS;
  const words = {};
  let made = 0;
  for (const card of cards) {
    const file = join(audioDir, `${card.id}.mp3`);
    words[card.id] = card.word;
    if (!opts.force && sameSettings && previous.words?.[card.id] === card.word && existsSync(file)) continue;
    writeFileSync(file, speak(card.word));
    made++;
  }
  let removed = 0;
  for (const name of readdirSync(audioDir)) {
    if (name.endsWith(".mp3") && !(name.slice(0, -4) in words)) {
      rmSync(join(audioDir, name));
      removed++;
    }
  }
  writeFileSync(indexFile, `${JSON.stringify({ settings: SETTINGS, words }, null, 2)}\n`);
  const total = cards.reduce((sum, card) => sum + statSync(join(audioDir, `${card.id}.mp3`)).size, 0);
  console.log(
    `[word-audio] ${cards.length} words (${made} generated, ${cards.length - made} kept${removed ? `, ${removed} stale removed` : ""}), ` +
      `${total} bytes, ${Math.round(total / cards.length)} bytes per word → ${audioDir.slice(root.length + 1)}/`,
  );
}

main();
