#!/usr/bin/env node
// Writes shipped content as a data migration, so every database — local, tests, production through
// `npm run db:migrate` — gets it with the schema.
//   node scripts/content/content-migration.mjs --set flashcards|pronunciation <migrations/NNNN_name.sql>
// Create the file first with `npx drizzle-kit generate --custom --name <name>` (it registers it in the
// journal). Rows are inserted `on conflict do nothing`: a later content migration adds new rows and never
// overwrites an admin's edits (nor brings back a flashcard an admin deleted: deleted cards are kept).
//   flashcards    content/flashcards/cards.json → flashcard_categories, flashcard_cards (0004_flashcard_content,
//                 written when this script was scripts/content/flashcard-migration.mjs)
//   pronunciation content/pronunciation/levels.json → pronunciation_levels (0006_pronunciation_content); each
//                 level points to its shipped reference audio by key (audio_asset "level-NNN", see
//                 scripts/content/content-assets.mjs); an admin's upload (audio_key) wins over it.
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values: opts, positionals } = parseArgs({ options: { set: { type: "string" } }, allowPositionals: true });
const target = positionals[0];
if (!["flashcards", "pronunciation"].includes(opts.set) || !target?.endsWith(".sql") || positionals.length !== 1) {
  console.error("usage: node scripts/content/content-migration.mjs --set flashcards|pronunciation migrations/NNNN_name.sql");
  process.exit(1);
}
const literal = (value) => (typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`);
const values = (rows) => rows.map((row) => `  (${row.map(literal).join(", ")})`).join(",\n");

/** The key of a level's shipped reference audio: its file content/pronunciation/audio/<key>.mp3 and its manifest entry. */
const levelAsset = (level) => `level-${String(level).padStart(3, "0")}`;

function flashcards() {
  const content = JSON.parse(readFileSync("content/flashcards/cards.json", "utf8"));
  const categories = content.categories.map((category, index) => [category.slug, category.name, category.slug, index]);
  const orderInCategory = new Map();
  const cards = content.cards.map((card) => {
    const order = orderInCategory.get(card.category) ?? 0;
    orderInCategory.set(card.category, order + 1);
    return [card.id, card.category, card.word, card.translation, card.distractorGroup, card.id, card.id, order];
  });
  const sql = `-- Shipped flashcard content, generated from content/flashcards/cards.json by scripts/content/content-migration.mjs --set flashcards.
insert into flashcard_categories (slug, name, tile_asset, order_index) values
${values(categories)}
on conflict (slug) do nothing;
--> statement-breakpoint
insert into flashcard_cards (content_id, category_slug, word, translation, distractor_group, image_asset, audio_asset, order_index) values
${values(cards)}
on conflict (content_id) do nothing;
`;
  return { sql, summary: `${categories.length} categories, ${cards.length} cards` };
}

function pronunciation() {
  const content = JSON.parse(readFileSync("content/pronunciation/levels.json", "utf8"));
  const levels = content.levels.map((level) => [level.level, level.band, level.sentence, level.translation, levelAsset(level.level)]);
  const sql = `-- Shipped pronunciation levels, generated from content/pronunciation/levels.json by scripts/content/content-migration.mjs --set pronunciation.
insert into pronunciation_levels (level, band, sentence, translation, audio_asset) values
${values(levels)}
on conflict (level) do nothing;
`;
  return { sql, summary: `${levels.length} levels` };
}

const { sql, summary } = opts.set === "flashcards" ? flashcards() : pronunciation();
writeFileSync(target, sql);
console.log(`[content] ${target}: ${summary}`);
