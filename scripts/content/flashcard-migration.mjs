#!/usr/bin/env node
// Writes the shipped flashcard content (content/flashcards/cards.json) as a data migration, so every
// database — local, tests, production through `npm run db:migrate` — gets the cards with the schema.
//   node scripts/content/flashcard-migration.mjs <migrations/NNNN_name.sql>
// Create the file first with `npx drizzle-kit generate --custom --name <name>` (it registers it in the
// journal). Rows are inserted `on conflict do nothing`: a later content migration adds new cards and
// never overwrites an admin's edits or brings back a card an admin deleted (deleted cards are kept).
import { readFileSync, writeFileSync } from "node:fs";

const target = process.argv[2];
if (!target?.endsWith(".sql")) {
  console.error("usage: node scripts/content/flashcard-migration.mjs migrations/NNNN_name.sql");
  process.exit(1);
}
const content = JSON.parse(readFileSync("content/flashcards/cards.json", "utf8"));
const literal = (value) => (typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`);
const values = (rows) => rows.map((row) => `  (${row.map(literal).join(", ")})`).join(",\n");

const categories = content.categories.map((category, index) => [category.slug, category.name, category.slug, index]);
const orderInCategory = new Map();
const cards = content.cards.map((card) => {
  const order = orderInCategory.get(card.category) ?? 0;
  orderInCategory.set(card.category, order + 1);
  return [card.id, card.category, card.word, card.translation, card.distractorGroup, card.id, card.id, order];
});

const sql = `-- Shipped flashcard content, generated from content/flashcards/cards.json by scripts/content/flashcard-migration.mjs.
insert into flashcard_categories (slug, name, tile_asset, order_index) values
${values(categories)}
on conflict (slug) do nothing;
--> statement-breakpoint
insert into flashcard_cards (content_id, category_slug, word, translation, distractor_group, image_asset, audio_asset, order_index) values
${values(cards)}
on conflict (content_id) do nothing;
`;
writeFileSync(target, sql);
console.log(`[content] ${target}: ${categories.length} categories, ${cards.length} cards`);
