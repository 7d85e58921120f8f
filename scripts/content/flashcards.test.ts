// The flashcard content (content/flashcards/) and its build step (scripts/content/content-assets.mjs): the
// curated cards are complete and consistent, every picture exists in the icon set, every word has a small real
// MP3, and the build writes fingerprinted files whose names match their bytes plus a manifest listing every card.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = process.cwd();
const CONTENT = join(ROOT, "content/flashcards");
const SCRIPT = join(ROOT, "scripts/content/content-assets.mjs");

type Card = { id: string; category: string; word: string; translation: string; icon: string; distractorGroup: string };
type Content = {
  licenses: Record<string, unknown>;
  tiers: Record<string, string>;
  categories: { slug: string; name: string; icon: string }[];
  cards: Card[];
};
type IconSet = { icons: Record<string, { body: string }>; aliases?: Record<string, { parent: string }> };
type Manifest = {
  categories: { slug: string; name: string; tileUrl: string }[];
  cards: { id: string; category: string; word: string; translation: string; distractorGroup: string; imageUrl: string; audioUrl: string }[];
  tiers: Record<string, { imageUrl: string; soundUrl: string }>;
  sounds: Record<string, string>;
};

const content: Content = JSON.parse(readFileSync(join(CONTENT, "cards.json"), "utf8"));
const CATEGORY_NAMES = [
  "Animais",
  "Ações Cotidianas",
  "Comidas e Bebidas",
  "Profissões e Empregos",
  "Objetos Domésticos",
  "Roupas e Acessórios",
  "Lugares e Transporte",
  "Esportes e Hobbies",
];
const TIERS = ["perfect", "good", "okay", "poor"];
const SOUNDS = ["correct", "incorrect", ...TIERS];

/** An MP3 starts with an ID3v2 tag or an MPEG audio frame header (11 sync bits, a valid layer and bitrate). */
function isMp3(bytes: Buffer): boolean {
  if (bytes.subarray(0, 3).toString("latin1") === "ID3") return true;
  if (bytes.length < 4 || bytes[0] !== 0xff || (bytes[1]! & 0xe0) !== 0xe0) return false;
  const version = (bytes[1]! >> 3) & 3; // 1 is reserved
  const layer = (bytes[1]! >> 1) & 3; // 0 is reserved
  const bitrate = bytes[2]! >> 4; // 15 is invalid
  const rate = (bytes[2]! >> 2) & 3; // 3 is reserved
  return version !== 1 && layer === 1 && bitrate !== 15 && bitrate !== 0 && rate !== 3;
}

describe("flashcard content (content/flashcards/cards.json)", () => {
  it("has the 8 categories in order, with the spec's pt-BR names, unique slugs and a tile picture", () => {
    expect(content.categories.map((c) => c.name)).toEqual(CATEGORY_NAMES);
    expect(new Set(content.categories.map((c) => c.slug)).size).toBe(8);
    for (const category of content.categories) {
      expect(category.slug).toMatch(/^[a-z0-9-]+$/);
      expect(category.icon).toBeTruthy();
    }
  });

  it("has at least 20 cards per category (15 for Profissões)", () => {
    for (const category of content.categories) {
      const count = content.cards.filter((card) => card.category === category.slug).length;
      expect(count, category.name).toBeGreaterThanOrEqual(category.name === "Profissões e Empregos" ? 15 : 20);
    }
    const slugs = new Set(content.categories.map((c) => c.slug));
    expect(content.cards.filter((card) => !slugs.has(card.category))).toEqual([]);
  });

  it("has unique ids, unique words, translations and pictures, and complete cards", () => {
    expect(new Set(content.cards.map((card) => card.id)).size).toBe(content.cards.length);
    expect(new Set(content.cards.map((card) => card.icon)).size).toBe(content.cards.length);
    for (const category of content.categories) {
      const cards = content.cards.filter((card) => card.category === category.slug);
      expect(new Set(cards.map((card) => card.word.toLowerCase())).size, category.name).toBe(cards.length);
      expect(new Set(cards.map((card) => card.translation.toLowerCase())).size, category.name).toBe(cards.length);
    }
    for (const card of content.cards) {
      expect(card.id, card.id).toMatch(new RegExp(`^${card.category}-[a-z0-9-]+$`));
      expect(card.word.trim(), card.id).not.toBe("");
      expect(card.translation.trim(), card.id).not.toBe("");
      expect(card.distractorGroup.trim(), card.id).not.toBe("");
    }
  });

  it("leaves enough distractor groups in every category for 4 options from 4 different groups", () => {
    for (const category of content.categories) {
      const groups = new Set(content.cards.filter((card) => card.category === category.slug).map((card) => card.distractorGroup));
      expect(groups.size, category.name).toBeGreaterThanOrEqual(8);
    }
  });

  it("names a picture for each of the 4 result tiers and records the licences", () => {
    expect(Object.keys(content.tiers).sort()).toEqual([...TIERS].sort());
    expect(JSON.stringify(content.licenses)).toMatch(/MIT/);
    expect(JSON.stringify(content.licenses)).toMatch(/eSpeak NG/);
  });

  it("uses only pictures of @iconify-json/fluent-emoji-flat (directly or as an alias)", () => {
    const iconSet: IconSet = JSON.parse(
      readFileSync(createRequire(import.meta.url).resolve("@iconify-json/fluent-emoji-flat/icons.json"), "utf8"),
    );
    const resolves = (name: string) => Boolean(iconSet.icons[name] ?? iconSet.icons[iconSet.aliases?.[name]?.parent ?? ""]);
    const names = [...content.cards.map((card) => card.icon), ...content.categories.map((c) => c.icon), ...Object.values(content.tiers)];
    expect(names.filter((name) => !resolves(name))).toEqual([]);
  });

  it("has a real, small MP3 of every card's word, and no audio of cards that are gone", () => {
    for (const card of content.cards) {
      const file = join(CONTENT, "audio", `${card.id}.mp3`);
      expect(existsSync(file), `${card.id}.mp3 (node scripts/content/word-audio.mjs)`).toBe(true);
      const bytes = readFileSync(file);
      expect(isMp3(bytes), card.id).toBe(true);
      expect(bytes.length, card.id).toBeLessThan(8 * 1024);
    }
    const ids = new Set(content.cards.map((card) => card.id));
    const extra = readdirSync(join(CONTENT, "audio")).filter((name) => name.endsWith(".mp3") && !ids.has(name.slice(0, -4)));
    expect(extra).toEqual([]);
  });

  it("has the 6 feedback sounds as real MP3s", () => {
    for (const sound of SOUNDS) {
      const bytes = readFileSync(join(CONTENT, "sounds", `${sound}.mp3`));
      expect(isMp3(bytes), sound).toBe(true);
      expect(bytes.length, sound).toBeLessThan(16 * 1024);
    }
  });
});

describe("flashcard assets build (scripts/content/content-assets.mjs)", () => {
  let dir = "";
  let out = "";
  let manifestFile = "";
  const run = () =>
    spawnSync(process.execPath, [SCRIPT], {
      encoding: "utf8",
      env: {
        ...process.env,
        CONTENT_ASSETS_OUT: join(dir, "public/content"),
        CONTENT_ASSETS_FLASHCARDS_MANIFEST: manifestFile,
        CONTENT_ASSETS_PRONUNCIATION_MANIFEST: join(dir, "pronunciation.generated.json"),
      },
    });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "nika-flashcard-assets-"));
    out = join(dir, "public/content/flashcards");
    manifestFile = join(dir, "content.generated.json");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes fingerprinted files that match their bytes, a manifest of every card, and removes its stale files", () => {
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    const manifest: Manifest = JSON.parse(readFileSync(manifestFile, "utf8"));

    expect(manifest.categories.map((c) => c.name)).toEqual(CATEGORY_NAMES);
    expect(manifest.cards.map((c) => c.id)).toEqual(content.cards.map((c) => c.id));
    for (const card of manifest.cards) {
      const source = content.cards.find((c) => c.id === card.id)!;
      expect(card).toMatchObject({
        category: source.category,
        word: source.word,
        translation: source.translation,
        distractorGroup: source.distractorGroup,
      });
    }
    expect(Object.keys(manifest.tiers).sort()).toEqual([...TIERS].sort());
    expect(Object.keys(manifest.sounds).sort()).toEqual(["correct", "incorrect"]);

    const urls = [
      ...manifest.categories.map((c) => c.tileUrl),
      ...manifest.cards.flatMap((c) => [c.imageUrl, c.audioUrl]),
      ...Object.values(manifest.tiers).flatMap((t) => [t.imageUrl, t.soundUrl]),
      ...Object.values(manifest.sounds),
    ];
    const files = readdirSync(out);
    expect(new Set(urls).size).toBe(urls.length);
    expect(files.length).toBe(urls.length);
    for (const url of urls) {
      const match = /^\/content\/flashcards\/([a-z0-9-]+)\.([0-9a-f]{10})\.(svg|mp3)$/.exec(url);
      expect(match, url).not.toBeNull();
      const bytes = readFileSync(join(out, url.split("/").pop()!));
      expect(createHash("sha256").update(bytes).digest("hex").slice(0, 10), url).toBe(match![2]);
      if (match![3] === "svg") {
        expect(bytes.toString("utf8")).toMatch(
          /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="[\d.]+ [\d.]+ [\d.]+ [\d.]+">[\s\S]+<\/svg>$/,
        );
      } else {
        expect(isMp3(bytes), url).toBe(true);
      }
    }
    for (const card of manifest.cards) {
      const shipped = readFileSync(join(out, card.audioUrl.split("/").pop()!));
      expect(shipped.equals(readFileSync(join(CONTENT, "audio", `${card.id}.mp3`))), card.id).toBe(true);
    }

    // A file of an earlier build that is no longer wanted goes; files that are not the script's stay.
    const stale = join(out, "animais-dodo.0123456789.svg");
    const foreign = join(out, "notes.txt");
    writeFileSync(stale, "<svg/>");
    writeFileSync(foreign, "keep");
    const modified = statSync(manifestFile).mtimeMs;
    const second = run();
    expect(second.status, second.stderr).toBe(0);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(foreign)).toBe(true);
    expect(statSync(manifestFile).mtimeMs).toBe(modified); // unchanged manifest, not rewritten
    expect(readdirSync(out).length).toBe(urls.length + 1);
  });
});
