#!/usr/bin/env node
// Build time (npm run build's prebuild, npm test and npm start before `remix vite:build`; or `npm run content:assets`):
// turns content/flashcards/ into static assets with fingerprinted names and a small manifest for the app.
//   node scripts/content/flashcard-assets.mjs [--out DIR] [--manifest FILE] [--url-base /content/flashcards]
// Reads cards.json and the 9 MB icons.json of @iconify-json/fluent-emoji-flat once (only this script ever reads it),
// writes one standalone SVG per card picture, category tile and result-tier image, copies the word audio and the
// feedback sounds, all as <name>.<first 10 hex of sha256>.<ext> into public/content/flashcards/ (served by the
// worker's static assets, cached immutably: public/_headers), deletes the files of earlier runs that are no longer
// wanted, and writes app/features/flashcards/content.generated.json. Fast (no network, unchanged files not rewritten).
// Both outputs are generated, never committed. Overrides for tests: FLASHCARD_ASSETS_OUT, FLASHCARD_ASSETS_MANIFEST.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const contentDir = join(root, "content", "flashcards");

const { values: opts } = parseArgs({
  options: {
    out: { type: "string", default: process.env.FLASHCARD_ASSETS_OUT ?? join(root, "public", "content", "flashcards") },
    manifest: {
      type: "string",
      default: process.env.FLASHCARD_ASSETS_MANIFEST ?? join(root, "app", "features", "flashcards", "content.generated.json"),
    },
    "url-base": { type: "string", default: "/content/flashcards" },
  },
});
const outDir = resolve(opts.out);
const manifestFile = resolve(opts.manifest);
const urlBase = opts["url-base"].replace(/\/$/, "");

const TIERS = ["perfect", "good", "okay", "poor"];
const SOUNDS = ["correct", "incorrect", ...TIERS];
/** The names this script writes; anything else in the output directory is left alone. */
const FINGERPRINTED = /^[a-z0-9-]+\.[0-9a-f]{10}\.(svg|mp3)$/;

const problems = [];
const cardsJson = JSON.parse(readFileSync(join(contentDir, "cards.json"), "utf8"));
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

function readSource(file) {
  if (existsSync(file)) return readFileSync(file);
  problems.push(`missing ${relative(root, file)} (node scripts/content/word-audio.mjs / feedback-sounds.mjs)`);
  return null;
}

/** name → bytes of every file to ship; the value returned is its URL. */
const wanted = new Map();
function asset(name, ext, bytes) {
  if (!bytes) return "";
  const fileName = `${name}.${createHash("sha256").update(bytes).digest("hex").slice(0, 10)}.${ext}`;
  wanted.set(fileName, bytes);
  return `${urlBase}/${fileName}`;
}

const manifest = {
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
    audioUrl: asset("word", "mp3", readSource(join(contentDir, "audio", `${card.id}.mp3`))),
  })),
  tiers: Object.fromEntries(
    TIERS.map((tier) => [
      tier,
      {
        imageUrl: asset(`tier-${tier}`, "svg", svgOf(cardsJson.tiers?.[tier] ?? "")),
        soundUrl: asset(`sound-${tier}`, "mp3", readSource(join(contentDir, "sounds", `${tier}.mp3`))),
      },
    ]),
  ),
  sounds: Object.fromEntries(
    SOUNDS.slice(0, 2).map((sound) => [sound, asset(`sound-${sound}`, "mp3", readSource(join(contentDir, "sounds", `${sound}.mp3`)))]),
  ),
};

if (problems.length) {
  console.error(`[flashcard-assets] ${problems.length} problem(s):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}

mkdirSync(outDir, { recursive: true });
let written = 0;
let removed = 0;
const present = new Set(readdirSync(outDir));
for (const [fileName, bytes] of wanted) {
  if (present.has(fileName)) continue; // the name is the content's hash: an existing file is the same file
  writeFileSync(join(outDir, fileName), bytes);
  written++;
}
for (const fileName of present) {
  if (FINGERPRINTED.test(fileName) && !wanted.has(fileName)) {
    rmSync(join(outDir, fileName));
    removed++;
  }
}

const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
mkdirSync(dirname(manifestFile), { recursive: true });
// Rewritten only when it changed, so a dev server does not reload for nothing.
if (!existsSync(manifestFile) || readFileSync(manifestFile, "utf8") !== manifestText) writeFileSync(manifestFile, manifestText);

const bytesOf = (ext) => [...wanted].filter(([name]) => name.endsWith(ext)).reduce((sum, [, bytes]) => sum + bytes.length, 0);
const countOf = (ext) => [...wanted.keys()].filter((name) => name.endsWith(ext)).length;
console.log(
  `[flashcard-assets] ${wanted.size} files, ${bytesOf("")} bytes (${countOf(".svg")} SVG ${bytesOf(".svg")} B, ` +
    `${countOf(".mp3")} MP3 ${bytesOf(".mp3")} B; ${written} written, ${removed} stale removed) → ${relative(root, outDir) || outDir}/, ` +
    `${manifest.cards.length} cards → ${relative(root, manifestFile)}`,
);
