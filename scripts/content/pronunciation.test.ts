// The pronunciation levels (content/pronunciation/), their reference audio (scripts/content/word-audio.mjs
// --set pronunciation), their data migration (migrations/0006_pronunciation_content.sql, written by
// scripts/content/content-migration.mjs) and their build step (scripts/content/content-assets.mjs): 100 graded levels
// in 10 bands, each with a current MP3, the same rows in every migrated database, and a manifest of fingerprinted files.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bandOf, GENERIC_TIP, hasShippedLevel, levelAudioUrl, tipFor, wordHasBandSound } from "~/features/pronunciation/content.server";

const ROOT = process.cwd();
const CONTENT = join(ROOT, "content/pronunciation");
const AUDIO = join(CONTENT, "audio");
const MIGRATION = join(ROOT, "migrations/0006_pronunciation_content.sql");

type Band = { band: number; key: string; title: string; sound: string; tip: string; wordPattern: string | null };
type Level = { level: number; band: number; sentence: string; translation: string };
type Content = { genericTip: string; bands: Band[]; levels: Level[] };
type Manifest = { levels: Record<string, string>; bands: Band[]; genericTip: string };

const content: Content = JSON.parse(readFileSync(join(CONTENT, "levels.json"), "utf8"));
const asset = (level: number) => `level-${String(level).padStart(3, "0")}`;
const wordsOf = (sentence: string) => sentence.split(/\s+/).filter(Boolean);
const bareWord = (word: string) => word.toLowerCase().replace(/^[^a-z']+|[^a-z']+$/g, "");
const levelsOf = (band: number) => content.levels.filter((level) => level.band === band);
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** An MP3 starts with an ID3v2 tag or an MPEG audio frame header (11 sync bits, a valid layer and bitrate). */
function isMp3(bytes: Buffer): boolean {
  if (bytes.subarray(0, 3).toString("latin1") === "ID3") return true;
  if (bytes.length < 4 || bytes[0] !== 0xff || (bytes[1]! & 0xe0) !== 0xe0) return false;
  const version = (bytes[1]! >> 3) & 3;
  const layer = (bytes[1]! >> 1) & 3;
  const bitrate = bytes[2]! >> 4;
  const rate = (bytes[2]! >> 2) & 3;
  return version !== 1 && layer === 1 && bitrate !== 15 && bitrate !== 0 && rate !== 3;
}

describe("pronunciation levels (content/pronunciation/levels.json)", () => {
  it("has levels 1 to 100 in order, 10 per band, bands 1 to 10 in order", () => {
    expect(content.levels.map((level) => level.level)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(content.levels.map((level) => level.band)).toEqual(Array.from({ length: 100 }, (_, i) => Math.floor(i / 10) + 1));
    expect(content.bands.map((band) => band.band)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it("grows from 3 to 14 words: each band longer on average than the one before, and never shorter within a band", () => {
    const counts = content.levels.map((level) => wordsOf(level.sentence).length);
    expect(Math.min(...counts)).toBe(3);
    expect(Math.max(...counts)).toBeLessThanOrEqual(14);
    const averages = content.bands.map(({ band }) => mean(levelsOf(band).map((level) => wordsOf(level.sentence).length)));
    for (let i = 1; i < averages.length; i++) expect(averages[i], `band ${i + 1}`).toBeGreaterThanOrEqual(averages[i - 1]!);
    for (const { band } of content.bands) {
      const inBand = levelsOf(band).map((level) => wordsOf(level.sentence).length);
      expect(inBand, `band ${band}`).toEqual([...inBand].sort((a, b) => a - b));
    }
  });

  it("writes plain English (letters and . , ? ! ' only, numbers as words) and no sentence twice", () => {
    for (const level of content.levels) {
      expect(level.sentence, `level ${level.level}`).toMatch(/^[A-Z][A-Za-z ,']*[a-z][.?!]$/);
      expect(level.sentence, `level ${level.level}`).not.toMatch(/ {2}|\s[,.?!]/);
    }
    const sentences = content.levels.map((level) => level.sentence.toLowerCase());
    expect(new Set(sentences).size).toBe(100);
  });

  it("has a pt-BR translation of every level, none empty, none equal to the English, none twice", () => {
    for (const level of content.levels) {
      expect(level.translation.trim(), `level ${level.level}`).not.toBe("");
      expect(level.translation.toLowerCase(), `level ${level.level}`).not.toBe(level.sentence.toLowerCase());
      expect(level.translation, `level ${level.level}`).toMatch(/[.?!]$/);
    }
    expect(new Set(content.levels.map((level) => level.translation.toLowerCase())).size).toBe(100);
  });

  it("describes every band (unique key, title, sound and a tip) and has a generic tip", () => {
    expect(new Set(content.bands.map((band) => band.key)).size).toBe(10);
    expect(new Set(content.bands.map((band) => band.title)).size).toBe(10);
    for (const band of content.bands) {
      expect(band.key, `band ${band.band}`).toMatch(/^[a-z0-9-]+$/);
      for (const field of ["title", "sound", "tip"] as const) expect(band[field].trim(), `band ${band.band} ${field}`).not.toBe("");
      expect(band.tip.length, `band ${band.band} tip`).toBeLessThanOrEqual(280);
    }
    expect(content.genericTip.trim()).not.toBe("");
  });

  it("has word patterns that find the band's sound in at least 8 of its 10 sentences (null: every word)", () => {
    for (const band of content.bands) {
      if (band.wordPattern === null) continue;
      const pattern = new RegExp(band.wordPattern, "i");
      const hits = levelsOf(band.band).filter((level) => wordsOf(level.sentence).some((word) => pattern.test(bareWord(word))));
      expect(hits.length, `band ${band.band} (${band.key})`).toBeGreaterThanOrEqual(8);
    }
  });
});

describe("pronunciation reference audio (content/pronunciation/audio)", () => {
  const index: { settings: string; sentences: Record<string, string> } = JSON.parse(readFileSync(join(AUDIO, "index.json"), "utf8"));

  it("has a small real MP3 of every level, made from its current sentence", () => {
    expect(index.settings).toMatch(/^espeak-ng -v en-us -s 130 .*lame -m m --resample 22\.05 -b 32 /);
    for (const level of content.levels) {
      const file = join(AUDIO, `${asset(level.level)}.mp3`);
      expect(existsSync(file), `${asset(level.level)}.mp3 (node scripts/content/word-audio.mjs --set pronunciation)`).toBe(true);
      expect(index.sentences[asset(level.level)], `${asset(level.level)} was made from another sentence`).toBe(level.sentence);
      const bytes = readFileSync(file);
      expect(isMp3(bytes), asset(level.level)).toBe(true);
      expect(bytes.length, asset(level.level)).toBeLessThan(48 * 1024);
    }
    const expected = new Set(content.levels.map((level) => `${asset(level.level)}.mp3`));
    expect(readdirSync(AUDIO).filter((name) => name.endsWith(".mp3") && !expected.has(name))).toEqual([]);
    expect(Object.keys(index.sentences).length).toBe(100);
  });
});

describe("pronunciation content migration (migrations/0006_pronunciation_content.sql)", () => {
  it("is what scripts/content/content-migration.mjs writes from levels.json today", () => {
    const dir = mkdtempSync(join(tmpdir(), "nika-pronunciation-migration-"));
    try {
      const target = join(dir, "levels.sql");
      const result = spawnSync(process.execPath, ["scripts/content/content-migration.mjs", "--set", "pronunciation", target], {
        encoding: "utf8",
      });
      expect(result.status, result.stderr).toBe(0);
      expect(readFileSync(MIGRATION, "utf8")).toBe(readFileSync(target, "utf8"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("puts exactly the 100 levels into a migrated database, and running it again keeps an admin's edit", async () => {
    const client = new PGlite();
    try {
      await migrate(drizzle(client) as never, { migrationsFolder: "migrations" });
      const { rows } = await client.query<Level & { audio_asset: string | null; audio_key: string | null }>(
        "select level, band, sentence, translation, audio_asset, audio_key from pronunciation_levels order by level",
      );
      expect(rows).toEqual(content.levels.map((level) => ({ ...level, audio_asset: asset(level.level), audio_key: null })));

      await client.query("update pronunciation_levels set sentence = 'Edited by an admin.' where level = 7");
      await client.exec(readFileSync(MIGRATION, "utf8").replaceAll("--> statement-breakpoint", ""));
      const again = await client.query<{ count: number; edited: string }>(
        "select count(*)::int as count, (select sentence from pronunciation_levels where level = 7) as edited from pronunciation_levels",
      );
      expect(again.rows[0]).toEqual({ count: 100, edited: "Edited by an admin." });
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("pronunciation assets build (scripts/content/content-assets.mjs)", () => {
  let dir = "";
  let manifest: Manifest;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "nika-pronunciation-assets-"));
    const result = spawnSync(process.execPath, [join(ROOT, "scripts/content/content-assets.mjs")], {
      encoding: "utf8",
      env: {
        ...process.env,
        CONTENT_ASSETS_OUT: join(dir, "public/content"),
        CONTENT_ASSETS_FLASHCARDS_MANIFEST: join(dir, "flashcards.generated.json"),
        CONTENT_ASSETS_PRONUNCIATION_MANIFEST: join(dir, "pronunciation.generated.json"),
      },
    });
    expect(result.status, result.stderr).toBe(0);
    manifest = JSON.parse(readFileSync(join(dir, "pronunciation.generated.json"), "utf8"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("ships every level's audio under a name that matches its bytes, with the bands and the generic tip", () => {
    expect(Object.keys(manifest.levels)).toEqual(content.levels.map((level) => asset(level.level)));
    const out = join(dir, "public/content/pronunciation");
    expect(readdirSync(out).length).toBe(100);
    for (const [key, url] of Object.entries(manifest.levels)) {
      const match = /^\/content\/pronunciation\/(level-\d{3})\.([0-9a-f]{10})\.mp3$/.exec(url);
      expect(match, url).not.toBeNull();
      expect(match![1]).toBe(key);
      const bytes = readFileSync(join(out, url.split("/").pop()!));
      expect(createHash("sha256").update(bytes).digest("hex").slice(0, 10), url).toBe(match![2]);
      expect(bytes.equals(readFileSync(join(AUDIO, `${key}.mp3`))), key).toBe(true);
    }
    expect(manifest.bands).toEqual(content.bands);
    expect(manifest.genericTip).toBe(content.genericTip);
  });
});

describe("pronunciation content for the app (app/features/pronunciation/content.server.ts)", () => {
  it("serves an admin's upload over the shipped recording, and nothing when neither exists", () => {
    expect(levelAudioUrl({ audioAsset: "level-001", audioKey: null })).toMatch(/^\/content\/pronunciation\/level-001\.[0-9a-f]{10}\.mp3$/);
    expect(levelAudioUrl({ audioAsset: "level-001", audioKey: "pronunciation/levels/1/take.mp3" })).toBe(
      "/media/pronunciation/levels/1/take.mp3",
    );
    expect(levelAudioUrl({ audioAsset: "level-999", audioKey: null })).toBeNull();
    expect(levelAudioUrl({ audioAsset: null, audioKey: null })).toBeNull();
    expect(hasShippedLevel("level-100")).toBe(true);
    expect(hasShippedLevel("level-101")).toBe(false);
  });

  it("names each band and gives its tip only for words carrying its sound", () => {
    expect(bandOf(4)).toEqual(content.bands[3]);
    expect(bandOf(11).tip).toBe(GENERIC_TIP);
    expect(tipFor(4, "Thursday")).toBe(content.bands[3]!.tip);
    expect(tipFor(4, "Thursday,")).toBe(content.bands[3]!.tip);
    expect(tipFor(4, "March")).toBe(GENERIC_TIP);
    expect(tipFor(3, "Hat")).toBe(content.bands[2]!.tip);
    expect(tipFor(3, "wrote")).toBe(content.bands[2]!.tip);
    expect(tipFor(3, "cat")).toBe(GENERIC_TIP);
    expect(tipFor(6, "walked")).toBe(content.bands[5]!.tip);
    expect(tipFor(6, "home")).toBe(GENERIC_TIP);
    expect(tipFor(8, "school")).toBe(content.bands[7]!.tip);
    expect(tipFor(8, "city")).toBe(content.bands[7]!.tip);
    expect(tipFor(8, "bus")).toBe(GENERIC_TIP);
    expect(tipFor(9, "of")).toBe(content.bands[8]!.tip);
    expect(tipFor(9, "traffic")).toBe(GENERIC_TIP);
    // Bands without a pattern: every word carries the sound; an empty "word" never does.
    expect(tipFor(1, "sat")).toBe(content.bands[0]!.tip);
    expect(tipFor(10, "woodchuck")).toBe(content.bands[9]!.tip);
    expect(wordHasBandSound(10, "...")).toBe(false);
    expect(wordHasBandSound(12, "think")).toBe(false);
  });
});
