// The one FSRS scheduler (ts-fsrs, no short-term steps: a miss is due again soon, a hit later and later), shared by
// everything a learner reviews: a flashcard's memory and a "Meu caderno" entry. Both store the same columns.
import { createEmptyCard, fsrs, Rating, type Card } from "ts-fsrs";

export type Memory = Pick<Card, "due" | "stability" | "difficulty" | "elapsed_days" | "scheduled_days" | "reps" | "lapses" | "state"> & {
  last_review?: Date | null;
};

const scheduler = fsrs({ enable_short_term: false });

/** The item's memory after one answer (`previous` null: first time seen); right is FSRS Good, wrong is Again. */
export function nextMemory(previous: Memory | null, correct: boolean, now: Date): Memory {
  const card: Card = previous
    ? { ...createEmptyCard(now), ...previous, last_review: previous.last_review ?? undefined, learning_steps: 0 }
    : createEmptyCard(now);
  const { card: next } = scheduler.next(card, now, correct ? Rating.Good : Rating.Again);
  return {
    due: next.due,
    stability: next.stability,
    difficulty: next.difficulty,
    elapsed_days: next.elapsed_days,
    scheduled_days: next.scheduled_days,
    reps: next.reps,
    lapses: next.lapses,
    state: next.state,
    last_review: next.last_review ?? now,
  };
}

/**
 * A row's FSRS state as selected (its columns under their own names; `state_column` names the state's when it is not
 * `state`), or null when there is none (`due` null: never reviewed).
 */
export function memoryFromRow(row: Record<string, unknown>, stateColumn = "state"): Memory | null {
  if (row.due === null || row.due === undefined) return null;
  return {
    due: new Date(String(row.due)),
    stability: Number(row.stability),
    difficulty: Number(row.difficulty),
    elapsed_days: Number(row.elapsed_days),
    scheduled_days: Number(row.scheduled_days),
    reps: Number(row.reps),
    lapses: Number(row.lapses),
    state: Number(row[stateColumn]),
    last_review: row.last_review ? new Date(String(row.last_review)) : null,
  };
}
