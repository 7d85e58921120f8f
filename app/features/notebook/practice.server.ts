// Practising "Meu caderno": each entry is an FSRS item (the scheduler of ~/lib/fsrs, as the flashcards). Revisão asks
// the due ones as correction cards and reports each answer here; a conversation that sees the learner use one right
// unprompted reports that here too. A flashcard word's entry has no schedule of its own: its card's is the one.
import { sql, type SQL } from "drizzle-orm";
import { memoryFromRow, nextMemory, type Memory } from "~/lib/fsrs";
import { rowsOf, type DbOrTx } from "~/server/db.server";
import { storeMistakes } from "./review.server";

/** An entry whose next interval reaches this many days is mastered ("dominada"). */
export const MASTERED_AFTER_DAYS = 21;
/** How many due entries a conversation brings back. */
export const FOCUS_ENTRIES = 5;

/**
 * An entry (alias `e`) Revisão asks as a correction card now: shown, not mastered, with its three alternatives,
 * scheduled by itself (not a flashcard word's, nor a pronunciation word's: see pronunciationReady) and due.
 */
export function correctionReady(now: Date): SQL {
  return sql`(e.dismissed_at is null and e.state <> 'mastered' and e.source <> 'flashcards' and e.kind <> 'pronunciation'
    and jsonb_array_length(e.alternatives) = 3 and e.due <= ${now.toISOString()})`;
}

/**
 * An entry (alias `e`) Revisão asks as a pronunciation card now (hear the word, record it, the game's scorer scores
 * it): a word of the pronunciation game (its sentence and level in `details`), shown, not mastered and due.
 */
export function pronunciationReady(now: Date): SQL {
  return sql`(e.dismissed_at is null and e.state <> 'mastered' and e.kind = 'pronunciation' and e.source = 'pronunciation'
    and e.due <= ${now.toISOString()})`;
}

/** The FSRS columns of an entry (alias `e`), under the names `entryMemory` reads. */
export const entryMemoryColumns = sql`e.due, e.stability, e.difficulty, e.elapsed_days, e.scheduled_days, e.reps, e.lapses, e.fsrs_state, e.last_review`;

/** The same, as one JSON object (for a statement that selects another memory's columns too). */
export const entryMemoryJson = sql`json_build_object('due', e.due, 'stability', e.stability, 'difficulty', e.difficulty,
  'elapsed_days', e.elapsed_days, 'scheduled_days', e.scheduled_days, 'reps', e.reps, 'lapses', e.lapses,
  'fsrs_state', e.fsrs_state, 'last_review', e.last_review)`;

/** An entry's memory as `entryMemoryColumns` (or `entryMemoryJson`) selected it; null for one never practised (FSRS's new card). */
export function entryMemory(row: Record<string, unknown>): Memory | null {
  return row.last_review ? memoryFromRow(row, "fsrs_state") : null;
}

/**
 * Writes an entry's schedule after one answer (right: FSRS Good; wrong: Again) and its state: practising, or mastered
 * once the next interval reaches MASTERED_AFTER_DAYS; a miss takes a mastered entry back to practice.
 */
export async function scheduleEntry(
  db: DbOrTx,
  input: { userId: string; entryId: string; previous: Memory | null; correct: boolean; now: Date },
): Promise<Memory> {
  const memory = nextMemory(input.previous, input.correct, input.now);
  const mastered = input.correct && memory.scheduled_days >= MASTERED_AFTER_DAYS;
  await db.execute(sql`
    update notebook_entries set due = ${memory.due.toISOString()}, stability = ${memory.stability}, difficulty = ${memory.difficulty},
      elapsed_days = ${memory.elapsed_days}, scheduled_days = ${memory.scheduled_days}, reps = ${memory.reps}, lapses = ${memory.lapses},
      fsrs_state = ${memory.state}, last_review = ${(memory.last_review ?? input.now).toISOString()},
      state = ${mastered ? "mastered" : "practising"},
      mastered_at = case when ${mastered} then coalesce(mastered_at, ${input.now.toISOString()}::timestamptz) else null end
    where id = ${input.entryId} and user_id = ${input.userId}`);
  return memory;
}

/** The flashcard a word's entry belongs to, as the game knows it. */
export type MissedCard = { userId: string; cardId: string; word: string; translation: string; chosenWord: string | null; category: string };

/**
 * A flashcard word missed twice (and each time after) is a `vocabulary` entry of "Meu caderno": the word picked
 * instead, the right one and its translation. Its schedule stays the card's. Never throws: the answer is stored.
 */
export async function noteMissedCard(db: DbOrTx, card: MissedCard): Promise<void> {
  try {
    await storeMistakes(db, { userId: card.userId, source: "flashcards", conversationId: null, messageId: null }, [
      {
        kind: "vocabulary",
        wrong: card.chosenWord ?? "?",
        right: card.word,
        explanation: `“${card.word}” quer dizer “${card.translation}”.`.slice(0, 300),
        alternatives: [],
        details: { cardId: card.cardId, category: card.category },
      },
    ]);
  } catch (error) {
    console.error("notebook: could not note a missed flashcard", error);
  }
}

/** How many correction and pronunciation cards are due now, for "Hoje" (an expression over the learner id). */
export function dueCorrectionsCount(userId: string, now: Date, { pronunciation = true }: { pronunciation?: boolean } = {}): SQL {
  const ready = pronunciation ? sql`(${correctionReady(now)} or ${pronunciationReady(now)})` : correctionReady(now);
  return sql`(select count(*)::int from notebook_entries e where e.user_id = ${userId} and ${ready})`;
}

/** Whether a correction was practised on São Paulo day `day` (YYYY-MM-DD), for "Hoje" (an expression). */
export function correctionsPractisedOn(userId: string, day: string): SQL {
  return sql`exists (select 1 from notebook_entries e where e.user_id = ${userId} and e.source <> 'flashcards'
    and e.last_review >= (${day}::date::timestamp at time zone 'America/Sao_Paulo'))`;
}

/**
 * The learner's due entries a new conversation brings back (most often made first), in one statement. A flashcard
 * word's entry is not one: its schedule is its card's, so it would always look due.
 */
export async function focusEntries(db: DbOrTx, userId: string, now: Date) {
  return rowsOf<{ entryId: string; kind: string; wrong: string; right: string }>(
    await db.execute(sql`
      select e.id as "entryId", e.kind, e.wrong, e."right" from notebook_entries e
      where e.user_id = ${userId} and e.dismissed_at is null and e.state <> 'mastered' and e.kind <> 'pronunciation'
        and e.source <> 'flashcards' and e.due <= ${now.toISOString()}
      order by e.count desc, e.due limit ${FOCUS_ENTRIES}`),
  );
}
