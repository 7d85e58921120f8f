// Finding a learner's mistakes in one turn: a structured review call to the chat provider, made after Nika's reply
// (the reply's first token never waits for it), never paid for and never in the chat's way. What the model answers
// is validated here and stored in "Meu caderno"; a malformed answer stores nothing. The review is also told the
// conversation's focus (the due mistakes it brings back) and says which of them the learner used right unprompted.
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { ConversationFocusItem } from "~/features/conversation";
import type { AiProviders, JsonSchemaSpec } from "~/server/ai/index.server";
import type { Database, DbOrTx } from "~/server/db.server";
import { noteUsedRight } from "./focus.server";
import { NOTEBOOK_LIMITS, notebookEntries, notebookSightings, type NotebookDetails, type NotebookKind, type NotebookSource } from "./tables";

/** The kinds a review may find (pronunciation comes from the game's scores, not from text). */
export const REVIEW_KINDS = ["grammar", "vocabulary", "word_choice", "false_friend", "portuguese_word", "spelling"] as const;
const MAX_MISTAKES_PER_TURN = 5;
/** A conversation's focus holds up to 5 entries (practice.server's FOCUS_ENTRIES); room for a model's repeats. */
const MAX_FOCUS_INDEXES = 10;
const REVIEW_MAX_TOKENS = 800;

export const REVIEW_SCHEMA: JsonSchemaSpec = {
  name: "learner_mistakes",
  schema: {
    type: "object",
    additionalProperties: false,
    required: ["mistakes", "used_correctly"],
    properties: {
      mistakes: {
        type: "array",
        maxItems: MAX_MISTAKES_PER_TURN,
        items: {
          type: "object",
          additionalProperties: false,
          required: ["wrong", "right", "kind", "explanation", "alternatives"],
          properties: {
            wrong: { type: "string", description: "The learner's exact words that are wrong." },
            right: { type: "string", description: "The corrected form of those words." },
            kind: { type: "string", enum: REVIEW_KINDS },
            explanation: { type: "string", description: "One short sentence in Brazilian Portuguese." },
            alternatives: {
              type: "array",
              minItems: 3,
              maxItems: 3,
              items: { type: "string" },
              description: "Three wrong but plausible forms, none equal to the corrected one.",
            },
          },
        },
      },
      used_correctly: {
        type: "array",
        maxItems: MAX_FOCUS_INDEXES,
        items: { type: "integer" },
        description: "The numbers of the practised forms the learner used correctly, unprompted, in this message.",
      },
    },
  },
};

const REVIEW_PROMPT = [
  "You review one message written or spoken in English by a Brazilian learner of English.",
  "List only real English mistakes in it: grammar, vocabulary, word choice, false friends, Portuguese words used",
  "in place of English ones, and spelling. Ignore punctuation, capital letters, contractions and style.",
  "For each mistake give: `wrong`, the learner's exact words (copied from the message); `right`, the corrected form",
  "of those words; `kind`; `explanation`, one short sentence in Brazilian Portuguese; `alternatives`, three wrong",
  "but plausible forms a learner might choose instead of the right one. No mistakes: an empty list.",
].join(" ");

/** What the review is told of the conversation's focus, and how to answer `used_correctly`. */
export function focusReviewPrompt(focus: readonly ConversationFocusItem[], previousNika?: string | null): string {
  if (focus.length === 0) return "`used_correctly`: always an empty list.";
  const forms = focus.map((item, index) => `${index}. ${JSON.stringify(item.right)} (once said as ${JSON.stringify(item.wrong)})`).join("\n");
  const before = previousNika?.trim()
    ? `\nNika's message just before it, for context only (do not review it): ${JSON.stringify(previousNika.trim())}`
    : "";
  return [
    "The learner is practising these corrected forms, numbered from 0:",
    forms,
    "`used_correctly`: the numbers of those forms the learner used correctly in this message, on their own: the right",
    "structure in a sentence of their own, not copied or repeated from Nika's message. Not used, used wrongly, or only",
    `repeated: leave it out. None: an empty list.${before}`,
  ].join("\n");
}

/** Lower case, single spaces, no end punctuation: how two forms are compared. */
export function fold(text: string): string {
  return text
    .normalize("NFC")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!?,;:]+$/, "");
}

const mistakeSchema = z
  .object({
    wrong: z.string().trim().min(1).max(NOTEBOOK_LIMITS.wrong),
    right: z.string().trim().min(1).max(NOTEBOOK_LIMITS.right),
    kind: z.enum(REVIEW_KINDS),
    explanation: z.string().trim().min(1).max(NOTEBOOK_LIMITS.explanation),
    alternatives: z.array(z.string().trim().min(1).max(NOTEBOOK_LIMITS.alternative)).length(3),
  })
  .refine((m) => fold(m.wrong) !== fold(m.right), "a correction equal to the learner's words")
  .refine((m) => !m.alternatives.some((a) => fold(a) === fold(m.right)), "the right form among the alternatives");
const answerSchema = z.object({ mistakes: z.array(z.unknown()).max(20), used_correctly: z.unknown().optional() });

export type Mistake = z.infer<typeof mistakeSchema>;

/**
 * The mistakes of a review answer that hold: each well formed, its `wrong` words really in the learner's text (a
 * model that invents a quote is not believed), one per kind and corrected form. Null when the answer itself is
 * malformed.
 */
export function mistakesOf(answer: unknown, learnerText: string): Mistake[] | null {
  const parsed = answerSchema.safeParse(answer);
  if (!parsed.success) return null;
  const said = fold(learnerText);
  const seen = new Set<string>();
  const mistakes: Mistake[] = [];
  for (const raw of parsed.data.mistakes) {
    const mistake = mistakeSchema.safeParse(raw);
    if (!mistake.success || !said.includes(fold(mistake.data.wrong))) continue;
    const key = `${mistake.data.kind}:${fold(mistake.data.right)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    mistakes.push(mistake.data);
    if (mistakes.length === MAX_MISTAKES_PER_TURN) break;
  }
  return mistakes;
}

/**
 * The focus entries (their ids) a review answer says were used right: `used_correctly` a list of whole numbers,
 * each an index of `focus` (missing: none). An index out of range, or not a list of whole numbers, means a malformed
 * answer: none is believed (null). Repeats count once; an entry the same answer also reports as a mistake (the same
 * corrected form) was not used right.
 */
export function usedRightOf(answer: unknown, focus: readonly ConversationFocusItem[], mistakes: readonly Mistake[]): string[] | null {
  const raw = (answer as { used_correctly?: unknown } | null)?.used_correctly;
  if (raw === undefined) return [];
  const parsed = z
    .array(
      z
        .number()
        .int()
        .min(0)
        .max(focus.length - 1),
    )
    .max(MAX_FOCUS_INDEXES)
    .safeParse(raw);
  if (!parsed.success) return null;
  const madeAgain = new Set(mistakes.map((mistake) => fold(mistake.right)));
  return [...new Set(parsed.data)]
    .map((index) => focus[index]!)
    .filter((item) => !madeAgain.has(fold(item.right)))
    .map((item) => item.entryId);
}

export type LearnerTurn = {
  userId: string;
  text: string;
  source: Exclude<NotebookSource, "pronunciation" | "flashcards">;
  conversationId: string | null;
  messageId: string | null;
  /** The conversation's focus (chat_conversations.focus): the due mistakes it brings back. */
  focus?: readonly ConversationFocusItem[];
  /** Nika's message the learner answered, so the review can tell a form used unprompted from one repeated. */
  previousNika?: string | null;
};

export type StoredMistake = {
  kind: NotebookKind;
  wrong: string;
  right: string;
  explanation: string;
  alternatives: string[];
  details?: NotebookDetails;
};

/**
 * Stores a turn's mistakes in one statement: a new one is a new entry, one already there counts once more and
 * points at this turn, and one the learner dismissed as a wrong correction stays dismissed (and uncounted). A turn of
 * a conversation also notes each one as made there (its summary lists them).
 */
export async function storeMistakes(
  db: DbOrTx,
  turn: Pick<LearnerTurn, "userId" | "conversationId" | "messageId"> & { source: NotebookSource },
  mistakes: StoredMistake[],
): Promise<void> {
  if (mistakes.length === 0) return;
  const stored = await db
    .insert(notebookEntries)
    .values(
      mistakes.map((m) => ({
        userId: turn.userId,
        kind: m.kind,
        wrong: m.wrong,
        right: m.right,
        rightKey: fold(m.right),
        explanation: m.explanation,
        alternatives: m.alternatives,
        source: turn.source,
        conversationId: turn.conversationId,
        messageId: turn.messageId,
        details: m.details ?? null,
      })),
    )
    .onConflictDoUpdate({
      target: [notebookEntries.userId, notebookEntries.kind, notebookEntries.rightKey],
      set: {
        count: sql`${notebookEntries.count} + 1`,
        wrong: sql`excluded.wrong`,
        source: sql`excluded.source`,
        conversationId: sql`excluded.conversation_id`,
        messageId: sql`excluded.message_id`,
        explanation: sql`excluded.explanation`,
        details: sql`excluded.details`,
        lastSeenAt: sql`now()`,
        // Made again after "Já sei": back to practice.
        state: sql`case when ${notebookEntries.state} = 'mastered' then 'practising' else ${notebookEntries.state} end`,
        masteredAt: sql`null`,
      },
      setWhere: sql`${notebookEntries.dismissedAt} is null`,
    })
    .returning({ id: notebookEntries.id });
  const { conversationId } = turn;
  if (conversationId && stored.length > 0) {
    await db
      .insert(notebookSightings)
      .values(stored.map(({ id }) => ({ userId: turn.userId, entryId: id, conversationId, messageId: turn.messageId, kind: "made" as const })));
  }
}

/** The sentence of the learner's text the mistake is in (a correction card shows it), at most `max` characters. */
export function sentenceAround(text: string, wrong: string, max = 300): string {
  const sentences = text.split(/(?<=[.!?])\s+/).map((sentence) => sentence.trim());
  const found = sentences.find((sentence) => fold(sentence).includes(fold(wrong))) ?? text.trim();
  if (found.length <= max) return found;
  const at = Math.max(0, found.toLowerCase().indexOf(wrong.toLowerCase()));
  const start = Math.max(0, Math.min(at - Math.floor((max - wrong.length) / 2), found.length - max));
  return found.slice(start, start + max);
}

/**
 * Reviews one learner turn and stores its mistakes. Never throws: the chat has answered already, and a review that
 * fails (no structured provider, a timeout, a malformed answer) only means no entry; it is logged.
 */
export async function reviewLearnerTurn(db: Database, providers: AiProviders, turn: LearnerTurn, signal?: AbortSignal): Promise<number> {
  if (!providers.structured || !turn.text.trim()) return 0;
  const focus = turn.conversationId ? (turn.focus ?? []) : [];
  try {
    const answer = await providers.structured.completeJson({
      messages: [
        { role: "system", content: `${REVIEW_PROMPT}\n\n${focusReviewPrompt(focus, turn.previousNika)}` },
        { role: "user", content: turn.text },
      ],
      schema: REVIEW_SCHEMA,
      maxTokens: REVIEW_MAX_TOKENS,
      signal,
    });
    const mistakes = mistakesOf(answer, turn.text);
    if (mistakes === null) {
      console.warn("notebook: the review answer is malformed; nothing stored");
      return 0;
    }
    await storeMistakes(
      db,
      turn,
      mistakes.map((mistake) => ({ ...mistake, details: { sentence: sentenceAround(turn.text, mistake.wrong) } })),
    );
    const usedRight = focus.length > 0 ? usedRightOf(answer, focus, mistakes) : [];
    if (usedRight === null) console.warn("notebook: the review's used_correctly is malformed; no entry used right");
    else if (usedRight.length > 0 && turn.conversationId) {
      await noteUsedRight(db, {
        userId: turn.userId,
        conversationId: turn.conversationId,
        messageId: turn.messageId,
        entryIds: usedRight,
        now: new Date(),
      });
    }
    return mistakes.length;
  } catch (error) {
    console.warn("notebook: review failed", error instanceof Error ? error.message : error);
    return 0;
  }
}

/** Below this accuracy (0–100), a word of a pronunciation attempt is a mistake to practise. */
export const PRONUNCIATION_MISTAKE_BELOW = 60;

/**
 * A scored pronunciation attempt's weak words become `pronunciation` entries (the word, with the level, the sentence
 * and the score); a word already there counts once more. Never throws: the attempt is scored either way.
 */
export async function notePronunciationAttempt(
  db: Database,
  attempt: { userId: string; level: number; sentence: string; words: { word: string; accuracyScore: number; errorType: string }[] },
): Promise<void> {
  const weak = new Map<string, StoredMistake>();
  for (const { word, accuracyScore, errorType } of attempt.words) {
    const clean = word.replace(/^[^\p{L}']+|[^\p{L}']+$/gu, "");
    if (errorType === "Insertion" || !clean || accuracyScore >= PRONUNCIATION_MISTAKE_BELOW || clean.length > NOTEBOOK_LIMITS.right) continue;
    const score = Math.round(accuracyScore);
    weak.set(fold(clean), {
      kind: "pronunciation",
      wrong: clean,
      right: clean,
      explanation: `Sua pronúncia de “${clean}” teve nota ${score} de 100 no nível ${attempt.level}.`,
      alternatives: [],
      details: { level: attempt.level, sentence: attempt.sentence, score },
    });
  }
  try {
    await storeMistakes(db, { userId: attempt.userId, source: "pronunciation", conversationId: null, messageId: null }, [...weak.values()]);
  } catch (error) {
    console.error("notebook: could not note a pronunciation attempt", error);
  }
}
