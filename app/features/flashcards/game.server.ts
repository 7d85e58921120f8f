// Flashcard games, server-authoritative: the picker's tiles, starting a game (1 credit, one statement),
// the game as the learner may see it (no right answer before it is given), answering once, and the
// learner's memory of each card (FSRS) that builds review games.
import { sql } from "drizzle-orm";
import {
  correctionReady,
  dueCorrectionsCount,
  entryMemory,
  entryMemoryJson,
  noteMissedCard,
  PRONUNCIATION_MISTAKE_BELOW,
  pronunciationReady,
  scheduleEntry,
  type MissedCard,
} from "~/features/notebook";
import { memoryFromRow, nextMemory, type Memory } from "~/lib/fsrs";
import { recordActivitySafely } from "~/server/activity.server";
import { spendCreditsThen } from "~/server/credits.server";
import { jsonValue, rowsOf, type DbOrTx } from "~/server/db.server";
import { cardAudioUrl, cardImageUrl, categoryTileUrl, type MediaRefs } from "./content.server";
import { groupCount, OPTIONS_PER_QUESTION, planQuestions, QUESTIONS_PER_GAME, shuffle, type PlanCard } from "./plan";

/** Ledger reason of a game's credit. */
export const FLASHCARDS_CREDIT_REASON = "flashcards";

// ——— the picker ———

export type CategoryTile = { slug: string; name: string; tileUrl: string | null; cardCount: number; playable: boolean };
/**
 * `reviewCount`: the cards and the "Meu caderno" corrections a Revisão would ask now; `offlineReviewCount`: those a
 * Revisão bundle can carry (no pronunciation word: nothing scores it offline).
 */
export type Picker = { categories: CategoryTile[]; reviewCount: number; offlineReviewCount: number };

/**
 * Cards ready for review: due by FSRS, or missed the last time they were asked (a missed word comes
 * back at once, not only when its interval ends).
 */
export const readyForReview = (now: Date) => sql`(m.due <= ${now.toISOString()} or m.last_missed)`;
export const visibleCard = sql`not k.hidden and k.deleted_at is null`;

/** The 8 tiles and the review counts, in one statement; `pronunciation`: whether Revisão can score a word now. */
export async function loadPicker(db: DbOrTx, userId: string, now: Date, { pronunciation = false } = {}): Promise<Picker> {
  const rows = rowsOf(
    await db.execute(sql`
      select c.slug, c.name, c.tile_asset,
        (select count(*)::int from flashcard_cards k where k.category_slug = c.slug and ${visibleCard}) as card_count,
        (select count(distinct k.distractor_group)::int from flashcard_cards k where k.category_slug = c.slug and ${visibleCard}) as group_count,
        (select count(*)::int from flashcard_memory m join flashcard_cards k on k.id = m.card_id
          where m.user_id = ${userId} and ${readyForReview(now)} and ${visibleCard}) as card_review_count,
        ${dueCorrectionsCount(userId, now, { pronunciation: false })} as correction_count,
        ${pronunciation ? dueCorrectionsCount(userId, now) : sql`null`} as all_correction_count
      from flashcard_categories c
      order by c.order_index, c.slug`),
  );
  return {
    categories: rows.map((row) => ({
      slug: String(row.slug),
      name: String(row.name),
      tileUrl: categoryTileUrl(String(row.tile_asset)),
      cardCount: Number(row.card_count),
      playable: Number(row.group_count) >= OPTIONS_PER_QUESTION,
    })),
    reviewCount: Number(rows[0]?.card_review_count ?? 0) + Number(rows[0]?.all_correction_count ?? rows[0]?.correction_count ?? 0),
    offlineReviewCount: Number(rows[0]?.card_review_count ?? 0) + Number(rows[0]?.correction_count ?? 0),
  };
}

// ——— starting a game ———

/** A Revisão asks the pronunciation game's words too when `pronunciation` (something can score a recording). */
export type GameTarget = { kind: "category"; slug: string } | { kind: "review"; pronunciation?: boolean };

export type StartRefusal =
  /** No such category. */
  | "not_found"
  /** The category has fewer than 4 distinct cards: no question can have 4 options. */
  | "too_few_cards"
  /** A review game with no card seen yet. */
  | "nothing_to_review"
  | "credits_exhausted";

export type StartResult = { ok: true; gameId: string; balance: number } | { ok: false; code: StartRefusal; balance: number | null };

/** A card as a game draws it: its review state for the learner (`due` in ms, +∞ when never seen). */
export type PoolCard = PlanCard & { seen: boolean; ready: boolean; missed: boolean; due: number };

async function loadPool(db: DbOrTx, userId: string, target: GameTarget, now: Date): Promise<{ exists: boolean; cards: PoolCard[] }> {
  const rows = rowsOf(
    await db.execute(sql`
      select c.slug as category_exists, k.id, k.category_slug, k.distractor_group,
        m.due, coalesce(m.last_missed, false) as missed, (m.card_id is not null) as seen,
        coalesce(${readyForReview(now)}, false) as ready
      from flashcard_categories c
      left join flashcard_cards k on k.category_slug = c.slug and ${visibleCard}
      left join flashcard_memory m on m.card_id = k.id and m.user_id = ${userId}
      ${target.kind === "category" ? sql`where c.slug = ${target.slug}` : sql``}`),
  );
  return {
    exists: rows.length > 0,
    cards: rows
      .filter((row) => row.id !== null)
      .map((row) => ({
        id: String(row.id),
        categorySlug: String(row.category_slug),
        distractorGroup: String(row.distractor_group),
        seen: Boolean(row.seen),
        ready: Boolean(row.ready),
        missed: Boolean(row.missed),
        due: row.due ? new Date(String(row.due)).getTime() : Number.POSITIVE_INFINITY,
      })),
  };
}

/**
 * A "Meu caderno" entry Revisão can ask now: its right form and its three alternatives (none for a pronunciation
 * word), and what a player shows: the learner's sentence (or the wrong words alone) and the explanation.
 */
export type DueCorrection = {
  id: string;
  wrong: string;
  right: string;
  explanation: string;
  sentence: string;
  alternatives: string[];
  pronunciation: boolean;
};

/** Most correction cards in a Revisão that has picture cards too (the rest of the game is theirs); online and offline. */
export const CORRECTIONS_WITH_CARDS = 5;

/** The entries Revisão asks now (notebook's rules; `pronunciation`: the game's words too), oldest due first. */
export async function loadDueCorrections(db: DbOrTx, userId: string, now: Date, pronunciation: boolean): Promise<DueCorrection[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select e.id, e.wrong, e."right", e.explanation, e.alternatives, coalesce(e.details->>'sentence', e.wrong) as sentence,
        e.kind = 'pronunciation' as pronunciation
      from notebook_entries e
      where e.user_id = ${userId} and (${correctionReady(now)} or ${pronunciation ? pronunciationReady(now) : sql`false`})
      order by e.due, e.count desc limit ${QUESTIONS_PER_GAME}`),
  );
  return rows.map((row) => ({
    id: String(row.id),
    wrong: String(row.wrong),
    right: String(row.right),
    explanation: String(row.explanation),
    sentence: String(row.sentence),
    alternatives: jsonValue<string[]>(row.alternatives),
    pronunciation: Boolean(row.pronunciation),
  }));
}

/** A planned question: a picture card's (card and option ids), a correction's (entry and option texts) or a pronunciation word's (entry only). */
type PlannedRow = { card_id: string | null; entry_id: string | null; option_ids: string[]; option_texts: string[] | null };

/** Picture cards and corrections one after the other while both last. */
function interleave(cards: PlannedRow[], corrections: PlannedRow[]): PlannedRow[] {
  const rows: PlannedRow[] = [];
  for (let i = 0; i < Math.max(cards.length, corrections.length); i++) {
    if (cards[i]) rows.push(cards[i]!);
    if (corrections[i]) rows.push(corrections[i]!);
  }
  return rows;
}

/** Review order: ready first, then missed last time, then due soonest; only cards the learner has seen. */
export function reviewCards<Card extends PoolCard>(pool: readonly Card[], random: () => number): Card[] {
  return shuffle(
    pool.filter((card) => card.seen),
    random,
  ).sort((a, b) => Number(b.ready) - Number(a.ready) || Number(b.missed) - Number(a.missed) || a.due - b.due);
}

/** The categories among `cards` that can make a question (an admin may have hidden most of one). */
export function playableCategories(cards: readonly PlanCard[]): Set<string> {
  return new Set(
    [...new Set(cards.map((card) => card.categorySlug))].filter(
      (slug) => groupCount(cards.filter((card) => card.categorySlug === slug)) >= OPTIONS_PER_QUESTION,
    ),
  );
}

/**
 * Spends 1 credit and creates the game in one statement (or neither): up to 10 cards of the category (or, for
 * Revisão, the learner's due cards and "Meu caderno" corrections and pronunciation words), no repeats, 4 shuffled
 * options each (a pronunciation word has none: it is recorded); counts
 * `flashcards_played`.
 */
export async function startGame(
  db: DbOrTx,
  userId: string,
  target: GameTarget,
  now: Date,
  random: () => number = Math.random,
): Promise<StartResult> {
  const pool = await loadPool(db, userId, target, now);
  if (!pool.exists) return { ok: false, code: "not_found", balance: null };

  let rows: PlannedRow[];
  if (target.kind === "category") {
    if (groupCount(pool.cards) < OPTIONS_PER_QUESTION) return { ok: false, code: "too_few_cards", balance: null };
    const questions = planQuestions(shuffle(pool.cards, random).slice(0, QUESTIONS_PER_GAME), pool.cards, random);
    if (!questions) return { ok: false, code: "too_few_cards", balance: null };
    rows = questions.map((q) => ({ card_id: q.cardId, entry_id: null, option_ids: q.optionIds, option_texts: null }));
  } else {
    // Revisão: the due cards and the due "Meu caderno" corrections, mixed. A category that cannot make a question
    // (an admin hid most of it) gives no review card.
    const playable = playableCategories(pool.cards);
    const dueCards = reviewCards(pool.cards, random).filter((card) => playable.has(card.categorySlug));
    const due = await loadDueCorrections(db, userId, now, target.pronunciation ?? false);
    const corrections = due.slice(0, dueCards.length > 0 ? CORRECTIONS_WITH_CARDS : QUESTIONS_PER_GAME);
    const questions = planQuestions(dueCards.slice(0, QUESTIONS_PER_GAME - corrections.length), pool.cards, random);
    if (!questions) return { ok: false, code: "too_few_cards", balance: null };
    rows = interleave(
      questions.map((q) => ({ card_id: q.cardId, entry_id: null, option_ids: q.optionIds, option_texts: null })),
      corrections.map((entry) => ({
        card_id: null,
        entry_id: entry.id,
        option_ids: [],
        option_texts: entry.pronunciation ? null : shuffle([entry.right, ...entry.alternatives], random),
      })),
    );
    if (rows.length === 0) return { ok: false, code: "nothing_to_review", balance: null };
  }

  const planned = JSON.stringify(rows.map((row, position) => ({ position, ...row })));
  const { spend, row } = await spendCreditsThen(
    db,
    userId,
    1,
    FLASHCARDS_CREDIT_REASON,
    sql`game as (
        insert into flashcard_games (user_id, category_slug, kind, question_count)
        select id, ${target.kind === "category" ? target.slug : null}, ${target.kind}, ${rows.length} from spent
        returning id
      ), questions as (
        insert into flashcard_questions (game_id, position, card_id, entry_id, option_ids, option_texts)
        select game.id, q.position, q.card_id, q.entry_id, q.option_ids, q.option_texts
        from game cross join jsonb_to_recordset(${planned}::jsonb)
          as q(position smallint, card_id uuid, entry_id uuid, option_ids uuid[], option_texts text[])
      ), outcome as (select id from game)`,
    sql`flashcards_played = flashcards_played + 1`,
  );
  if (!spend.ok || !row) return { ok: false, code: "credits_exhausted", balance: spend.balance };
  return { ok: true, gameId: String(row.id), balance: spend.balance };
}

// ——— the game as the learner sees it ———

/** An option: a card (its id) or a correction's form (its place, "0"–"3"). */
export type OptionView = { id: string; word: string; audioUrl: string | null };
/**
 * Given only once the question is answered: the right option, and the word and its translation (a correction: the
 * right form, and `explanation` instead of a translation; a pronunciation word: the word and its `score`, 0–100, with
 * both ids empty).
 */
export type AnswerView = {
  chosenId: string;
  correctId: string;
  correct: boolean;
  word: string;
  translation: string;
  explanation?: string;
  score?: number;
};
/** A correction card's prompt: the learner's own sentence, and the words in it to highlight. */
export type CorrectionPrompt = { sentence: string; wrong: string };
/** A pronunciation card's prompt: the word to say, and the pronunciation game's sentence it was missed in. */
export type PronunciationPrompt = { word: string; sentence: string };
export type QuestionView = {
  position: number;
  imageUrl: string | null;
  /** Set for a "Meu caderno" correction card (then `imageUrl` is null). */
  correction: CorrectionPrompt | null;
  /** Set for a "Meu caderno" pronunciation word (then `imageUrl` and `correction` are null, and there are no options). */
  pronunciation?: PronunciationPrompt | null;
  options: OptionView[];
  answer: AnswerView | null;
};
export type MissedWord = { word: string; translation: string; imageUrl: string | null; audioUrl: string | null };
export type GameView = {
  id: string;
  kind: "category" | "review";
  category: { slug: string; name: string } | null;
  questionCount: number;
  answeredCount: number;
  correctCount: number;
  finished: boolean;
  questions: QuestionView[];
  /** Filled when the game is finished: the words answered wrong. */
  missed: MissedWord[];
};

type QuestionRow = MediaRefs & {
  position: number;
  cardId: string | null;
  chosenId: string | null;
  correct: boolean | null;
  word: string;
  translation: string;
  options: (Pick<MediaRefs, "audioAsset" | "audioKey"> & { id: string; word: string })[] | null;
  /** A correction's: the learner's sentence, the highlighted words, the option texts and the one chosen. */
  sentence: string | null;
  wrong: string | null;
  optionTexts: string[] | null;
  /** A correction's chosen place; a pronunciation word's score (0–100). */
  chosenIndex: number | null;
  entryKind: string | null;
};

/** A correction's right option ("0"–"3"). */
const rightIndexOf = (question: Pick<QuestionRow, "optionTexts" | "word">) =>
  String(Math.max(0, question.optionTexts?.indexOf(question.word) ?? 0));

const isPronunciation = (question: Pick<QuestionRow, "cardId" | "entryKind">) =>
  question.cardId === null && question.entryKind === "pronunciation";

function answerOf(question: QuestionRow): AnswerView | null {
  if (isPronunciation(question)) {
    if (question.chosenIndex === null) return null;
    return {
      chosenId: "",
      correctId: "",
      correct: Boolean(question.correct),
      word: question.word,
      translation: "",
      score: question.chosenIndex,
    };
  }
  if (question.optionTexts) {
    if (question.chosenIndex === null) return null;
    return {
      chosenId: String(question.chosenIndex),
      correctId: rightIndexOf(question),
      correct: Boolean(question.correct),
      word: question.word,
      translation: "",
      explanation: question.translation,
    };
  }
  if (question.chosenId === null || question.cardId === null) return null;
  return {
    chosenId: question.chosenId,
    correctId: question.cardId,
    correct: Boolean(question.correct),
    word: question.word,
    translation: question.translation,
  };
}

/** The learner's own game, in one statement; null for a missing game or someone else's. */
export async function loadGame(db: DbOrTx, userId: string, gameId: string): Promise<GameView | null> {
  const row = rowsOf(
    await db.execute(sql`
      select g.id, g.kind, g.category_slug, cat.name as category_name, g.question_count, g.answered_count, g.correct_count,
        g.finished_at is not null as finished,
        (select json_agg(json_build_object(
            'position', q.position, 'cardId', q.card_id, 'chosenId', q.chosen_id, 'correct', q.correct,
            'word', coalesce(k.word, e."right"), 'translation', coalesce(k.translation, e.explanation),
            'imageAsset', k.image_asset, 'imageKey', k.image_key, 'audioAsset', k.audio_asset, 'audioKey', k.audio_key,
            'options', (select json_agg(json_build_object('id', o.id, 'word', o.word, 'audioAsset', o.audio_asset, 'audioKey', o.audio_key) order by u.ord)
                        from unnest(q.option_ids) with ordinality as u(id, ord) join flashcard_cards o on o.id = u.id),
            'sentence', e.details->>'sentence', 'wrong', e.wrong, 'optionTexts', q.option_texts, 'chosenIndex', q.chosen_index,
            'entryKind', e.kind
          ) order by q.position)
         from flashcard_questions q left join flashcard_cards k on k.id = q.card_id left join notebook_entries e on e.id = q.entry_id
         where q.game_id = g.id) as questions
      from flashcard_games g left join flashcard_categories cat on cat.slug = g.category_slug
      where g.id = ${gameId} and g.user_id = ${userId}`),
  )[0];
  if (!row) return null;
  const questions = jsonValue<QuestionRow[] | null>(row.questions) ?? [];
  const finished = Boolean(row.finished);
  return {
    id: String(row.id),
    kind: row.kind === "review" ? "review" : "category",
    category: row.category_slug ? { slug: String(row.category_slug), name: String(row.category_name) } : null,
    questionCount: Number(row.question_count),
    answeredCount: Number(row.answered_count),
    correctCount: Number(row.correct_count),
    finished,
    questions: questions.map((question) => ({
      position: question.position,
      imageUrl: question.optionTexts ? null : cardImageUrl(question),
      correction: question.optionTexts ? { sentence: question.sentence ?? question.wrong ?? "", wrong: question.wrong ?? "" } : null,
      pronunciation: isPronunciation(question) ? { word: question.word, sentence: question.sentence ?? question.word } : null,
      options: question.optionTexts
        ? question.optionTexts.map((text, index) => ({ id: String(index), word: text, audioUrl: null }))
        : (question.options ?? []).map((option) => ({ id: option.id, word: option.word, audioUrl: cardAudioUrl(option) })),
      answer: answerOf(question),
    })),
    missed: finished
      ? questions
          .filter((question) => question.correct === false)
          .map((question) => ({
            word: question.word,
            translation: question.translation,
            imageUrl: question.cardId === null ? null : cardImageUrl(question),
            audioUrl: question.cardId === null ? null : cardAudioUrl(question),
          }))
      : [],
  };
}

/** The question to show when a game is opened without a position: the first one not answered. */
export const currentPosition = (game: GameView) => game.questions.find((question) => question.answer === null)?.position ?? null;

// ——— answering ———

export type AnswerRefusal = "not_found" | "already_answered" | "invalid_option";
export type AnswerResult =
  | {
      ok: true;
      correct: boolean;
      correctId: string;
      word: string;
      translation: string;
      explanation?: string;
      /** A pronunciation word's score (0–100). */
      score?: number;
      answeredCount: number;
      correctCount: number;
      finished: boolean;
    }
  | { ok: false; code: AnswerRefusal };

/**
 * The chosen option: a card's id, or a correction's place ("0"–"3" as `chosenIndex`); or a pronunciation word's
 * recording as the scorer heard it (`score`, the word's accuracy 0–100, stored in `chosen_index`).
 */
export type Choice = { chosenId: string } | { chosenIndex: number } | { score: number };

/**
 * Stores the answer to one question of the learner's own game — once: the update matches only an
 * unanswered question whose options include the choice — and the game's counts in the same statement;
 * then the item's memory (FSRS): the card's, or the "Meu caderno" entry's. The answer that finishes the game (only
 * one can) records it as the day's activity: a category game or a Revisão.
 */
export async function answerQuestion(
  db: DbOrTx,
  userId: string,
  input: { gameId: string; position: number } & Choice,
  now: Date,
): Promise<AnswerResult> {
  const { gameId, position } = input;
  const at = now.toISOString();
  const mine = sql`q.game_id = ${gameId} and q.position = ${position} and g.id = q.game_id and g.user_id = ${userId}
    and q.chosen_id is null and q.chosen_index is null`;
  const answer =
    "chosenId" in input
      ? sql`update flashcard_questions q set chosen_id = ${input.chosenId}, correct = (q.card_id = ${input.chosenId}::uuid), answered_at = ${at}
          from flashcard_games g
          where ${mine} and q.card_id is not null and ${input.chosenId}::uuid = any(q.option_ids)
          returning q.card_id, q.entry_id, q.correct, q.chosen_id, null::int as right_index`
      : "score" in input
        ? sql`update flashcard_questions q set chosen_index = ${input.score}, correct = ${input.score >= PRONUNCIATION_MISTAKE_BELOW}, answered_at = ${at}
          from flashcard_games g, notebook_entries e
          where ${mine} and e.id = q.entry_id and e.kind = 'pronunciation' and q.option_texts is null
          returning q.card_id, q.entry_id, q.correct, null::uuid as chosen_id, null::int as right_index`
        : sql`update flashcard_questions q set chosen_index = ${input.chosenIndex}, correct = (q.option_texts[${input.chosenIndex + 1}] = e."right"), answered_at = ${at}
          from flashcard_games g, notebook_entries e
          where ${mine} and e.id = q.entry_id and ${input.chosenIndex} < coalesce(array_length(q.option_texts, 1), 0)
          returning q.card_id, q.entry_id, q.correct, null::uuid as chosen_id, array_position(q.option_texts, e."right") - 1 as right_index`;
  const answered = rowsOf(
    await db.execute(sql`
      with answered as (${answer}), counted as (
        update flashcard_games g set answered_count = g.answered_count + 1,
          correct_count = g.correct_count + (select count(*)::int from answered where correct),
          finished_at = case when g.answered_count + 1 >= g.question_count then ${at}::timestamptz else g.finished_at end
        where g.id = ${gameId} and exists (select 1 from answered)
        returning g.kind, g.answered_count, g.correct_count, g.finished_at is not null as finished
      )
      select a.card_id, a.entry_id, a.correct, a.right_index, c.kind, c.answered_count, c.correct_count, c.finished,
        coalesce(k.word, e."right") as word, coalesce(k.translation, e.explanation) as translation,
        chosen.word as chosen_word, cat.name as category_name,
        m.due, m.stability, m.difficulty, m.elapsed_days, m.scheduled_days, m.reps, m.lapses, m.state, m.last_review,
        ${entryMemoryJson} as entry_memory
      from answered a cross join counted c
      left join flashcard_cards k on k.id = a.card_id
      left join flashcard_categories cat on cat.slug = k.category_slug
      left join flashcard_cards chosen on chosen.id = a.chosen_id
      left join flashcard_memory m on m.user_id = ${userId} and m.card_id = a.card_id
      left join notebook_entries e on e.id = a.entry_id`),
  )[0];
  if (!answered) return { ok: false, code: await whyNotAnswered(db, userId, gameId, position) };

  const correct = Boolean(answered.correct);
  if (answered.entry_id !== null) {
    const entryId = String(answered.entry_id);
    await scheduleEntry(db, { userId, entryId, previous: entryMemory(jsonValue<Record<string, unknown>>(answered.entry_memory)), correct, now });
  } else {
    await storeCardMemory(db, userId, String(answered.card_id), memoryFromRow(answered), correct, now, {
      word: String(answered.word),
      translation: String(answered.translation),
      chosenWord: answered.chosen_word === null ? null : String(answered.chosen_word),
      category: String(answered.category_name ?? ""),
    });
  }
  const finished = Boolean(answered.finished);
  if (finished) {
    const kind = answered.kind === "review" ? "review_game" : "flashcard_game";
    await recordActivitySafely(db, { userId, kind, ref: gameId, at: now });
  }

  if ("score" in input) {
    const { answered_count, correct_count } = answered;
    const counts = { answeredCount: Number(answered_count), correctCount: Number(correct_count), finished };
    return { ok: true, correct, correctId: "", word: String(answered.word), translation: "", score: input.score, ...counts };
  }
  return {
    ok: true,
    correct,
    correctId: answered.entry_id !== null ? String(answered.right_index) : String(answered.card_id),
    word: String(answered.word),
    translation: answered.entry_id !== null ? "" : String(answered.translation),
    ...(answered.entry_id !== null ? { explanation: String(answered.translation) } : {}),
    answeredCount: Number(answered.answered_count),
    correctCount: Number(answered.correct_count),
    finished,
  };
}

/** How many wrong answers make a card's word a "Meu caderno" entry (and each one after it counts there too). */
export const MISSES_TO_NOTEBOOK = 2;

/** A card's memory after an answer; its second miss (and each after) notes the word in "Meu caderno". */
async function storeCardMemory(
  db: DbOrTx,
  userId: string,
  cardId: string,
  previous: Memory | null,
  correct: boolean,
  now: Date,
  card: Omit<MissedCard, "userId" | "cardId">,
): Promise<void> {
  const memory = nextMemory(previous, correct, now);
  const [row] = rowsOf<{ miss_count: number }>(
    await db.execute(sql`
      insert into flashcard_memory (user_id, card_id, due, stability, difficulty, elapsed_days, scheduled_days, reps, lapses, state, last_review, last_missed, miss_count)
      values (${userId}, ${cardId}, ${memory.due.toISOString()}, ${memory.stability}, ${memory.difficulty}, ${memory.elapsed_days},
        ${memory.scheduled_days}, ${memory.reps}, ${memory.lapses}, ${memory.state}, ${(memory.last_review ?? now).toISOString()}, ${!correct}, ${correct ? 0 : 1})
      on conflict (user_id, card_id) do update set due = excluded.due, stability = excluded.stability, difficulty = excluded.difficulty,
        elapsed_days = excluded.elapsed_days, scheduled_days = excluded.scheduled_days, reps = excluded.reps, lapses = excluded.lapses,
        state = excluded.state, last_review = excluded.last_review, last_missed = excluded.last_missed,
        miss_count = flashcard_memory.miss_count + excluded.miss_count
      returning miss_count`),
  );
  if (!correct && Number(row?.miss_count) >= MISSES_TO_NOTEBOOK) await noteMissedCard(db, { userId, cardId, ...card });
}

/** Only on the refusal path: which rule stopped the answer. */
async function whyNotAnswered(db: DbOrTx, userId: string, gameId: string, position: number): Promise<AnswerRefusal> {
  const row = rowsOf(
    await db.execute(sql`
      select q.chosen_id is not null or q.chosen_index is not null as answered from flashcard_questions q join flashcard_games g on g.id = q.game_id
      where q.game_id = ${gameId} and q.position = ${position} and g.user_id = ${userId}`),
  )[0];
  if (!row) return "not_found";
  return row.answered ? "already_answered" : "invalid_option";
}

// ——— a pronunciation word ———

export type PronunciationQuestion =
  { ok: true; word: string; level: number } | { ok: false; code: "not_found" | "already_answered" | "not_pronunciation" };

/**
 * The pronunciation word asked at `position` of the learner's own game, before anything scores its recording:
 * missing (or another learner's), already answered, or not a pronunciation card.
 */
export async function loadPronunciationQuestion(db: DbOrTx, userId: string, gameId: string, position: number): Promise<PronunciationQuestion> {
  const row = rowsOf(
    await db.execute(sql`
      select e."right" as word, e.details->>'level' as level,
        coalesce(e.kind = 'pronunciation' and q.option_texts is null, false) as pronunciation,
        q.chosen_id is not null or q.chosen_index is not null as answered
      from flashcard_questions q join flashcard_games g on g.id = q.game_id left join notebook_entries e on e.id = q.entry_id
      where q.game_id = ${gameId} and q.position = ${position} and g.user_id = ${userId}`),
  )[0];
  if (!row) return { ok: false, code: "not_found" };
  if (row.answered) return { ok: false, code: "already_answered" };
  if (!row.pronunciation) return { ok: false, code: "not_pronunciation" };
  return { ok: true, word: String(row.word), level: Number(row.level) || 0 };
}

/**
 * The word's accuracy in a scorer's assessment of it said alone (the reference text is the word): the mean of its
 * reference words (an omitted one scores 0), floored so the score shown and the verdict (≥ 60 is right) agree.
 */
export function wordAccuracy(words: readonly { accuracyScore: number; errorType: string }[]): number {
  const said = words.filter((word) => word.errorType !== "Insertion");
  if (said.length === 0) return 0;
  const mean = said.reduce((sum, word) => sum + (word.errorType === "Omission" ? 0 : word.accuracyScore), 0) / said.length;
  return Math.max(0, Math.min(100, Math.floor(mean)));
}
