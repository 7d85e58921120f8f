#!/usr/bin/env node
// Build time (npm run build's prebuild, npm test and npm start before `remix vite:build`; or `npm run content:assets`):
// turns the shipped content (content/flashcards/, content/pronunciation/) into static assets with fingerprinted names
// and a small manifest per feature.
//   node scripts/content/content-assets.mjs [--out DIR] [--flashcards-manifest FILE] [--pronunciation-manifest FILE]
//                                           [--url-base /content]
// Flashcards: reads cards.json and the 9 MB icons.json of @iconify-json/fluent-emoji-flat once (only this script ever
// reads it), writes one standalone SVG per card picture, category tile and result-tier image, and copies the word
// audio and the feedback sounds. Pronunciation: reads levels.json and copies each level's reference sentence audio.
// Every file is written as <name>.<first 10 hex of sha256>.<ext> into public/content/<set>/ (served by the worker's
// static assets, cached immutably: public/_headers); the files of earlier runs that are no longer wanted are deleted;
// the manifests are app/features/flashcards/content.generated.json and
// app/features/pronunciation/content.generated.json. Fast (no network, unchanged files not rewritten). All outputs
// are generated, never committed. Overrides for tests: CONTENT_ASSETS_OUT (the public/content directory),
// CONTENT_ASSETS_FLASHCARDS_MANIFEST, CONTENT_ASSETS_PRONUNCIATION_MANIFEST.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

const { values: opts } = parseArgs({
  options: {
    out: { type: "string", default: process.env.CONTENT_ASSETS_OUT ?? join(root, "public", "content") },
    "flashcards-manifest": {
      type: "string",
      default: process.env.CONTENT_ASSETS_FLASHCARDS_MANIFEST ?? join(root, "app", "features", "flashcards", "content.generated.json"),
    },
    "pronunciation-manifest": {
      type: "string",
      default: process.env.CONTENT_ASSETS_PRONUNCIATION_MANIFEST ?? join(root, "app", "features", "pronunciation", "content.generated.json"),
    },
    "url-base": { type: "string", default: "/content" },
  },
});
const outRoot = resolve(opts.out);
const urlRoot = opts["url-base"].replace(/\/$/, "");

/** The names this script writes; anything else in an output directory is left alone. */
const FINGERPRINTED = /^[a-z0-9-]+\.[0-9a-f]{10}\.(svg|mp3)$/;

const problems = [];

function readSource(file) {
  if (existsSync(file)) return readFileSync(file);
  problems.push(`missing ${relative(root, file)} (node scripts/content/word-audio.mjs / feedback-sounds.mjs)`);
  return null;
}

/** One set of shipped files (public/content/<name>/, URL <url-base>/<name>/…): file name → bytes to ship. */
function assetSet(name) {
  const wanted = new Map();
  const urlBase = `${urlRoot}/${name}`;
  return {
    name,
    dir: join(outRoot, name),
    wanted,
    /** Registers a file to ship and returns its URL ("" when its source is missing: a problem is recorded). */
    asset(fileName, ext, bytes) {
      if (!bytes) return "";
      const full = `${fileName}.${createHash("sha256").update(bytes).digest("hex").slice(0, 10)}.${ext}`;
      wanted.set(full, bytes);
      return `${urlBase}/${full}`;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Flashcards (content/flashcards/, decision 0013)

const TIERS = ["perfect", "good", "okay", "poor"];
const SOUNDS = ["correct", "incorrect", ...TIERS];

const flashcardsDir = join(root, "content", "flashcards");
const cardsJson = JSON.parse(readFileSync(join(flashcardsDir, "cards.json"), "utf8"));
const iconsPath = createRequire(import.meta.url).resolve("@iconify-json/fluent-emoji-flat/icons.json");
const iconSet = JSON.parse(readFileSync(iconsPath, "utf8"));

/** A standalone SVG document for an icon of the set (aliases resolved, their flips and rotations applied). */
function svgOf(name) {
  const transforms = { hFlip: false, vFlip: false, rotate: 0 };
  let current = name;
  for (let depth = 0; depth < 8 && !iconSet.icons[current]; depth++) {
    const alias = iconSet.aliases?.[current];
    if (!alias) break;
    transforms.hFlip = transforms.hFlip !== Boolean(alias.hFlip);
    transforms.vFlip = transforms.vFlip !== Boolean(alias.vFlip);
    transforms.rotate = (transforms.rotate + (alias.rotate ?? 0)) % 4;
    current = alias.parent;
  }
  const icon = iconSet.icons[current];
  if (!icon) {
    problems.push(`icon "${name}" is not in @iconify-json/fluent-emoji-flat`);
    return null;
  }
  const left = icon.left ?? iconSet.left ?? 0;
  const top = icon.top ?? iconSet.top ?? 0;
  const width = icon.width ?? iconSet.width ?? 16;
  const height = icon.height ?? iconSet.height ?? 16;
  const steps = [];
  if (transforms.hFlip) steps.push(`translate(${2 * left + width} 0) scale(-1 1)`);
  if (transforms.vFlip) steps.push(`translate(0 ${2 * top + height}) scale(1 -1)`);
  if (transforms.rotate) steps.push(`rotate(${transforms.rotate * 90} ${left + width / 2} ${top + height / 2})`);
  const body = steps.length ? `<g transform="${steps.join(" ")}">${icon.body}</g>` : icon.body;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="${left} ${top} ${width} ${height}">${body}</svg>`);
}

const flashcards = assetSet("flashcards");
const asset = flashcards.asset;

const flashcardsManifest = {
  categories: cardsJson.categories.map((category) => ({
    slug: category.slug,
    name: category.name,
    tileUrl: asset(`category-${category.slug}`, "svg", svgOf(category.icon)),
  })),
  cards: cardsJson.cards.map((card) => ({
    id: card.id,
    category: card.category,
    word: card.word,
    translation: card.translation,
    distractorGroup: card.distractorGroup,
    // Opaque names: a question's picture must not tell its answer (the URL is in the page before answering).
    imageUrl: asset("card", "svg", svgOf(card.icon)),
    audioUrl: asset("word", "mp3", readSource(join(flashcardsDir, "audio", `${card.id}.mp3`))),
  })),
  tiers: Object.fromEntries(
    TIERS.map((tier) => [
      tier,
      {
        imageUrl: asset(`tier-${tier}`, "svg", svgOf(cardsJson.tiers?.[tier] ?? "")),
        soundUrl: asset(`sound-${tier}`, "mp3", readSource(join(flashcardsDir, "sounds", `${tier}.mp3`))),
      },
    ]),
  ),
  sounds: Object.fromEntries(
    SOUNDS.slice(0, 2).map((sound) => [sound, asset(`sound-${sound}`, "mp3", readSource(join(flashcardsDir, "sounds", `${sound}.mp3`)))]),
  ),
};
// The sizes of what an offline download holds (a card's picture and word, the feedback's sounds and pictures), so its
// size is known before it starts: beside each card (numbers only, little for the worker to carry) and by URL for the
// game's own files.
const bytesAt = (url) => flashcards.wanted.get(url.slice(url.lastIndexOf("/") + 1))?.length ?? 0;
for (const card of flashcardsManifest.cards) Object.assign(card, { imageBytes: bytesAt(card.imageUrl), audioBytes: bytesAt(card.audioUrl) });
flashcardsManifest.feedbackBytes = Object.fromEntries(
  [
    ...Object.values(flashcardsManifest.sounds),
    ...Object.values(flashcardsManifest.tiers).flatMap((tier) => [tier.imageUrl, tier.soundUrl]),
  ].map((url) => [url, bytesAt(url)]),
);

// ---------------------------------------------------------------------------------------------------------------
// Pronunciation (content/pronunciation/): the reference audio of each level, keyed like the database's
// pronunciation_levels.audio_asset ("level-001"), and the bands with their tips.

const pronunciationDir = join(root, "content", "pronunciation");
const levelsJson = JSON.parse(readFileSync(join(pronunciationDir, "levels.json"), "utf8"));
const pronunciation = assetSet("pronunciation");
const levelAsset = (level) => `level-${String(level).padStart(3, "0")}`;

const pronunciationManifest = {
  // Plain names: the sentence is on the page anyway.
  levels: Object.fromEntries(
    levelsJson.levels.map(({ level }) => [
      levelAsset(level),
      pronunciation.asset(levelAsset(level), "mp3", readSource(join(pronunciationDir, "audio", `${levelAsset(level)}.mp3`))),
    ]),
  ),
  bands: levelsJson.bands.map(({ band, key, title, sound, tip, wordPattern }) => ({ band, key, title, sound, tip, wordPattern })),
  genericTip: levelsJson.genericTip,
};
for (const { band, wordPattern } of levelsJson.bands) {
  try {
    if (wordPattern !== null) new RegExp(wordPattern, "i");
  } catch (error) {
    problems.push(`band ${band}: wordPattern is not a valid regular expression (${error.message})`);
  }
}

// ---------------------------------------------------------------------------------------------------------------

if (problems.length) {
  console.error(`[content-assets] ${problems.length} problem(s):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}

/** Writes the set's new files, removes its stale ones, and (re)writes its manifest only when it changed. */
function write(set, manifest, manifestFile, summary) {
  const { dir, wanted } = set;
  mkdirSync(dir, { recursive: true });
  let written = 0;
  let removed = 0;
  const present = new Set(readdirSync(dir));
  for (const [fileName, bytes] of wanted) {
    if (present.has(fileName)) continue; // the name is the content's hash: an existing file is the same file
    writeFileSync(join(dir, fileName), bytes);
    written++;
  }
  for (const fileName of present) {
    if (FINGERPRINTED.test(fileName) && !wanted.has(fileName)) {
      rmSync(join(dir, fileName));
      removed++;
    }
  }
  const file = resolve(manifestFile);
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  mkdirSync(dirname(file), { recursive: true });
  // Rewritten only when it changed, so a dev server does not reload for nothing.
  if (!existsSync(file) || readFileSync(file, "utf8") !== manifestText) writeFileSync(file, manifestText);

  const bytesOf = (ext) => [...wanted].filter(([name]) => name.endsWith(ext)).reduce((sum, [, bytes]) => sum + bytes.length, 0);
  const countOf = (ext) => [...wanted.keys()].filter((name) => name.endsWith(ext)).length;
  const kinds = [".svg", ".mp3"].filter((ext) => countOf(ext)).map((ext) => `${countOf(ext)} ${ext.slice(1).toUpperCase()} ${bytesOf(ext)} B`);
  console.log(
    `[content-assets] ${set.name}: ${wanted.size} files, ${bytesOf("")} bytes (${kinds.join(", ")}; ${written} written, ` +
      `${removed} stale removed) → ${relative(root, dir) || dir}/, ${summary} → ${relative(root, file)}`,
  );
}

write(flashcards, flashcardsManifest, opts["flashcards-manifest"], `${flashcardsManifest.cards.length} cards`);
write(pronunciation, pronunciationManifest, opts["pronunciation-manifest"], `${levelsJson.levels.length} levels`);
