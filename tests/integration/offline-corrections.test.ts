// Offline Revisão with "Meu caderno" corrections (issue 49, item 4) on a real Postgres: a review bundle carries the
// due corrections an online Revisão would ask (same rule, same cap) with their 4 forms, stored in
// `offline_bundles.entries`, and none of another learner's; a category bundle carries none; the sync decides a
// correction's answer on the server (the bundle's form at the place chosen against the entry's right form now), stores
// it once, moves the entry's FSRS once per answer in answer order, counts it in the game, and refuses what the bundle
// could not have produced; a card missed twice offline is noted in the caderno, as online.
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { CORRECTIONS_WITH_CARDS } from "~/features/flashcards";
import { flashcardCards, flashcardGames, flashcardMemory, flashcardQuestions, offlineBundles } from "~/features/flashcards/tables";
import { notebookEntries } from "~/features/notebook/tables";
import { issueBundle, type IssuedBundle } from "~/features/offline/bundle.server";
import { syncAnswers, type SyncInput } from "~/features/offline/sync.server";
import type { QueuedAnswer, QueuedCardAnswer, QueuedCorrectionAnswer } from "~/features/offline/types";
import { nextMemory } from "~/lib/fsrs";
import * as syncRoute from "~/routes/resources+/offline.sync";
import type { Database } from "~/server/db.server";
import { args, call, contextFor, createTestDb, insertLearner, TEST_ENV } from "./harness";
import { insertCorrectionEntry } from "./notebook-fixtures";

let db: Database;
beforeAll(async () => {
  ({ db } = await createTestDb());
});

const MINUTE = 60_000;
const DAY = 86_400_000;
const deps = () => ({ db, env: TEST_ENV, bucket: () => undefined as never });

const visibleCardsOf = (slug: string) =>
  db
    .select()
    .from(flashcardCards)
    .where(sql`${flashcardCards.categorySlug} = ${slug} and not ${flashcardCards.hidden} and ${flashcardCards.deletedAt} is null`)
    .orderBy(flashcardCards.orderIndex);

/** `count` cards of `slug` due now for the learner, as a played game leaves them. */
async function dueCards(userId: string, count: number, slug = "animais") {
  const cards = (await visibleCardsOf(slug)).slice(0, count);
  if (cards.length === 0) return [];
  await db.insert(flashcardMemory).values(
    cards.map((card) => ({
      userId,
      cardId: card.id,
      due: new Date(Date.now() - DAY),
      stability: 3,
      difficulty: 5,
      elapsedDays: 1,
      scheduledDays: 3,
      reps: 2,
      lapses: 0,
      state: 2,
      lastReview: new Date(Date.now() - 3 * DAY),
      lastMissed: false,
    })),
  );
  return cards;
}

/** A seeded random sequence, so two bundles draw the same options. */
function seeded(seed = 7) {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

async function reviewBundle(userId: string, now = new Date(), random: () => number = Math.random) {
  const issued = await issueBundle(deps(), userId, { kind: "review" }, now, random);
  if (!issued.ok) throw new Error(issued.code);
  return issued.bundle;
}

/** The questions an offline game asks of the bundle, as the player builds them: cards and corrections in turn. */
function questionsOf(bundle: IssuedBundle) {
  const corrections = bundle.corrections ?? [];
  const count = Math.min(10, bundle.cards.length + corrections.length);
  const cards = bundle.cards.slice(0, count - corrections.length);
  const out: ({ card: IssuedBundle["cards"][number] } | { correction: (typeof corrections)[number] })[] = [];
  for (let i = 0; i < Math.max(cards.length, corrections.length); i++) {
    if (cards[i]) out.push({ card: cards[i]! });
    if (corrections[i]) out.push({ correction: corrections[i]! });
  }
  return out;
}

/**
 * A played game: every question answered, a minute apart from `start` — right, unless its position is in `wrong` (a
 * card: another option; a correction: another form's place).
 */
function play(bundle: IssuedBundle, options: { wrong?: number[]; start?: Date; count?: number } = {}) {
  const questions = questionsOf(bundle);
  const { wrong = [], start = new Date(Date.parse(bundle.issuedAt) + MINUTE), count = questions.length } = options;
  const game = { id: crypto.randomUUID(), bundleId: bundle.id, questionCount: questions.length };
  const answers: QueuedAnswer[] = questions.slice(0, count).map((question, position) => {
    const given = {
      key: crypto.randomUUID(),
      gameId: game.id,
      position,
      answeredAt: new Date(start.getTime() + position * MINUTE).toISOString(),
    };
    if ("card" in question) {
      const { card } = question;
      const chosenId = wrong.includes(position) ? card.options.find((o) => o.id !== card.id)!.id : card.id;
      return { ...given, cardId: card.id, chosenId } satisfies QueuedCardAnswer;
    }
    const { correction } = question;
    const right = correction.options.indexOf(correction.right);
    return {
      ...given,
      entryId: correction.id,
      chosenIndex: wrong.includes(position) ? (right + 1) % 4 : right,
    } satisfies QueuedCorrectionAnswer;
  });
  return { game, answers };
}

const body = (bundle: IssuedBundle, games: SyncInput["games"], answers: unknown[]): SyncInput => ({
  bundles: [{ id: bundle.id, signature: bundle.signature }],
  games,
  answers: answers as SyncInput["answers"],
});
const sync = (userId: string, input: SyncInput, now = new Date(Date.now() + 30 * MINUTE)) =>
  syncAnswers({ db, env: TEST_ENV }, userId, input, now);
const entryRow = async (id: string) => (await db.select().from(notebookEntries).where(eq(notebookEntries.id, id)))[0]!;
const rowsOfGame = (gameId: string) =>
  db.select().from(flashcardQuestions).where(eq(flashcardQuestions.gameId, gameId)).orderBy(flashcardQuestions.position);
const isCorrection = (answer: QueuedAnswer): answer is QueuedCorrectionAnswer => "entryId" in answer;

describe("a Revisão bundle's corrections", () => {
  it("carries the due ones with their 4 forms (stored as shown), none not due, dismissed or another learner's; a category none", async () => {
    const who = await insertLearner(db);
    const other = await insertLearner(db);
    await dueCards(who.id, 3);
    const due = [await insertCorrectionEntry(db, who.id), await insertCorrectionEntry(db, who.id, { details: null })];
    await insertCorrectionEntry(db, who.id, { dismissedAt: new Date() });
    await insertCorrectionEntry(db, who.id, { state: "mastered" });
    await insertCorrectionEntry(db, who.id, { due: new Date(Date.now() + DAY) });
    await insertCorrectionEntry(db, who.id, { source: "flashcards", kind: "vocabulary", alternatives: [] });
    const theirs = await insertCorrectionEntry(db, other.id);

    const bundle = await reviewBundle(who.id);
    expect(bundle.cards).toHaveLength(3);
    expect(bundle.corrections!.map((c) => c.id).sort()).toEqual(due.map((e) => e.id).sort());
    expect(JSON.stringify(bundle)).not.toContain(theirs.id);
    for (const correction of bundle.corrections!) {
      const source = due.find((e) => e.id === correction.id)!;
      expect(correction).toMatchObject({
        wrong: "I have 30 years",
        right: source.right,
        explanation: source.explanation,
        // the learner's sentence, or the wrong words alone when there is none
        sentence: source.details ? "Hello! I have 30 years and I live in Recife." : "I have 30 years",
      });
      expect([...correction.options].sort()).toEqual([source.right, ...source.alternatives].sort());
    }
    const [stored] = await db.select().from(offlineBundles).where(eq(offlineBundles.id, bundle.id));
    expect(stored!.entries).toEqual(Object.fromEntries(bundle.corrections!.map((c) => [c.id, c.options])));
    // no media of their own: the JSON counts them, exactly
    expect(bundle.bytes.json).toBe(Buffer.byteLength(JSON.stringify(bundle)));

    const category = await issueBundle(deps(), who.id, { kind: "category", slug: "animais" }, new Date());
    expect(category.ok && category.bundle.corrections).toEqual([]);
    const [storedCategory] = await db
      .select()
      .from(offlineBundles)
      .where(eq(offlineBundles.id, (category as { bundle: IssuedBundle }).bundle.id));
    expect(storedCategory!.entries).toEqual({});
  });

  it("keeps the online cap: at most 5 beside cards, 10 with no card due (then a bundle of corrections alone)", async () => {
    const withCards = await insertLearner(db);
    await dueCards(withCards.id, 12);
    for (let i = 0; i < 12; i++) await insertCorrectionEntry(db, withCards.id);
    const mixed = await reviewBundle(withCards.id, new Date(), seeded());
    expect([mixed.cards.length, mixed.corrections!.length]).toEqual([12, CORRECTIONS_WITH_CARDS]);
    expect(questionsOf(mixed)).toHaveLength(10);

    const alone = await insertLearner(db);
    for (let i = 0; i < 12; i++) await insertCorrectionEntry(db, alone.id);
    const corrections = await reviewBundle(alone.id);
    expect([corrections.cards.length, corrections.corrections!.length]).toEqual([0, 10]);

    // Size: the 5 corrections of a 10-question Revisão add only their JSON to the same cards' bundle.
    const none = await insertLearner(db);
    await dueCards(none.id, 12);
    const cardsOnly = await reviewBundle(none.id, new Date(), seeded());
    expect(cardsOnly.cards).toEqual(mixed.cards);
    expect(mixed.bytes.media).toBe(cardsOnly.bytes.media);
    const perCorrection = (mixed.bytes.json - cardsOnly.bytes.json) / CORRECTIONS_WITH_CARDS;
    expect(perCorrection).toBeGreaterThan(150);
    expect(perCorrection).toBeLessThan(600);
    console.info(
      `10-question Revisão bundle: cards only ${cardsOnly.bytes.json} B JSON + ${cardsOnly.bytes.media} B media; with 5 corrections ${mixed.bytes.json} B JSON (+${mixed.bytes.json - cardsOnly.bytes.json} B) + ${mixed.bytes.media} B media`,
    );
  });
});

describe("syncing correction answers", () => {
  it("decides each on the server, stores it in the game, moves the entry's FSRS once, counts it; a replay stores nothing", async () => {
    const who = await insertLearner(db, { credits: 5 });
    await dueCards(who.id, 3);
    const rightOne = await insertCorrectionEntry(db, who.id);
    const wrongOne = await insertCorrectionEntry(db, who.id);
    const bundle = await reviewBundle(who.id);
    const played = play(bundle, {
      wrong: questionsOf(bundle).flatMap((q, i) => ("correction" in q && q.correction.id === wrongOne.id ? [i] : [])),
    });
    expect(played.game.questionCount).toBe(5);
    const input = body(bundle, [played.game], played.answers);
    const result = await sync(who.id, input);
    expect(result).toEqual({ accepted: played.answers.map((a) => a.key), duplicate: [], refused: [], balance: 4 });

    const [game] = await db.select().from(flashcardGames).where(eq(flashcardGames.id, played.game.id));
    expect(game).toMatchObject({ kind: "review", questionCount: 5, answeredCount: 5, correctCount: 4 });
    expect(game!.finishedAt).not.toBeNull();
    const rows = await rowsOfGame(played.game.id);
    const corrections = played.answers.filter(isCorrection);
    expect(
      rows.filter((r) => r.entryId !== null).map((r) => [r.position, r.entryId, r.cardId, r.chosenIndex, r.optionTexts, r.correct]),
    ).toEqual(
      corrections.map((a) => [
        a.position,
        a.entryId,
        null,
        a.chosenIndex,
        bundle.corrections!.find((c) => c.id === a.entryId)!.options,
        a.entryId === rightOne.id,
      ]),
    );

    const answeredAt = (id: string) => new Date(corrections.find((a) => a.entryId === id)!.answeredAt);
    const right = await entryRow(rightOne.id);
    const expectedRight = nextMemory(null, true, answeredAt(rightOne.id));
    expect(right).toMatchObject({ reps: 1, state: "practising", due: expectedRight.due, lastReview: answeredAt(rightOne.id) });
    expect(right.due.getTime()).toBeGreaterThan(Date.now() + DAY / 2);
    const wrong = await entryRow(wrongOne.id);
    const expectedWrong = nextMemory(null, false, answeredAt(wrongOne.id));
    expect(wrong).toMatchObject({ reps: 1, due: expectedWrong.due, state: "practising" });
    // a miss keeps it due: back in the next Revisão soon
    expect(wrong.due.getTime()).toBeLessThanOrEqual(answeredAt(wrongOne.id).getTime() + DAY);

    // Replayed: all duplicates, the entries' schedules untouched.
    const again = await sync(who.id, input);
    expect(again).toEqual({ accepted: [], duplicate: played.answers.map((a) => a.key), refused: [], balance: 4 });
    expect(await rowsOfGame(played.game.id)).toHaveLength(5);
    expect(await entryRow(rightOne.id)).toEqual(right);
    expect(await entryRow(wrongOne.id)).toEqual(wrong);
  });

  it("judges by the entry's right form now, not by what the device thought; two games move an entry twice, in answer order", async () => {
    const who = await insertLearner(db, { credits: 5 });
    const only = await insertCorrectionEntry(db, who.id);
    const bundle = await reviewBundle(who.id);
    expect([bundle.cards.length, bundle.corrections!.length]).toEqual([0, 1]);
    const first = play(bundle);
    const second = play(bundle, { start: new Date(Date.parse(bundle.issuedAt) + 20 * MINUTE) });
    // The right form was corrected meanwhile (the form the device took as right is now an alternative).
    const correction = bundle.corrections![0]!;
    const newRight = correction.options.find((o) => o !== correction.right)!;
    await db.update(notebookEntries).set({ right: newRight }).where(eq(notebookEntries.id, only.id));
    const result = await sync(who.id, body(bundle, [second.game, first.game], [...second.answers, ...first.answers]));
    expect(result.accepted).toHaveLength(2);
    expect((await rowsOfGame(first.game.id))[0]!.correct).toBe(false);
    const at = (played: typeof first) => new Date(played.answers[0]!.answeredAt);
    const expected = nextMemory(nextMemory(null, false, at(first)), false, at(second));
    expect(await entryRow(only.id)).toMatchObject({ reps: 2, due: expected.due, lastReview: at(second) });
  });

  it("refuses a place out of range, an unknown entry, another learner's, a card sent as a correction, a repeat — one by one", async () => {
    const who = await insertLearner(db, { credits: 5 });
    const other = await insertLearner(db);
    const cards = await dueCards(who.id, 4);
    const mine = [await insertCorrectionEntry(db, who.id), await insertCorrectionEntry(db, who.id)];
    const theirs = await insertCorrectionEntry(db, other.id);
    const bundle = await reviewBundle(who.id);
    const played = play(bundle);
    const [firstCorrection, secondCorrection] = played.answers.filter(isCorrection) as [QueuedCorrectionAnswer, QueuedCorrectionAnswer];
    const variant = (over: Record<string, unknown>, position: number) => ({
      key: crypto.randomUUID(),
      gameId: played.game.id,
      position,
      answeredAt: firstCorrection.answeredAt,
      entryId: secondCorrection.entryId,
      chosenIndex: 0,
      ...over,
    });
    const hostile = {
      place7: variant({ chosenIndex: 7 }, secondCorrection.position),
      negative: variant({ chosenIndex: -1 }, secondCorrection.position),
      unknown: variant({ entryId: crypto.randomUUID() }, secondCorrection.position),
      theirs: variant({ entryId: theirs.id }, secondCorrection.position),
      cardAsCorrection: variant({ entryId: cards[0]!.id }, secondCorrection.position),
      both: variant({ cardId: cards[0]!.id, chosenId: cards[0]!.id }, secondCorrection.position),
      entryAsCard: {
        ...variant({}, secondCorrection.position),
        entryId: undefined,
        chosenIndex: undefined,
        cardId: mine[0]!.id,
        chosenId: mine[0]!.id,
      },
      repeated: variant({ entryId: firstCorrection.entryId }, secondCorrection.position),
    };
    const result = await sync(who.id, body(bundle, [played.game], [firstCorrection, ...Object.values(hostile)]));
    expect(result.accepted).toEqual([firstCorrection.key]);
    expect(Object.fromEntries(result.refused.map((r) => [r.key, r.code]))).toEqual({
      [hostile.place7.key]: "invalid",
      [hostile.negative.key]: "invalid",
      [hostile.unknown.key]: "outside_bundle",
      [hostile.theirs.key]: "outside_bundle",
      [hostile.cardAsCorrection.key]: "outside_bundle",
      [hostile.both.key]: "invalid",
      [hostile.entryAsCard.key]: "outside_bundle",
      [hostile.repeated.key]: "invalid",
    });
    expect(result.refused.find((r) => r.key === hostile.repeated.key)!.message).toBe("Esta correção já apareceu neste jogo.");
    expect(await rowsOfGame(played.game.id)).toHaveLength(1);
    expect(await entryRow(theirs.id)).toMatchObject({ reps: 0, lastReview: null });
    expect(await entryRow(secondCorrection.entryId)).toMatchObject({ reps: 0, lastReview: null });

    // A game not shaped as the bundle's (its corrections left out of the count) is invalid, as for cards.
    const short = { id: crypto.randomUUID(), bundleId: bundle.id, questionCount: bundle.cards.length };
    const shortAnswer = { ...firstCorrection, key: crypto.randomUUID(), gameId: short.id };
    expect((await sync(who.id, body(bundle, [short], [shortAnswer]))).refused.map((r) => r.code)).toEqual(["invalid"]);
  });

  it("through the route: a hostile correction is refused in the 200 answer and dropped like a card's; bad JSON shapes are a 400", async () => {
    const who = await insertLearner(db, { credits: 5 });
    await insertCorrectionEntry(db, who.id);
    const bundle = await reviewBundle(who.id, new Date(Date.now() - MINUTE));
    const played = play(bundle, { start: new Date(Date.now() - 30_000) });
    const [answer] = played.answers as [QueuedCorrectionAnswer];
    const post = (payload: unknown) =>
      call<Awaited<ReturnType<typeof syncAnswers>>>(() =>
        syncRoute.action(
          args(
            new Request("http://nika.test/resources/offline/sync", {
              method: "POST",
              headers: { "Content-Type": "application/json", Cookie: who.jar.header() },
              body: JSON.stringify(payload),
            }),
            contextFor(db),
          ),
        ),
      );
    const refused = await post(body(bundle, [played.game], [{ ...answer, chosenIndex: 7 }]));
    expect([refused.status, refused.data.refused.map((r) => r.code)]).toEqual([200, ["invalid"]]);
    expect((await post({ ...body(bundle, [played.game], []), answers: [{ ...answer, key: "x" }] })).status).toBe(400);
    const ok = await post(body(bundle, [played.game], [answer]));
    expect([ok.status, ok.data.accepted]).toEqual([200, [answer.key]]);
  });
});

describe("cards missed offline", () => {
  it("count their misses, and the second miss notes the word in Meu caderno, as online", async () => {
    const who = await insertLearner(db, { credits: 5 });
    const [card] = await dueCards(who.id, 1);
    await insertCorrectionEntry(db, who.id); // a correction too: the bundle is a mix
    const bundle = await reviewBundle(who.id);
    const cardPosition = questionsOf(bundle).findIndex((q) => "card" in q && q.card.id === card!.id);
    const first = play(bundle, { wrong: [cardPosition] });
    const second = play(bundle, { wrong: [cardPosition], start: new Date(Date.parse(bundle.issuedAt) + 10 * MINUTE) });
    const vocabulary = () =>
      db
        .select()
        .from(notebookEntries)
        .where(and(eq(notebookEntries.userId, who.id), eq(notebookEntries.source, "flashcards")));

    expect((await sync(who.id, body(bundle, [first.game], first.answers))).accepted).toHaveLength(2);
    const memory = async () =>
      (
        await db
          .select()
          .from(flashcardMemory)
          .where(and(eq(flashcardMemory.userId, who.id), eq(flashcardMemory.cardId, card!.id)))
      )[0]!;
    expect((await memory()).missCount).toBe(1);
    expect(await vocabulary()).toEqual([]);

    expect((await sync(who.id, body(bundle, [second.game], second.answers))).accepted).toHaveLength(2);
    expect((await memory()).missCount).toBe(2);
    const noted = await vocabulary();
    expect(noted).toHaveLength(1);
    expect(noted[0]).toMatchObject({ kind: "vocabulary", right: card!.word, details: { cardId: card!.id } });
  });
});
