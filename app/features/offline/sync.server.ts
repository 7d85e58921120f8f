// The offline queue's sync: the answers a learner gave offline arrive here, each with its idempotency key,
// and are counted exactly once however often (and however concurrently) the queue is sent. The rules:
// - each bundle is checked: its signature (bad_signature), its learner (not_yours), its expiry (expired);
// - an answer must be to a card of its bundle, with one of that card's options, or to a correction of its bundle (a
//   "Meu caderno" entry of the learner's, in the bundle's `entries`), with a place among its 4 forms (outside_bundle);
//   a correction's answer is right when the bundle's form at that place is the entry's right form now — the server
//   decides, never the device;
// - an answer is stored once: the unique answer key, and one answer per game position (flashcard_questions' keys);
// - an offline game becomes a flashcard_games row (the device's id) with its first accepted answer, paying its credit
//   in the same statement (spendCreditsThen); a second sync's insert of the same id fails on the primary key, which
//   undoes its spend. No credit: its answers are refused (credits_exhausted) and nothing of them is stored;
// - FSRS memory moves in the order the answers were given, each at its time clamped to [the bundle's issue, now]: a
//   card's (and, as online, its second miss and each after notes the word in "Meu caderno"), an entry's (notebook's
//   scheduleEntry, once per stored answer);
// - a game has the online game's shape: min(10, cards + corrections in the bundle) questions, each card and each
//   correction once; anything else is invalid;
// - the answer that completes the game finishes it and records the day's activity at that answer's time — but an
//   answer's time is the learner's claim: the activity lands at most on the day before the sync (practice on the bus,
//   synced after midnight), never on a day that had ended before that, so a backdated queue saves no streak.
import { sql } from "drizzle-orm";
import { z } from "zod";
import { FLASHCARDS_CREDIT_REASON, MISSES_TO_NOTEBOOK, OPTIONS_PER_QUESTION, QUESTIONS_PER_GAME, REFUSALS } from "~/features/flashcards";
import { entryMemory, entryMemoryColumns, noteMissedCard, scheduleEntry } from "~/features/notebook";
import { memoryFromRow, nextMemory, type Memory } from "~/lib/fsrs";
import { isUuid } from "~/lib/ids";
import { earliestCreditableAt, recordActivitySafely } from "~/server/activity.server";
import { spendCreditsThen } from "~/server/credits.server";
import { jsonValue, rowsOf, uniqueViolation, type DbOrTx } from "~/server/db.server";
import type { Env } from "~/server/env";
import { bundleSignatureValid } from "./bundle.server";
import { SYNC_MAX_ANSWERS, SYNC_MAX_BUNDLES, type QueuedGame, type SyncRefusalCode, type SyncResponse } from "./types";

/** At most this many answers per request (the client sends bigger queues in batches). */
export const MAX_SYNC_ANSWERS = SYNC_MAX_ANSWERS;
const MAX_SYNC_BUNDLES = SYNC_MAX_BUNDLES;
/** Room for 500 answers, their games and bundles. */
export const SYNC_MAX_BYTES = 256 * 1024;

export const SYNC_MESSAGES: Record<SyncRefusalCode, string> = {
  bad_signature: "Pacote offline inválido: a assinatura não confere.",
  not_yours: "Este pacote offline é de outra conta.",
  expired: "Este pacote offline expirou. Baixe-o de novo para continuar praticando.",
  outside_bundle: "Resposta fora do pacote offline.",
  credits_exhausted: `${REFUSALS.credits_exhausted[0]}: ${REFUSALS.credits_exhausted[1]}`,
  invalid: "Resposta inválida.",
};
const POSITION_TAKEN = "Esta pergunta do jogo já foi respondida.";
const CARD_REPEATED = "Este cartão já apareceu neste jogo.";
const CORRECTION_REPEATED = "Esta correção já apareceu neste jogo.";

const uuid = z
  .string()
  .refine(isUuid)
  .transform((id) => id.toLowerCase());

/** The envelope; each game, bundle and answer is then checked on its own, so one bad answer refuses only itself. */
export const syncSchema = z.object({
  bundles: z.array(z.unknown()).max(MAX_SYNC_BUNDLES),
  games: z.array(z.unknown()).max(MAX_SYNC_ANSWERS),
  answers: z.array(z.looseObject({ key: uuid })).max(MAX_SYNC_ANSWERS),
});
export type SyncInput = z.output<typeof syncSchema>;

const bundleRefSchema = z.object({ id: uuid, signature: z.string().max(200) });
const gameSchema = z.object({ id: uuid, bundleId: uuid, questionCount: z.number().int().min(1).max(QUESTIONS_PER_GAME) });
const answerBase = z.object({
  key: uuid,
  gameId: uuid,
  position: z
    .number()
    .int()
    .min(0)
    .max(QUESTIONS_PER_GAME - 1),
  answeredAt: z.iso.datetime({ offset: true }),
});
/** A picture card's answer or a correction's — never both at once. */
const answerSchema = z.union([
  answerBase.extend({ cardId: uuid, chosenId: uuid, entryId: z.never().optional(), chosenIndex: z.never().optional() }),
  answerBase.extend({
    entryId: uuid,
    chosenIndex: z
      .number()
      .int()
      .min(0)
      .max(OPTIONS_PER_QUESTION - 1),
    cardId: z.never().optional(),
    chosenId: z.never().optional(),
  }),
]);

type StoredBundle = {
  id: string;
  userId: string;
  kind: "category" | "review";
  categorySlug: string | null;
  cards: Record<string, string[]>;
  /** Its corrections: entry id → the 4 forms in the order shown. */
  entries: Record<string, string[]>;
  issuedAt: string;
  expiresAt: string;
};
type StoredGame = { id: string; userId: string; bundleId: string | null; questionCount: number };
type Verdict = { ok: true; bundle: StoredBundle } | { ok: false; code: SyncRefusalCode };

/** An answer that passed every check and waits to be stored. */
type Candidate = {
  key: string;
  gameId: string;
  bundleId: string;
  position: number;
  /** A picture card's answer: the card, the option chosen and the 4 shown (else null, null, []). */
  cardId: string | null;
  chosenId: string | null;
  optionIds: string[];
  /** A correction's: the entry, the place chosen and the 4 forms shown (else null). */
  entryId: string | null;
  chosenIndex: number | null;
  optionTexts: string[] | null;
  correct: boolean;
  /** Its time clamped to [bundle issued, now] (ISO). */
  at: string;
};

const ids = (values: Iterable<string>) => JSON.stringify([...new Set(values)]);
const inIds = (json: string) => sql`(select value::uuid from jsonb_array_elements_text(${json}::jsonb))`;

export type SyncDeps = { db: DbOrTx; env: Pick<Env, "SESSION_SECRET" | "SESSION_SECRET_PREVIOUS"> };

export async function syncAnswers(deps: SyncDeps, userId: string, input: SyncInput, now: Date): Promise<SyncResponse> {
  const { db } = deps;
  const accepted: string[] = [];
  const duplicate: string[] = [];
  const refused: SyncResponse["refused"] = [];
  const refuse = (key: string, code: SyncRefusalCode, message = SYNC_MESSAGES[code]) => refused.push({ key, code, message });

  const bundleRefs = new Map<string, string>();
  for (const entry of input.bundles) {
    const ref = bundleRefSchema.safeParse(entry);
    if (ref.success && !bundleRefs.has(ref.data.id)) bundleRefs.set(ref.data.id, ref.data.signature);
  }
  const games = new Map<string, QueuedGame>();
  for (const entry of input.games) {
    const game = gameSchema.safeParse(entry);
    if (game.success && !games.has(game.data.id)) games.set(game.data.id, game.data);
  }
  // Each key once, in the order the answers were given (their times; the request's order among equal times).
  const seenKeys = new Set<string>();
  const answers: (z.output<typeof answerSchema> & { time: number })[] = [];
  for (const entry of input.answers) {
    if (seenKeys.has(entry.key)) continue;
    seenKeys.add(entry.key);
    const answer = answerSchema.safeParse(entry);
    if (answer.success) answers.push({ ...answer.data, time: Date.parse(answer.data.answeredAt) });
    else refuse(entry.key, "invalid");
  }
  answers.sort((a, b) => a.time - b.time);
  const cardIds = answers.flatMap((a) => (a.cardId ? [a.cardId] : []));
  const entryIds = answers.flatMap((a) => (a.entryId ? [a.entryId] : []));

  // 1. What is known already, in one statement: the bundles, the games, the keys stored, the cards' memory, the
  //    entries' right forms (the learner's own only), the balance.
  const known = rowsOf(
    await db.execute(sql`
      select
        (select coalesce(json_agg(json_build_object('id', b.id, 'userId', b.user_id, 'kind', b.kind, 'categorySlug', b.category_slug,
            'cards', b.cards, 'entries', b.entries, 'issuedAt', b.issued_at, 'expiresAt', b.expires_at)), '[]')
          from offline_bundles b where b.id in ${inIds(ids(bundleRefs.keys()))}) as bundles,
        (select coalesce(json_agg(json_build_object('id', g.id, 'userId', g.user_id, 'bundleId', g.offline_bundle_id, 'questionCount', g.question_count)), '[]')
          from flashcard_games g where g.id in ${inIds(ids(games.keys()))}) as games,
        (select coalesce(json_agg(json_build_object('gameId', q.game_id, 'itemId', coalesce(q.card_id, q.entry_id))), '[]')
          from flashcard_questions q where q.game_id in ${inIds(ids(games.keys()))}) as played,
        (select coalesce(json_agg(json_build_object('key', q.answer_key, 'mine', g.user_id = ${userId})), '[]')
          from flashcard_questions q join flashcard_games g on g.id = q.game_id
          where q.answer_key in ${inIds(ids(answers.map((a) => a.key)))}) as stored,
        (select coalesce(json_agg(m), '[]') from flashcard_memory m
          where m.user_id = ${userId} and m.card_id in ${inIds(ids(cardIds))}) as memory,
        (select coalesce(json_agg(json_build_object('id', e.id, 'right', e."right")), '[]') from notebook_entries e
          where e.user_id = ${userId} and e.id in ${inIds(ids(entryIds))}) as entries,
        (select monthly_credits from users where id = ${userId}) as balance`),
  )[0]!;
  const storedBundles = new Map(jsonValue<StoredBundle[]>(known.bundles).map((bundle) => [bundle.id, bundle]));
  const storedGames = new Map(jsonValue<StoredGame[]>(known.games).map((game) => [game.id, game]));
  const storedKeys = new Map(jsonValue<{ key: string; mine: boolean }[]>(known.stored).map((row) => [row.key, row.mine]));
  const memory = new Map(jsonValue<Record<string, unknown>[]>(known.memory).map((row) => [String(row.card_id), row]));
  /** The learner's entries answered: their right form now. */
  const rightForms = new Map(jsonValue<{ id: string; right: string }[]>(known.entries).map((row) => [row.id, row.right]));
  /** "game:item" of every card and correction a game has asked already: each once per game. */
  const itemsPlayed = new Set(jsonValue<{ gameId: string; itemId: string }[]>(known.played).map((row) => `${row.gameId}:${row.itemId}`));
  let balance = known.balance === null || known.balance === undefined ? null : Number(known.balance);

  // 2. The bundles: signature, learner, expiry.
  const verdicts = new Map<string, Verdict>();
  for (const [id, signature] of bundleRefs) {
    const bundle = storedBundles.get(id);
    const signed = bundle && { id, userId: bundle.userId, expiresAt: new Date(bundle.expiresAt) };
    if (!signed || !(await bundleSignatureValid(deps.env, signed, signature))) verdicts.set(id, { ok: false, code: "bad_signature" });
    else if (bundle.userId !== userId) verdicts.set(id, { ok: false, code: "not_yours" });
    else if (signed.expiresAt.getTime() <= now.getTime()) verdicts.set(id, { ok: false, code: "expired" });
    else verdicts.set(id, { ok: true, bundle });
  }

  // 3. Each answer against its game and bundle.
  const candidates: Candidate[] = [];
  const positions = new Set<string>();
  for (const answer of answers) {
    const storedKey = storedKeys.get(answer.key);
    if (storedKey !== undefined) {
      if (storedKey) duplicate.push(answer.key);
      else refuse(answer.key, "invalid");
      continue;
    }
    const game = games.get(answer.gameId);
    const verdict = game && verdicts.get(game.bundleId);
    const stored = storedGames.get(answer.gameId);
    if (!game || !verdict || (stored && (stored.userId !== userId || stored.bundleId !== game.bundleId))) {
      refuse(answer.key, "invalid");
      continue;
    }
    if (!verdict.ok) {
      refuse(answer.key, verdict.code);
      continue;
    }
    const { bundle } = verdict;
    const questionCount = stored?.questionCount ?? game.questionCount;
    const entries = bundle.entries ?? {};
    const inBundle = Object.keys(bundle.cards).length + Object.keys(entries).length;
    if (answer.position >= questionCount || (!stored && questionCount !== Math.min(QUESTIONS_PER_GAME, inBundle))) {
      refuse(answer.key, "invalid");
      continue;
    }
    // A card's options are card ids; a correction's, the forms shown (the place chosen among them); an entry no
    // longer the learner's (or gone) is outside the bundle too.
    const optionIds = answer.cardId ? bundle.cards[answer.cardId] : undefined;
    const optionTexts = answer.entryId ? entries[answer.entryId] : undefined;
    const right = answer.entryId ? rightForms.get(answer.entryId) : undefined;
    const chosenText = optionTexts?.[answer.chosenIndex ?? -1];
    if (optionIds ? !optionIds.includes(answer.chosenId!) : chosenText === undefined || right === undefined) {
      refuse(answer.key, "outside_bundle");
      continue;
    }
    const position = `${answer.gameId}:${answer.position}`;
    if (positions.has(position)) {
      refuse(answer.key, "invalid", POSITION_TAKEN);
      continue;
    }
    const itemInGame = `${answer.gameId}:${answer.cardId ?? answer.entryId}`;
    if (itemsPlayed.has(itemInGame)) {
      refuse(answer.key, "invalid", answer.cardId ? CARD_REPEATED : CORRECTION_REPEATED);
      continue;
    }
    positions.add(position);
    itemsPlayed.add(itemInGame);
    const at = Math.min(Math.max(answer.time, Date.parse(bundle.issuedAt)), now.getTime());
    candidates.push({
      key: answer.key,
      gameId: answer.gameId,
      bundleId: game.bundleId,
      position: answer.position,
      cardId: answer.cardId ?? null,
      chosenId: answer.chosenId ?? null,
      optionIds: optionIds ?? [],
      entryId: answer.entryId ?? null,
      chosenIndex: answer.chosenIndex ?? null,
      optionTexts: optionTexts ?? null,
      correct: optionIds ? answer.chosenId === answer.cardId : chosenText === right,
      at: new Date(at).toISOString(),
    });
  }

  // 4. A game not stored yet is created with its first accepted answer, paying its credit in the same statement.
  const unpaid = new Set<string>();
  for (const candidate of candidates) {
    const { gameId } = candidate;
    if (unpaid.has(gameId) || storedGames.has(gameId)) continue;
    const game = games.get(gameId)!;
    const bundle = (verdicts.get(game.bundleId) as Extract<Verdict, { ok: true }>).bundle;
    // Once a spend is refused the balance is spent: later games are refused without asking again.
    if (unpaid.size > 0) {
      unpaid.add(gameId);
      continue;
    }
    try {
      const { spend } = await spendCreditsThen(
        db,
        userId,
        1,
        FLASHCARDS_CREDIT_REASON,
        sql`game as (
            insert into flashcard_games (id, user_id, category_slug, kind, question_count, offline_bundle_id, created_at)
            select ${gameId}, id, ${bundle.categorySlug}, ${bundle.kind}, ${game.questionCount}, ${bundle.id}, ${candidate.at} from spent
            returning id
          ), outcome as (select id from game)`,
        sql`flashcards_played = flashcards_played + 1`,
        gameId,
      );
      balance = spend.balance;
      if (spend.ok) storedGames.set(gameId, { id: gameId, userId, bundleId: bundle.id, questionCount: game.questionCount });
      else unpaid.add(gameId);
    } catch (error) {
      if (uniqueViolation(error) !== "flashcard_games_pkey") throw error;
      // Another sync of the same queue created it meanwhile (and paid for it): read it as it is now.
      const row = rowsOf(
        await db.execute(sql`
          select id, user_id as "userId", offline_bundle_id as "bundleId", question_count as "questionCount"
          from flashcard_games where id = ${gameId}`),
      )[0] as StoredGame | undefined;
      storedGames.set(
        gameId,
        row ? { ...row, questionCount: Number(row.questionCount) } : { id: gameId, userId: "", bundleId: null, questionCount: 0 },
      );
    }
  }
  const storable: Candidate[] = [];
  for (const candidate of candidates) {
    const game = storedGames.get(candidate.gameId);
    if (unpaid.has(candidate.gameId)) refuse(candidate.key, "credits_exhausted");
    else if (game && game.userId === userId && game.bundleId === candidate.bundleId) storable.push(candidate);
    else refuse(candidate.key, "invalid");
  }

  // 5. The answers and their games' counts, in one statement: each stored once (key and position are unique); the
  //    answer that completes a game finishes it at its time. Rows go in one order, so concurrent syncs never deadlock.
  let finished: { id: string; kind: string; finishedAt: string }[] = [];
  if (storable.length > 0) {
    const rows = JSON.stringify(
      storable.map((c) => ({
        key: c.key,
        game_id: c.gameId,
        bundle_id: c.bundleId,
        position: c.position,
        card_id: c.cardId,
        option_ids: c.optionIds,
        chosen_id: c.chosenId,
        entry_id: c.entryId,
        option_texts: c.optionTexts,
        chosen_index: c.chosenIndex,
        correct: c.correct,
        answered_at: c.at,
      })),
    );
    const result = rowsOf(
      await db.execute(sql`
        with inserted as (
          insert into flashcard_questions (game_id, position, card_id, option_ids, chosen_id, entry_id, option_texts, chosen_index,
            correct, answered_at, answer_key)
          select x.game_id, x.position, x.card_id, x.option_ids, x.chosen_id, x.entry_id, x.option_texts, x.chosen_index,
            x.correct, x.answered_at, x.key
          from jsonb_to_recordset(${rows}::jsonb) as x(key uuid, game_id uuid, bundle_id uuid, position smallint, card_id uuid,
            option_ids uuid[], chosen_id uuid, entry_id uuid, option_texts text[], chosen_index smallint, correct boolean,
            answered_at timestamptz)
          join flashcard_games g on g.id = x.game_id and g.user_id = ${userId} and g.offline_bundle_id = x.bundle_id
            and x.position < g.question_count
          order by x.game_id, x.position
          on conflict do nothing
          returning answer_key, game_id, correct, answered_at
        ), per_game as (
          select game_id, count(*)::int as n, (count(*) filter (where correct))::int as right_answers, max(answered_at) as last_at
          from inserted group by game_id
        ), counted as (
          update flashcard_games g set answered_count = g.answered_count + p.n, correct_count = g.correct_count + p.right_answers,
            finished_at = case when g.answered_count + p.n >= g.question_count then coalesce(g.finished_at, p.last_at) else g.finished_at end
          from per_game p where g.id = p.game_id
          -- RETURNING sees the new counts. A complete game takes no more answers (every position is taken), so it is
          -- updated here once: by the batch that completed it.
          returning g.id, g.kind, g.finished_at, g.answered_count >= g.question_count as finished_now
        )
        select (select coalesce(json_agg(answer_key), '[]') from inserted) as keys,
          (select coalesce(json_agg(json_build_object('id', id, 'kind', kind, 'finishedAt', finished_at)), '[]') from counted where finished_now) as finished`),
    )[0]!;
    const inserted = new Set(jsonValue<string[]>(result.keys));
    finished = jsonValue<typeof finished>(result.finished);
    const missing = storable.filter((c) => !inserted.has(c.key));
    // Not stored: sent by a concurrent sync first (a duplicate), or another key took the position (refused).
    const elsewhere = missing.length
      ? new Set(
          rowsOf(
            await db.execute(sql`
              select q.answer_key from flashcard_questions q join flashcard_games g on g.id = q.game_id
              where g.user_id = ${userId} and q.answer_key in ${inIds(ids(missing.map((c) => c.key)))}`),
          ).map((row) => String(row.answer_key)),
        )
      : new Set<string>();
    for (const candidate of storable) {
      if (inserted.has(candidate.key)) accepted.push(candidate.key);
      else if (elsewhere.has(candidate.key)) duplicate.push(candidate.key);
      else refuse(candidate.key, "invalid", POSITION_TAKEN);
    }
    const stored = storable.filter((c) => inserted.has(c.key));
    await applyMemory(
      db,
      userId,
      stored.filter((c) => c.cardId !== null),
      memory,
    );
    await scheduleEntries(
      db,
      userId,
      stored.filter((c) => c.entryId !== null),
    );
  }

  // 6. Each game completed now is the day's activity, at its completing answer's time when that is yesterday or today
  //    (São Paulo); a claim older than that counts for the day of the sync.
  const earliest = earliestCreditableAt(now).getTime();
  for (const game of finished) {
    const finishedAt = Date.parse(game.finishedAt);
    await recordActivitySafely(db, {
      userId,
      kind: game.kind === "review" ? "review_game" : "flashcard_game",
      ref: game.id,
      at: finishedAt >= earliest ? new Date(finishedAt) : now,
    });
  }

  return { accepted, duplicate, refused, balance };
}

/**
 * FSRS over the stored card answers in the order given, card by card, then one write for every card — guarded by the
 * memory's review count read before, so a concurrent change (another sync, an online answer) is never overwritten: its
 * cards are read again and the answers applied on top (a few rounds at most). Each miss counts on the card
 * (`miss_count`); as online, the second miss and each after notes the word in "Meu caderno".
 */
async function applyMemory(db: DbOrTx, userId: string, answers: readonly Candidate[], known: Map<string, Record<string, unknown>>) {
  let pending = answers;
  /** Per card written: its miss count now, and the misses this sync added to it (in answer order). */
  const tally = new Map<string, { missCount: number; misses: Candidate[] }>();
  for (let round = 0; round < 4 && pending.length > 0; round++) {
    if (round > 0) {
      const fresh = rowsOf(
        await db.execute(
          sql`select * from flashcard_memory where user_id = ${userId} and card_id in ${inIds(ids(pending.map((a) => a.cardId!)))}`,
        ),
      );
      for (const card of new Set(pending.map((a) => a.cardId!))) known.delete(card);
      for (const row of fresh) known.set(String(row.card_id), row);
    }
    const next = new Map<string, { memory: Memory; missed: boolean; reps: number | null; misses: Candidate[] }>();
    for (const answer of pending) {
      const cardId = answer.cardId!;
      const before = next.get(cardId);
      const previous = before ? before.memory : memoryFromRow(known.get(cardId) ?? {});
      // Never earlier than the card's last review: FSRS counts the days since it.
      const at = new Date(Math.max(Date.parse(answer.at), previous?.last_review?.getTime() ?? 0));
      const reps = before ? before.reps : previous ? previous.reps : null;
      const misses = [...(before?.misses ?? []), ...(answer.correct ? [] : [answer])];
      next.set(cardId, { memory: nextMemory(previous, answer.correct, at), missed: !answer.correct, reps, misses });
    }
    const rows = JSON.stringify(
      [...next].map(([cardId, { memory, missed, reps, misses }]) => ({
        card_id: cardId,
        due: memory.due.toISOString(),
        stability: memory.stability,
        difficulty: memory.difficulty,
        elapsed_days: memory.elapsed_days,
        scheduled_days: memory.scheduled_days,
        reps: memory.reps,
        lapses: memory.lapses,
        state: memory.state,
        last_review: (memory.last_review ?? memory.due).toISOString(),
        last_missed: missed,
        misses: misses.length,
        expected_reps: reps,
      })),
    );
    const written = rowsOf(
      await db.execute(sql`
        with x as (
          select * from jsonb_to_recordset(${rows}::jsonb) as x(card_id uuid, due timestamptz, stability real, difficulty real,
            elapsed_days integer, scheduled_days integer, reps integer, lapses integer, state smallint, last_review timestamptz,
            last_missed boolean, misses integer, expected_reps integer)
        ), updated as (
          update flashcard_memory m set due = x.due, stability = x.stability, difficulty = x.difficulty, elapsed_days = x.elapsed_days,
            scheduled_days = x.scheduled_days, reps = x.reps, lapses = x.lapses, state = x.state, last_review = x.last_review,
            last_missed = x.last_missed, miss_count = m.miss_count + x.misses
          from x where m.user_id = ${userId} and m.card_id = x.card_id and m.reps = x.expected_reps
          returning m.card_id, m.miss_count
        ), inserted as (
          insert into flashcard_memory (user_id, card_id, due, stability, difficulty, elapsed_days, scheduled_days, reps, lapses, state,
            last_review, last_missed, miss_count)
          select ${userId}, x.card_id, x.due, x.stability, x.difficulty, x.elapsed_days, x.scheduled_days, x.reps, x.lapses, x.state,
            x.last_review, x.last_missed, x.misses
          from x where x.expected_reps is null
          on conflict do nothing
          returning card_id, miss_count
        )
        select card_id, miss_count from updated union all select card_id, miss_count from inserted`),
    );
    for (const row of written) {
      const cardId = String(row.card_id);
      tally.set(cardId, { missCount: Number(row.miss_count), misses: next.get(cardId)!.misses });
    }
    pending = pending.filter((answer) => !tally.has(answer.cardId!));
  }
  await noteMisses(db, userId, tally);
}

/**
 * The misses that reached the notebook's count (the card's second and each after, as online): each notes the card's
 * word with the word picked instead. The words are read only when there is one to note.
 */
async function noteMisses(db: DbOrTx, userId: string, missed: Map<string, { missCount: number; misses: Candidate[] }>) {
  // Of a card's N misses now, ending at miss count M, those numbered 2 or more: the last min(N, M − 1).
  const noted = [...missed.values()].flatMap(({ missCount, misses }) =>
    misses.slice(misses.length - Math.max(0, Math.min(misses.length, missCount - (MISSES_TO_NOTEBOOK - 1)))),
  );
  if (noted.length === 0) return;
  const words = new Map(
    rowsOf(
      await db.execute(sql`
        select k.id, k.word, k.translation, c.name as category from flashcard_cards k
        left join flashcard_categories c on c.slug = k.category_slug
        where k.id in ${inIds(ids(noted.flatMap((miss) => [miss.cardId!, miss.chosenId!])))}`),
    ).map((row) => [String(row.id), row]),
  );
  for (const miss of noted) {
    const card = words.get(miss.cardId!);
    if (!card) continue;
    const chosen = words.get(miss.chosenId!);
    await noteMissedCard(db, {
      userId,
      cardId: miss.cardId!,
      word: String(card.word),
      translation: String(card.translation),
      chosenWord: chosen ? String(chosen.word) : null,
      category: String(card.category ?? ""),
    });
  }
}

/**
 * Each stored correction's answer moves its entry's FSRS (notebook's scheduleEntry), once, in the order the answers
 * were given, each at its time (never before the entry's last review). The memory is read after the answers are
 * stored, so an online answer or another sync that scheduled it meanwhile is built on.
 */
async function scheduleEntries(db: DbOrTx, userId: string, answers: readonly Candidate[]) {
  if (answers.length === 0) return;
  const rows = rowsOf(
    await db.execute(sql`
      select e.id, ${entryMemoryColumns} from notebook_entries e
      where e.user_id = ${userId} and e.id in ${inIds(ids(answers.map((a) => a.entryId!)))}`),
  );
  const memory = new Map(rows.map((row) => [String(row.id), entryMemory(row)]));
  for (const answer of answers) {
    const entryId = answer.entryId!;
    if (!memory.has(entryId)) continue;
    const previous = memory.get(entryId) ?? null;
    const at = new Date(Math.max(Date.parse(answer.at), previous?.last_review?.getTime() ?? 0));
    memory.set(entryId, await scheduleEntry(db, { userId, entryId, previous, correct: answer.correct, now: at }));
  }
}
