// What the "Meu caderno" practice tests start from: a due correction entry as a chat review stores it, and flashcards
// already seen and due (so a Revisão mixes both).
import { eq } from "drizzle-orm";
import { flashcardCards, flashcardMemory } from "~/features/flashcards/tables";
import { notebookEntries } from "~/features/notebook/tables";
import type { Database } from "~/server/db.server";

let made = 0;

/** A due entry: the learner's sentence, a right form of its own and three alternatives; `overrides` win. */
export async function insertCorrectionEntry(db: Database, userId: string, overrides: Partial<typeof notebookEntries.$inferInsert> = {}) {
  const right = overrides.right ?? `I am ${20 + ++made} years old`;
  const [row] = await db
    .insert(notebookEntries)
    .values({
      userId,
      kind: "false_friend",
      wrong: "I have 30 years",
      right,
      rightKey: right.toLowerCase(),
      explanation: "Em inglês, idade se diz com o verbo “to be”.",
      alternatives: [`I have ${made} years old`, `I am ${made} years`, `I has ${made} years`],
      source: "chat",
      details: { sentence: "Hello! I have 30 years and I live in Recife." },
      due: new Date(Date.now() - 10 * 60_000),
      ...overrides,
    })
    .returning();
  return row!;
}

/** `count` cards of `category`, seen once and due since yesterday. */
export async function makeCardsDue(db: Database, userId: string, category = "animais", count = 8) {
  const cards = await db.select({ id: flashcardCards.id }).from(flashcardCards).where(eq(flashcardCards.categorySlug, category)).limit(count);
  const past = new Date(Date.now() - 86_400_000);
  await db.insert(flashcardMemory).values(
    cards.map((card) => ({
      userId,
      cardId: card.id,
      due: past,
      stability: 1,
      difficulty: 5,
      elapsedDays: 1,
      scheduledDays: 1,
      reps: 1,
      lapses: 0,
      state: 2,
    })),
  );
  return cards;
}
