#!/usr/bin/env node
// Dev-time only: the shipped spoken English — every flashcard's word and every pronunciation level's reference
// sentence — as small MP3s.
//   node scripts/content/word-audio.mjs [--set flashcards|pronunciation|all] [--force]
//   flashcards     content/flashcards/cards.json      → content/flashcards/audio/<card-id>.mp3      (eSpeak -s 140)
//   pronunciation  content/pronunciation/levels.json  → content/pronunciation/audio/level-NNN.mp3   (eSpeak -s 130:
//                  a sentence a learner repeats is spoken a little slower than a single word)
// Each text: eSpeak NG (American English) → 16-bit WAV → silence trimmed and peak-normalised here → LAME (mono,
// 22.05 kHz, 32 kbps CBR). The generated files are committed as data. A file is skipped when it exists and was made
// from the same text with the same settings (recorded in the set's audio/index.json), unless --force; files of items
// that no longer exist are removed. Needs `espeak-ng` and `lame` on PATH (apt-get install espeak-ng lame).
// eSpeak NG is GPL-3.0: a tool that makes data, never bundled with the app.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { readWav, tool, writeWav } from "./audio-tools.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const { values: opts } = parseArgs({
  options: { force: { type: "boolean", default: false }, set: { type: "string", default: "all" } },
});

const LAME_ARGS = ["-m", "m", "--resample", "22.05", "-b", "32", "-q", "2", "--noreplaygain", "--silent"];
/** The voice of each set; changing a set's settings regenerates every file of that set. */
const espeakArgs = (speed) => ["-v", "en-us", "-s", String(speed), "-a", "100"];
const settingsOf = (args) => `espeak-ng ${args.join(" ")} | trim+normalise -1 dB | lame ${LAME_ARGS.join(" ")}`;

/** The key of a level's reference audio (its file name, and audio_asset in pronunciation_levels). */
const levelAsset = (level) => `level-${String(level).padStart(3, "0")}`;

/**
 * Each set: where its texts come from, where its MP3s and index go, and the name of the index's text map
 * ("words" for the flashcards, kept from before the sentences existed, so their index and files stay as they are).
 */
const SETS = {
  flashcards: {
    dir: join(root, "content", "flashcards", "audio"),
    espeak: espeakArgs(140),
    indexKey: "words",
    unit: "word",
    items: () =>
      JSON.parse(readFileSync(join(root, "content", "flashcards", "cards.json"), "utf8")).cards.map((card) => ({
        id: card.id,
        text: card.word,
      })),
  },
  pronunciation: {
    dir: join(root, "content", "pronunciation", "audio"),
    espeak: espeakArgs(130),
    indexKey: "sentences",
    unit: "sentence",
    items: () =>
      JSON.parse(readFileSync(join(root, "content", "pronunciation", "levels.json"), "utf8")).levels.map((level) => ({
        id: levelAsset(level.level),
        text: level.sentence,
      })),
  },
};

if (opts.set !== "all" && !(opts.set in SETS)) {
  console.error(`usage: node scripts/content/word-audio.mjs [--set ${Object.keys(SETS).join("|")}|all] [--force]`);
  process.exit(1);
}

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

function speak(text, espeak) {
  const wav = tool("espeak-ng", [...espeak, "--stdout", text]);
  const { rate, samples } = trimAndNormalise(readWav(wav));
  return tool("lame", [...LAME_ARGS, "-", "-"], writeWav(samples, rate));
}

function generate(name, { dir, espeak, indexKey, unit, items: read }) {
  const items = read();
  const settings = settingsOf(espeak);
  const indexFile = join(dir, "index.json");
  mkdirSync(dir, { recursive: true });
  const previous = existsSync(indexFile) ? JSON.parse(readFileSync(indexFile, "utf8")) : { settings: "", [indexKey]: {} };
  const sameSettings = previous.settings === settings;
  const texts = {};
  let made = 0;
  for (const { id, text } of items) {
    const file = join(dir, `${id}.mp3`);
    texts[id] = text;
    if (!opts.force && sameSettings && previous[indexKey]?.[id] === text && existsSync(file)) continue;
    writeFileSync(file, speak(text, espeak));
    made++;
  }
  let removed = 0;
  for (const fileName of readdirSync(dir)) {
    if (fileName.endsWith(".mp3") && !(fileName.slice(0, -4) in texts)) {
      rmSync(join(dir, fileName));
      removed++;
    }
  }
  const indexText = `${JSON.stringify({ settings, [indexKey]: texts }, null, 2)}\n`;
  if (!existsSync(indexFile) || readFileSync(indexFile, "utf8") !== indexText) writeFileSync(indexFile, indexText);
  const total = items.reduce((sum, { id }) => sum + statSync(join(dir, `${id}.mp3`)).size, 0);
  console.log(
    `[word-audio] ${name}: ${items.length} ${unit}s (${made} generated, ${items.length - made} kept${removed ? `, ${removed} stale removed` : ""}), ` +
      `${total} bytes, ${Math.round(total / items.length)} bytes per ${unit} → ${dir.slice(root.length + 1)}/`,
  );
}

for (const [name, set] of Object.entries(SETS)) {
  if (opts.set === "all" || opts.set === name) generate(name, set);
}
