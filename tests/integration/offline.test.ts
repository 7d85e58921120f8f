// Offline practice's server (issue 38) on a real Postgres (PGlite with the migrations and the shipped cards): what a
// bundle holds (Revisão's 7-day window and its 100 cap, a category's visible cards, options by the game's rules, the
// signature, the sizes), and the sync — answers accepted once (replayed, and two syncs at once), every refusal, FSRS
// in the order given with clamped times, one credit per played game and none for a refused one, the activity on
// the completing answer's day — plus the routes' guards, flag and hostile bodies.
import { statSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  flashcardCards,
  flashcardCategories,
  flashcardGames,
  flashcardMemory,
  flashcardQuestions,
  offlineBundles,
} from "~/features/flashcards/tables";
import { bundleSignatureValid, BUNDLE_TTL_MS, issueBundle, type IssuedBundle } from "~/features/offline/bundle.server";
import { syncAnswers, type SyncInput } from "~/features/offline/sync.server";
import type { QueuedCardAnswer as QueuedAnswer } from "~/features/offline/types";
import { nextMemory, type Memory } from "~/lib/fsrs";
import * as bundleRoute from "~/routes/resources+/offline.bundle";
import * as syncRoute from "~/routes/resources+/offline.sync";
import { createSession } from "~/server/auth.server";
import { creditPeriod, getBalance } from "~/server/credits.server";
import { rowsOf, type Database } from "~/server/db.server";
import { appConfig, creditLedger, rateLimitAttempts, users } from "~/server/schema";
import { args, call, contextFor, CookieJar, createTestBucket, createTestDb, request, TEST_ENV } from "./harness";

let db: Database;
let statements: () => number;
let n = 0;
const NOW = new Date("2026-11-24T12:00:00Z");
const DAY = 86_400_000;
const deps = () => ({ db, env: TEST_ENV, bucket: () => undefined as never });

beforeAll(async () => {
  ({ db, queryCount: statements } = await createTestDb());
});
beforeEach(async () => {
  await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_flashcards"));
});

async function learner(credits = 10) {
  const [user] = await db
    .insert(users)
    .values({
      name: "Viajante",
      email: `offline${++n}@example.com`,
      monthlyCredits: credits,
      creditsPeriod: creditPeriod(new Date()),
      emailConfirmedAt: new Date(),
    })
    .returning();
  const jar = new CookieJar();
  jar.absorb(new Headers({ "Set-Cookie": await createSession(contextFor(db), user!.id, request("/")) }));
  return { id: user!.id, jar };
}
type Learner = Awaited<ReturnType<typeof learner>>;

/** A seeded random sequence, so a bundle's draw is the same on every run. */
function seeded(seed = 7) {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

async function categoryBundle(userId: string, slug = "animais", now = NOW) {
  const issued = await issueBundle(deps(), userId, { kind: "category", slug }, now, seeded());
  if (!issued.ok) throw new Error(issued.code);
  return issued.bundle;
}

/** A played game: answers to the bundle's first `count` cards (right unless listed in `wrong`), a minute apart. */
function play(bundle: IssuedBundle, options: { count?: number; questionCount?: number; wrong?: number[]; start?: Date; from?: number } = {}) {
  const {
    count = 10,
    questionCount = Math.min(10, bundle.cards.length),
    wrong = [],
    start = new Date(Date.parse(bundle.issuedAt) + 60_000),
    from = 0,
  } = options;
  const game = { id: crypto.randomUUID(), bundleId: bundle.id, questionCount };
  const answers: QueuedAnswer[] = bundle.cards.slice(from, from + count).map((card, position) => ({
    key: crypto.randomUUID(),
    gameId: game.id,
    position,
    cardId: card.id,
    chosenId: wrong.includes(position) ? card.options.find((option) => option.id !== card.id)!.id : card.id,
    answeredAt: new Date(start.getTime() + position * 60_000).toISOString(),
  }));
  return { game, answers };
}

const body = (bundles: IssuedBundle[], games: { game: SyncInput["games"][number] }[], answers: QueuedAnswer[]): SyncInput => ({
  bundles: bundles.map((b) => ({ id: b.id, signature: b.signature })),
  games: games.map((g) => g.game),
  answers: answers as SyncInput["answers"],
});
const sync = (userId: string, input: SyncInput, now = new Date(NOW.getTime() + DAY)) => syncAnswers({ db, env: TEST_ENV }, userId, input, now);

const gamesOf = (userId: string) => db.select().from(flashcardGames).where(eq(flashcardGames.userId, userId));
const ledgerOf = (userId: string) => db.select().from(creditLedger).where(eq(creditLedger.userId, userId));
const activitiesOf = async (userId: string) =>
  rowsOf<{ kind: string; ref: string; day: string; points: number }>(
    await db.execute(sql`select kind, ref, day::text as day, points from activities where user_id = ${userId} order by id`),
  );
const questionsOf = (gameId: string) =>
  db.select().from(flashcardQuestions).where(eq(flashcardQuestions.gameId, gameId)).orderBy(flashcardQuestions.position);

async function memoryOf(userId: string, cardId: string) {
  const [row] = await db
    .select()
    .from(flashcardMemory)
    .where(and(eq(flashcardMemory.userId, userId), eq(flashcardMemory.cardId, cardId)));
  return row;
}

/** Memory rows for cards: each due at `now + dueInDays` (missed when asked). */
async function remember(userId: string, cards: { id: string; dueInDays: number; missed?: boolean }[], now = NOW) {
  await db.insert(flashcardMemory).values(
    cards.map((card) => ({
      userId,
      cardId: card.id,
      due: new Date(now.getTime() + card.dueInDays * DAY),
      stability: 3,
      difficulty: 5,
      elapsedDays: 1,
      scheduledDays: 3,
      reps: 2,
      lapses: 0,
      state: 2,
      lastReview: new Date(now.getTime() - 2 * DAY),
      lastMissed: card.missed ?? false,
    })),
  );
}

const visibleCardsOf = (slug: string) =>
  db
    .select()
    .from(flashcardCards)
    .where(sql`${flashcardCards.categorySlug} = ${slug} and not ${flashcardCards.hidden} and ${flashcardCards.deletedAt} is null`)
    .orderBy(flashcardCards.orderIndex);

// ——— the routes ———

const ctx = (env = {}) => contextFor(db, env);
const estimate = (who: Learner | null, search: string) =>
  call<{ estimate: { cards: number; bytes: number } }>(() =>
    bundleRoute.loader(args(request(`/resources/offline/bundle${search}`, who ? { jar: who.jar } : {}), ctx())),
  );
function jsonRequest(path: string, who: Learner | null, payload: unknown) {
  return new Request(`http://nika.test${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(who ? { Cookie: who.jar.header() } : {}) },
    body: (typeof payload === "string" || payload instanceof Uint8Array ? payload : JSON.stringify(payload)) as BodyInit,
  });
}
const download = (who: Learner | null, payload: unknown, env = {}) =>
  call<{ bundle: IssuedBundle; code?: string; error?: string }>(() =>
    bundleRoute.action(args(jsonRequest("/resources/offline/bundle", who, payload), ctx(env))),
  );
const postSync = (who: Learner | null, payload: unknown) =>
  call<Awaited<ReturnType<typeof syncAnswers>> & { code?: string }>(() =>
    syncRoute.action(args(jsonRequest("/resources/offline/sync", who, payload), ctx())),
  );

describe("a category bundle", () => {
  it("holds the category's visible cards, 4 options each by the game's rules, signed, stored, 14 days, no credit", async () => {
    const who = await learner(3);
    const hidden = (await visibleCardsOf("roupas"))[0]!;
    await db.update(flashcardCards).set({ hidden: true }).where(eq(flashcardCards.id, hidden.id));
    const got = await download(who, { target: "category", slug: "roupas" });
    await db.update(flashcardCards).set({ hidden: false }).where(eq(flashcardCards.id, hidden.id));
    expect(got.status).toBe(200);
    const { bundle } = got.data;

    expect(bundle).toMatchObject({
      userId: who.id,
      kind: "category",
      category: { slug: "roupas", name: "Roupas e Acessórios" },
      title: "Roupas e Acessórios",
    });
    const visible = (await visibleCardsOf("roupas")).filter((card) => card.id !== hidden.id);
    expect(bundle.cards.map((card) => card.id).sort()).toEqual(visible.map((card) => card.id).sort());
    const byId = new Map(visible.map((card) => [card.id, card]));
    for (const card of bundle.cards) {
      expect(card.options).toHaveLength(4);
      expect(card.options.map((o) => o.id)).toContain(card.id);
      const options = card.options.map((o) => byId.get(o.id)!);
      expect(options.every(Boolean), "options are visible cards of the category").toBe(true);
      expect(new Set(options.map((o) => o.distractorGroup)).size, "distinct distractor groups").toBe(4);
      expect(card).toMatchObject({ word: byId.get(card.id)!.word, translation: byId.get(card.id)!.translation });
      expect(card.imageUrl).toMatch(/^\/content\/flashcards\/card\.[0-9a-f]{10}\.svg$/);
    }
    expect(Date.parse(bundle.expiresAt) - Date.parse(bundle.issuedAt)).toBe(BUNDLE_TTL_MS);
    expect(await bundleSignatureValid(TEST_ENV, { ...bundle, expiresAt: new Date(bundle.expiresAt) }, bundle.signature)).toBe(true);
    expect(
      await bundleSignatureValid(TEST_ENV, { ...bundle, userId: crypto.randomUUID(), expiresAt: new Date(bundle.expiresAt) }, bundle.signature),
    ).toBe(false);
    expect(
      await bundleSignatureValid({ SESSION_SECRET: "another" }, { ...bundle, expiresAt: new Date(bundle.expiresAt) }, bundle.signature),
    ).toBe(false);

    const [stored] = await db.select().from(offlineBundles).where(eq(offlineBundles.id, bundle.id));
    expect(stored).toMatchObject({ userId: who.id, kind: "category", categorySlug: "roupas" });
    expect(stored!.cards).toEqual(Object.fromEntries(bundle.cards.map((card) => [card.id, card.options.map((o) => o.id)])));
    expect(await getBalance(db, who.id)).toBe(3);
    expect(await ledgerOf(who.id)).toEqual([]);
  });

  it("a download drops the learner's bundles expired over 30 days ago, and nobody else's", async () => {
    const who = await learner();
    const other = await learner();
    const old = await categoryBundle(who.id, "animais", new Date(NOW.getTime() - 45 * DAY)); // expired 31 days ago
    const recent = await categoryBundle(who.id, "animais", new Date(NOW.getTime() - 43 * DAY)); // expired 29 days ago
    const theirs = await categoryBundle(other.id, "animais", new Date(NOW.getTime() - 45 * DAY));
    await categoryBundle(who.id, "animais");
    const kept = (await db.select({ id: offlineBundles.id }).from(offlineBundles)).map((row) => row.id);
    expect(kept).not.toContain(old.id);
    expect(kept).toEqual(expect.arrayContaining([recent.id, theirs.id]));
  });

  it("lists every picture and sound once and tells its sizes: the JSON's exactly, the media's from the files", async () => {
    const who = await learner();
    const { bundle } = (await download(who, { target: "category", slug: "animais" })).data;
    const wanted = new Set([
      ...bundle.cards.flatMap((card) => [card.imageUrl, card.audioUrl, ...card.options.map((o) => o.audioUrl)]),
      ...Object.values(bundle.sounds),
      ...Object.values(bundle.tiers).flatMap((tier) => [tier.imageUrl, tier.soundUrl]),
    ]);
    wanted.delete(null);
    expect(new Set(bundle.media)).toEqual(wanted);
    expect(bundle.media).toHaveLength(new Set(bundle.media).size);
    expect(Object.keys(bundle.sounds).sort()).toEqual(["correct", "good", "incorrect", "okay", "perfect", "poor"]);
    expect(bundle.bytes.json).toBe(Buffer.byteLength(JSON.stringify(bundle)));
    const onDisk = bundle.media.reduce((sum, url) => sum + statSync(`public${url}`).size, 0);
    expect(bundle.bytes.media).toBe(onDisk);

    // The estimate before the download: the same cards, the same media, and JSON that differs only by the distractors
    // drawn (their words).
    const told = await estimate(who, "?target=category&slug=animais");
    expect(told.status).toBe(200);
    expect(told.data.estimate.cards).toBe(bundle.cards.length);
    expect(Math.abs(told.data.estimate.bytes - (bundle.bytes.json + bundle.bytes.media))).toBeLessThan(bundle.bytes.json * 0.01);
    expect(told.data.estimate.bytes).toBeGreaterThan(bundle.bytes.media);
  });

  it("counts an admin's uploaded picture by its stored size in R2", async () => {
    const media = await createTestBucket();
    try {
      const who = await learner();
      await db.insert(flashcardCategories).values({ slug: "enviada", name: "Enviada", tileAsset: "animais" });
      const key = `flashcards/${crypto.randomUUID()}.png`;
      await media.bucket.put(key, new Uint8Array(12_345));
      await db.insert(flashcardCards).values(
        ["um", "dois", "tres", "quatro"].map((word, i) => ({
          categorySlug: "enviada",
          word,
          translation: word,
          distractorGroup: word,
          imageAsset: i === 0 ? null : "animais-dog",
          imageKey: i === 0 ? key : null,
        })),
      );
      const got = await download(who, { target: "category", slug: "enviada" }, { MEDIA: media.bucket });
      expect(got.status).toBe(200);
      const { bundle } = got.data;
      expect(bundle.media).toContain(`/media/${key}`);
      const shipped = bundle.media.filter((url) => url.startsWith("/content/")).reduce((sum, url) => sum + statSync(`public${url}`).size, 0);
      expect(bundle.bytes.media).toBe(shipped + 12_345);
    } finally {
      await media.dispose();
    }
  });

  it("refuses an unknown category (404), one too small to play (409) and a bad query or body (400)", async () => {
    const who = await learner();
    expect([
      (await estimate(who, "?target=category&slug=dinossauros")).status,
      (await estimate(who, "?target=category&slug=dinossauros")).data,
    ]).toEqual([404, expect.objectContaining({ code: "category_not_found" })]);
    await db.insert(flashcardCategories).values({ slug: "mini", name: "Mini", tileAsset: "animais" });
    await db.insert(flashcardCards).values(
      ["a", "b", "c", "c2"].map((word) => ({
        categorySlug: "mini",
        word,
        translation: word,
        distractorGroup: word.slice(0, 1),
        imageAsset: "animais-dog",
      })),
    );
    expect((await download(who, { target: "category", slug: "mini" })).data).toMatchObject({ code: "too_few_cards" });
    for (const search of ["", "?target=tudo", "?target=category", `?target=category&slug=${"x".repeat(101)}`]) {
      expect((await estimate(who, search)).status, search).toBe(400);
    }
    expect(await db.select().from(offlineBundles).where(eq(offlineBundles.userId, who.id))).toEqual([]);
  });
});

describe("a review bundle", () => {
  it("holds the cards due within 7 days or missed, of playable categories only, at most 100, most urgent first", async () => {
    const who = await learner();
    const animais = await visibleCardsOf("animais");
    const comidas = await visibleCardsOf("comidas");
    await remember(who.id, [
      { id: animais[0]!.id, dueInDays: -1 },
      { id: animais[1]!.id, dueInDays: 3 },
      { id: animais[2]!.id, dueInDays: 6.9 },
      { id: animais[3]!.id, dueInDays: 7.1 }, // outside the window
      { id: animais[4]!.id, dueInDays: 30, missed: true }, // missed: back at once
      { id: animais[5]!.id, dueInDays: 1 }, // hidden below
      { id: comidas[0]!.id, dueInDays: 2 },
    ]);
    await db.update(flashcardCards).set({ hidden: true }).where(eq(flashcardCards.id, animais[5]!.id));
    try {
      const issued = await issueBundle(deps(), who.id, { kind: "review" }, NOW, seeded());
      expect(issued.ok).toBe(true);
      const bundle = (issued as { bundle: IssuedBundle }).bundle;
      expect(bundle).toMatchObject({ kind: "review", category: null, title: "Revisão" });
      expect(bundle.cards.map((card) => card.id)).toEqual([animais[4]!.id, animais[0]!.id, comidas[0]!.id, animais[1]!.id, animais[2]!.id]);
      for (const card of bundle.cards) {
        const category = animais.some((a) => a.id === card.id) ? animais : comidas;
        expect(
          card.options.every((o) => category.some((c) => c.id === o.id)),
          "options from the card's own category",
        ).toBe(true);
        expect(card.options.map((o) => o.id)).toContain(card.id);
      }
    } finally {
      await db.update(flashcardCards).set({ hidden: false }).where(eq(flashcardCards.id, animais[5]!.id));
    }
  });

  it("leaves out a category that cannot make a question and stops at 100 cards", async () => {
    const who = await learner();
    await db.insert(flashcardCategories).values({ slug: "quase", name: "Quase", tileAsset: "animais" });
    const few = await db
      .insert(flashcardCards)
      .values(
        ["x", "y", "z"].map((word) => ({ categorySlug: "quase", word, translation: word, distractorGroup: word, imageAsset: "animais-dog" })),
      )
      .returning();
    // The shipped cards (other tests add categories of their own).
    const all = await db
      .select()
      .from(flashcardCards)
      .where(sql`not ${flashcardCards.hidden} and ${flashcardCards.deletedAt} is null and ${flashcardCards.contentId} is not null`);
    await remember(who.id, [
      ...few.map((card) => ({ id: card.id, dueInDays: -5 })),
      ...all.slice(0, 120).map((card, i) => ({ id: card.id, dueInDays: i / 100 })),
    ]);
    const issued = await issueBundle(deps(), who.id, { kind: "review" }, NOW, seeded());
    const bundle = (issued as { bundle: IssuedBundle }).bundle;
    expect(bundle.cards).toHaveLength(100);
    expect(bundle.cards.some((card) => few.some((f) => f.id === card.id))).toBe(false);
    expect(bundle.cards.map((card) => card.id)).toEqual(all.slice(0, 100).map((card) => card.id));
  });

  it("with nothing due within 7 days is refused (409) and stores nothing", async () => {
    const who = await learner();
    const [card] = await visibleCardsOf("lugares");
    await remember(who.id, [{ id: card!.id, dueInDays: 10 }], new Date());
    const got = await download(who, { target: "review" });
    expect([got.status, got.data.code]).toEqual([409, "nothing_to_review"]);
    expect((await estimate(who, "?target=review")).status).toBe(409);
    expect(await db.select().from(offlineBundles).where(eq(offlineBundles.userId, who.id))).toEqual([]);
  });
});

describe("syncing answers", () => {
  it("accepts a played game's answers once: the game (the device's id), its credit, its counts, the memory, the activity", async () => {
    const who = await learner(5);
    const bundle = await categoryBundle(who.id);
    const played = play(bundle, { wrong: [2, 7] });
    const input = body([bundle], [played], played.answers);
    const result = await sync(who.id, input);
    expect(result).toEqual({ accepted: played.answers.map((a) => a.key), duplicate: [], refused: [], balance: 4 });

    const [game] = await gamesOf(who.id);
    expect(game).toMatchObject({
      id: played.game.id,
      kind: "category",
      categorySlug: "animais",
      offlineBundleId: bundle.id,
      questionCount: 10,
      answeredCount: 10,
      correctCount: 8,
      finishedAt: new Date(played.answers[9]!.answeredAt),
    });
    const questions = await questionsOf(played.game.id);
    expect(questions.map((q) => [q.answerKey, q.cardId, q.chosenId, q.correct])).toEqual(
      played.answers.map((a) => [a.key, a.cardId, a.chosenId, a.chosenId === a.cardId]),
    );
    expect(questions.every((q) => q.optionIds.length === 4 && q.optionIds.includes(q.cardId!))).toBe(true);
    expect((await ledgerOf(who.id)).map((l) => [l.delta, l.reason, l.ref])).toEqual([[-1, "flashcards", played.game.id]]);
    const [user] = await db.select({ played: users.flashcardsPlayed }).from(users).where(eq(users.id, who.id));
    expect(user!.played).toBe(1);
    expect((await memoryOf(who.id, played.answers[2]!.cardId))!.lastMissed).toBe(true);
    expect((await memoryOf(who.id, played.answers[0]!.cardId))!.reps).toBe(1);
    expect(await activitiesOf(who.id)).toEqual([{ kind: "flashcard_game", ref: played.game.id, day: "2026-11-24", points: 5 }]);

    // Replayed: every answer a duplicate, nothing counted again.
    const again = await sync(who.id, input);
    expect(again).toEqual({ accepted: [], duplicate: played.answers.map((a) => a.key), refused: [], balance: 4 });
    expect(await gamesOf(who.id)).toEqual([game]);
    expect(await ledgerOf(who.id)).toHaveLength(1);
    expect((await memoryOf(who.id, played.answers[0]!.cardId))!.reps).toBe(1);
    expect(await activitiesOf(who.id)).toHaveLength(1);
  });

  it("two syncs of the same queue at once count everything once", async () => {
    const who = await learner(5);
    const bundle = await categoryBundle(who.id, "comidas");
    const first = play(bundle);
    const second = play(bundle, { from: 10, count: 5 });
    const input = body([bundle], [first, second], [...first.answers, ...second.answers]);
    const results = await Promise.all([sync(who.id, input), sync(who.id, input), sync(who.id, input)]);
    const keys = [...first.answers, ...second.answers].map((a) => a.key).sort();
    expect(results.flatMap((r) => r.accepted).sort()).toEqual(keys);
    for (const result of results) {
      expect([...result.accepted, ...result.duplicate].sort()).toEqual(keys);
      expect(result.refused).toEqual([]);
    }
    expect(await getBalance(db, who.id)).toBe(3);
    expect(await ledgerOf(who.id)).toHaveLength(2);
    const games = await gamesOf(who.id);
    expect(games.map((g) => [g.id, g.answeredCount]).sort()).toEqual(
      [
        [first.game.id, 10],
        [second.game.id, 5],
      ].sort(),
    );
    for (const answer of [...first.answers, ...second.answers]) expect((await memoryOf(who.id, answer.cardId))!.reps, answer.cardId).toBe(1);
    expect(await activitiesOf(who.id)).toHaveLength(1);
  });

  it("finishes a game over several syncs: the activity at the completing answer's time, on its São Paulo day", async () => {
    const who = await learner(5);
    const bundle = await categoryBundle(who.id, "esportes");
    // 23:30 in São Paulo on the 24th is already the 25th in UTC; synced the next morning, it keeps the 24th.
    const played = play(bundle, { start: new Date("2026-11-25T02:21:00Z") });
    const later = new Date("2026-11-25T12:00:00Z");
    const part = await sync(who.id, body([bundle], [played], played.answers.slice(0, 6)), later);
    expect(part.accepted).toHaveLength(6);
    expect((await gamesOf(who.id))[0]).toMatchObject({ answeredCount: 6, finishedAt: null });
    expect(await activitiesOf(who.id)).toEqual([]);
    const rest = await sync(who.id, body([bundle], [played], played.answers), later);
    expect([rest.accepted.length, rest.duplicate.length]).toEqual([4, 6]);
    expect((await gamesOf(who.id))[0]).toMatchObject({ answeredCount: 10, finishedAt: new Date("2026-11-25T02:30:00Z") });
    expect(await activitiesOf(who.id)).toEqual([{ kind: "flashcard_game", ref: played.game.id, day: "2026-11-24", points: 5 }]);
    expect(await ledgerOf(who.id)).toHaveLength(1);
  });

  it("a game claimed before yesterday counts for the day of the sync: it saves no broken streak (issue 47)", async () => {
    const who = await learner(5);
    const bundle = await categoryBundle(who.id, "esportes");
    // Last active on the 24th with a 6-day streak and no protector; the sync comes on the 28th (São Paulo) and claims
    // the game was played on the 25th, which would have extended the streak.
    await db
      .update(users)
      .set({ lastActiveDay: "2026-11-24", currentStreak: 6, longestStreak: 6, streakFreezes: 0 })
      .where(eq(users.id, who.id));
    const played = play(bundle, { start: new Date("2026-11-25T15:00:00Z") });
    const result = await sync(who.id, body([bundle], [played], played.answers), new Date("2026-11-28T15:00:00Z"));
    expect(result.accepted).toHaveLength(10);
    expect(await activitiesOf(who.id)).toEqual([{ kind: "flashcard_game", ref: played.game.id, day: "2026-11-28", points: 5 }]);
    const [row] = await db.select().from(users).where(eq(users.id, who.id));
    expect({ streak: row!.currentStreak, freezes: row!.streakFreezes, last: row!.lastActiveDay }).toEqual({
      streak: 1,
      freezes: 0,
      last: "2026-11-28",
    });
    // FSRS still orders by the claim: the memory's last review is the claimed time.
    expect((await memoryOf(who.id, played.answers[9]!.cardId))!.lastReview).toEqual(new Date(played.answers[9]!.answeredAt));
  });

  it("a game keeps the online shape: min(10, cards) questions and each card once, else invalid", async () => {
    const who = await learner(5);
    const bundle = await categoryBundle(who.id, "esportes");
    expect(bundle.cards.length).toBeGreaterThan(10);
    const short = play(bundle, { count: 3, questionCount: 3 });
    const shortResult = await sync(who.id, body([bundle], [short], short.answers));
    expect(shortResult.refused.map((r) => r.code)).toEqual(["invalid", "invalid", "invalid"]);
    const repeated = play(bundle, { count: 2 });
    repeated.answers[1] = { ...repeated.answers[1]!, cardId: repeated.answers[0]!.cardId, chosenId: repeated.answers[0]!.chosenId };
    const repeatedResult = await sync(who.id, body([bundle], [repeated], repeated.answers));
    expect(repeatedResult.accepted).toEqual([repeated.answers[0]!.key]);
    expect(repeatedResult.refused).toEqual([{ key: repeated.answers[1]!.key, code: "invalid", message: "Este cartão já apareceu neste jogo." }]);
    // The same card in a later sync of the same game is refused too.
    const again = { ...repeated.answers[1]!, key: crypto.randomUUID(), position: 5 };
    expect((await sync(who.id, body([bundle], [repeated], [again]))).refused.map((r) => r.code)).toEqual(["invalid"]);
    expect(await gamesOf(who.id)).toHaveLength(1);
  });

  it("a Revisão played offline is a review game and a review activity", async () => {
    const who = await learner(5);
    const cards = await visibleCardsOf("objetos");
    await remember(
      who.id,
      cards.slice(0, 4).map((card) => ({ id: card.id, dueInDays: 1 })),
    );
    const issued = await issueBundle(deps(), who.id, { kind: "review" }, NOW, seeded());
    const bundle = (issued as { bundle: IssuedBundle }).bundle;
    const played = play(bundle, { count: 4 });
    expect((await sync(who.id, body([bundle], [played], played.answers))).accepted).toHaveLength(4);
    expect((await gamesOf(who.id))[0]).toMatchObject({ kind: "review", categorySlug: null, questionCount: 4, answeredCount: 4 });
    expect((await activitiesOf(who.id)).map((a) => a.kind)).toEqual(["review_game"]);
  });
});

describe("a rotated SESSION_SECRET (issue 47)", () => {
  it("a bundle carries its key id; after a rotation its answers still sync with the old secret kept as SESSION_SECRET_PREVIOUS", async () => {
    const who = await learner(5);
    const bundle = await categoryBundle(who.id, "esportes"); // signed with TEST_ENV's secret
    expect(bundle.signature).toMatch(/^[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{43}$/);
    const played = play(bundle);
    const rotated = { ...TEST_ENV, SESSION_SECRET: "a-new-secret" };
    const lost = await syncAnswers({ db, env: rotated }, who.id, body([bundle], [played], played.answers), new Date(NOW.getTime() + DAY));
    expect(new Set(lost.refused.map((r) => r.code))).toEqual(new Set(["bad_signature"]));
    const kept = await syncAnswers(
      { db, env: { ...rotated, SESSION_SECRET_PREVIOUS: TEST_ENV.SESSION_SECRET } },
      who.id,
      body([bundle], [played], played.answers),
      new Date(NOW.getTime() + DAY),
    );
    expect(kept.accepted).toHaveLength(10);
    // A signature from before key ids (the MAC alone) still verifies; a key id naming no secret we hold does not.
    const bare = { ...bundle, signature: bundle.signature.slice(9) };
    const again = play(bare);
    expect((await sync(who.id, body([bare], [again], again.answers))).accepted).toHaveLength(10);
    const unknownKey = { ...bundle, signature: `zzzzzzzz.${bundle.signature.slice(9)}` };
    const third = play(unknownKey);
    expect(new Set((await sync(who.id, body([unknownKey], [third], third.answers))).refused.map((r) => r.code))).toEqual(
      new Set(["bad_signature"]),
    );
  });
});

describe("the sync's statements", () => {
  it("100 answers in 10 new games: one read, one per game (its credit), one for the answers, one for the memory, one per finished game", async () => {
    const who = await learner(20);
    const bundle = await categoryBundle(who.id, "acoes");
    const played = Array.from({ length: 10 }, (_, i) =>
      play(bundle, { from: i % 3, start: new Date(Date.parse(bundle.issuedAt) + (i + 1) * 3_600_000) }),
    );
    const input = body(
      [bundle],
      played,
      played.flatMap((p) => p.answers),
    );
    const before = statements();
    const result = await sync(who.id, input);
    expect(result.accepted).toHaveLength(100);
    expect(statements() - before).toBe(1 + 10 + 1 + 1 + 10);
    const again = statements();
    expect((await sync(who.id, input)).duplicate).toHaveLength(100);
    expect(statements() - again, "a replay only reads").toBe(1);
  });
});

describe("refusals", () => {
  it("a tampered signature, another learner's bundle and an expired one are refused, nothing stored or spent", async () => {
    const who = await learner(5);
    const other = await learner(5);
    const mine = await categoryBundle(who.id, "animais");
    const theirs = await categoryBundle(other.id, "animais");
    const tampered = { ...mine, signature: (mine.signature[0] === "A" ? "B" : "A") + mine.signature.slice(1) };
    const a = play(tampered);
    const b = play(theirs);
    const unknown = { ...mine, id: crypto.randomUUID() }; // never issued
    const c = play(unknown);
    const result = await sync(who.id, body([tampered, theirs], [a, b], [...a.answers, ...b.answers]));
    expect(result.accepted).toEqual([]);
    expect(result.refused.filter((r) => r.code === "bad_signature").map((r) => r.key)).toEqual(a.answers.map((x) => x.key));
    expect(result.refused.filter((r) => r.code === "not_yours").map((r) => r.key)).toEqual(b.answers.map((x) => x.key));
    expect(result.refused.find((r) => r.code === "not_yours")!.message).toBe("Este pacote offline é de outra conta.");
    expect((await sync(who.id, body([unknown], [c], c.answers))).refused.map((r) => r.code)).toEqual(Array(10).fill("bad_signature"));

    const expiredAt = new Date(Date.parse(mine.expiresAt) + 1);
    const d = play(mine);
    const late = await sync(who.id, body([mine], [d], d.answers), expiredAt);
    expect(new Set(late.refused.map((r) => r.code))).toEqual(new Set(["expired"]));
    expect(await gamesOf(who.id)).toEqual([]);
    expect(await getBalance(db, who.id)).toBe(5);
    expect(await ledgerOf(who.id)).toEqual([]);
  });

  it("a card outside the bundle, a choice that is not one of its options and malformed answers are refused one by one", async () => {
    const who = await learner(5);
    const bundle = await categoryBundle(who.id, "animais");
    const foreign = (await visibleCardsOf("comidas"))[0]!;
    const played = play(bundle, { count: 6 });
    const [ok, outside, notOption, badPosition, badTime, sameSpot] = played.answers as [QueuedAnswer, ...QueuedAnswer[]];
    outside!.cardId = foreign.id;
    outside!.chosenId = foreign.id;
    const card = bundle.cards.find((c) => c.id === notOption!.cardId)!;
    notOption!.chosenId = bundle.cards.find((c) => !card.options.some((o) => o.id === c.id))!.id;
    badPosition!.position = 10;
    badTime!.answeredAt = "ontem";
    sameSpot!.position = ok.position;
    const unknownGame = { ...ok, key: crypto.randomUUID(), gameId: crypto.randomUUID() };
    const result = await sync(who.id, body([bundle], [played], [...played.answers, unknownGame]));
    expect(result.accepted).toEqual([ok.key]);
    const codes = Object.fromEntries(result.refused.map((r) => [r.key, r.code]));
    expect(codes).toEqual({
      [outside!.key]: "outside_bundle",
      [notOption!.key]: "outside_bundle",
      [badPosition!.key]: "invalid",
      [badTime!.key]: "invalid",
      [sameSpot!.key]: "invalid",
      [unknownGame.key]: "invalid",
    });
    expect(result.refused.every((r) => r.message.length > 0)).toBe(true);
    expect(await questionsOf(played.game.id)).toHaveLength(1);
    expect((await gamesOf(who.id))[0]).toMatchObject({ answeredCount: 1, finishedAt: null });
  });

  it("a key already used by another learner's answer is refused, not taken as a duplicate", async () => {
    const first = await learner(5);
    const second = await learner(5);
    const firstBundle = await categoryBundle(first.id, "animais");
    const theirs = play(firstBundle, { count: 1 });
    expect((await sync(first.id, body([firstBundle], [theirs], theirs.answers))).accepted).toHaveLength(1);
    const secondBundle = await categoryBundle(second.id, "animais");
    const mine = play(secondBundle, { count: 1 });
    mine.answers[0]!.key = theirs.answers[0]!.key;
    const result = await sync(second.id, body([secondBundle], [mine], mine.answers));
    expect(result.refused.map((r) => [r.key, r.code])).toEqual([[theirs.answers[0]!.key, "invalid"]]);
    expect(result.duplicate).toEqual([]);
  });

  it("a game whose answers are all refused is never created nor paid", async () => {
    const who = await learner(5);
    const bundle = await categoryBundle(who.id, "animais");
    const foreign = (await visibleCardsOf("comidas"))[0]!;
    const played = play(bundle, { count: 3 });
    for (const answer of played.answers) Object.assign(answer, { cardId: foreign.id, chosenId: foreign.id });
    const result = await sync(who.id, body([bundle], [played], played.answers));
    expect(result.refused.map((r) => r.code)).toEqual(["outside_bundle", "outside_bundle", "outside_bundle"]);
    expect(await gamesOf(who.id)).toEqual([]);
    expect(await getBalance(db, who.id)).toBe(5);
  });

  it("without credits a game's answers are refused (credits_exhausted) and nothing of them kept; bought credits sync them later", async () => {
    const who = await learner(1);
    const bundle = await categoryBundle(who.id, "lugares");
    const first = play(bundle, { count: 3 });
    const second = play(bundle, { count: 3, from: 3, start: new Date(Date.parse(bundle.issuedAt) + 3_600_000) });
    const third = play(bundle, { count: 2, from: 6, start: new Date(Date.parse(bundle.issuedAt) + 7_200_000) });
    const input = body([bundle], [first, second, third], [...first.answers, ...second.answers, ...third.answers]);
    const result = await sync(who.id, input);
    expect(result.accepted).toEqual(first.answers.map((a) => a.key));
    expect(result.refused.map((r) => [r.key, r.code])).toEqual([...second.answers, ...third.answers].map((a) => [a.key, "credits_exhausted"]));
    expect(result.refused[0]!.message).toContain("Créditos Esgotados");
    expect(result.balance).toBe(0);
    expect((await gamesOf(who.id)).map((g) => g.id)).toEqual([first.game.id]);
    expect(await questionsOf(second.game.id)).toEqual([]);
    expect(await ledgerOf(who.id)).toHaveLength(1);

    await db.update(users).set({ monthlyCredits: 2 }).where(eq(users.id, who.id));
    const later = await sync(who.id, input);
    expect([later.accepted.length, later.duplicate.length, later.refused.length, later.balance]).toEqual([5, 3, 0, 0]);
    // Each game has 10 questions (the bundle's cards, at most 10): a few answers finish none.
    expect(await activitiesOf(who.id)).toEqual([]);
  });
});

describe("memory (FSRS)", () => {
  it("moves in the order the answers were given, whatever order they are sent in, each at its time clamped to [issued, now]", async () => {
    const who = await learner(5);
    const issuedAt = NOW;
    const bundle = await categoryBundle(who.id, "acoes", issuedAt);
    const now = new Date(issuedAt.getTime() + 3 * DAY);
    const card = bundle.cards[0]!;
    const wrongId = card.options.find((o) => o.id !== card.id)!.id;
    const gameA = { id: crypto.randomUUID(), bundleId: bundle.id, questionCount: Math.min(10, bundle.cards.length) };
    const gameB = { id: crypto.randomUUID(), bundleId: bundle.id, questionCount: Math.min(10, bundle.cards.length) };
    const gameC = { id: crypto.randomUUID(), bundleId: bundle.id, questionCount: Math.min(10, bundle.cards.length) };
    const answer = (gameId: string, chosenId: string, answeredAt: string): QueuedAnswer => ({
      key: crypto.randomUUID(),
      gameId,
      position: 0,
      cardId: card.id,
      chosenId,
      answeredAt,
    });
    const beforeIssue = answer(gameA.id, wrongId, new Date(issuedAt.getTime() - 5 * DAY).toISOString()); // clamped up to issuedAt
    const middle = answer(gameB.id, card.id, new Date(issuedAt.getTime() + DAY).toISOString());
    const future = answer(gameC.id, card.id, new Date(now.getTime() + 9 * DAY).toISOString()); // clamped down to now
    const result = await sync(
      who.id,
      {
        bundles: [{ id: bundle.id, signature: bundle.signature }],
        games: [gameC, gameA, gameB],
        answers: [future, middle, beforeIssue] as SyncInput["answers"],
      },
      now,
    );
    expect(result.accepted.sort()).toEqual([beforeIssue.key, middle.key, future.key].sort());

    let expected: Memory = nextMemory(null, false, issuedAt);
    expected = nextMemory(expected, true, new Date(issuedAt.getTime() + DAY));
    expected = nextMemory(expected, true, now);
    const stored = (await memoryOf(who.id, card.id))!;
    expect({
      due: stored.due,
      reps: stored.reps,
      lapses: stored.lapses,
      state: stored.state,
      lastReview: stored.lastReview,
      lastMissed: stored.lastMissed,
    }).toEqual({
      due: expected.due,
      reps: 3,
      lapses: expected.lapses,
      state: expected.state,
      lastReview: now,
      lastMissed: false,
    });
    expect(stored.stability).toBeCloseTo(expected.stability, 4);
    const times = Object.fromEntries(
      (
        await db
          .select()
          .from(flashcardQuestions)
          .where(
            sql`${flashcardQuestions.answerKey} in (${sql.join(
              [beforeIssue.key, future.key].map((k) => sql`${k}`),
              sql`, `,
            )})`,
          )
      ).map((q) => [q.answerKey, q.answeredAt]),
    );
    expect(times).toEqual({ [beforeIssue.key]: issuedAt, [future.key]: now });
    // One answer of a 10-question game: counted, not finished.
    const [gameRow] = await db.select().from(flashcardGames).where(eq(flashcardGames.id, gameC.id));
    expect(gameRow).toMatchObject({ answeredCount: 1, questionCount: Math.min(10, bundle.cards.length), finishedAt: null });
  });
});

describe("memory written while another answer changes it", () => {
  it("is never overwritten: the card is read again and the synced answer applied on top", async () => {
    const who = await learner(5);
    const bundle = await categoryBundle(who.id, "profissoes");
    const card = bundle.cards[0]!;
    await remember(who.id, [{ id: card.id, dueInDays: 0 }]);
    const played = play(bundle, { count: 1 });
    // An online answer to the same card lands between the sync's read of the memory and its write.
    let raced = false;
    const dialect = (db as unknown as { dialect: { sqlToQuery: (query: unknown) => { sql: string } } }).dialect;
    const racing = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== "execute") return Reflect.get(target, property, receiver);
        return async (query: Parameters<Database["execute"]>[0]) => {
          const result = await target.execute(query);
          if (!raced && dialect.sqlToQuery(query).sql.includes("insert into flashcard_questions")) {
            raced = true;
            await target
              .update(flashcardMemory)
              .set({ reps: 7, lastMissed: true })
              .where(and(eq(flashcardMemory.userId, who.id), eq(flashcardMemory.cardId, card.id)));
          }
          return result;
        };
      },
    });
    const result = await syncAnswers(
      { db: racing, env: TEST_ENV },
      who.id,
      body([bundle], [played], played.answers),
      new Date(NOW.getTime() + DAY),
    );
    expect(result.accepted).toHaveLength(1);
    expect(raced).toBe(true);
    expect(await memoryOf(who.id, card.id)).toMatchObject({ reps: 8, lastMissed: false });
  });
});

describe("the routes", () => {
  it("download and sync through the routes; signed out is a 401; the flag off is a 403 for all three", async () => {
    const who = await learner(3);
    const got = await download(who, { target: "category", slug: "animais" });
    expect(got.status).toBe(200);
    expect(got.headers.get("Cache-Control")).toBe("no-store");
    const played = play(got.data.bundle, { count: 2, start: new Date(Date.now() - 60_000) });
    const synced = await postSync(who, body([got.data.bundle], [played], played.answers));
    expect([synced.status, synced.data.accepted.length, synced.data.balance]).toEqual([200, 2, 2]);

    expect((await download(null, { target: "review" })).status).toBe(401);
    expect((await postSync(null, { bundles: [], games: [], answers: [] })).status).toBe(401);
    expect((await estimate(null, "?target=review")).status).toBe(401);

    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_flashcards"));
    expect((await estimate(who, "?target=category&slug=animais")).status).toBe(403);
    expect((await download(who, { target: "category", slug: "animais" })).status).toBe(403);
    const again = play(got.data.bundle, { count: 2, from: 2, start: new Date(Date.now() - 60_000) });
    expect((await postSync(who, body([got.data.bundle], [again], again.answers))).status).toBe(403);
    expect(await getBalance(db, who.id)).toBe(2);
    expect(await db.select().from(offlineBundles).where(eq(offlineBundles.userId, who.id))).toHaveLength(1);
  });

  it("hostile bodies get a 4xx and change nothing", async () => {
    const who = await learner(3);
    const { bundle } = (await download(who, { target: "category", slug: "animais" })).data;
    const played = play(bundle, { count: 1, start: new Date(Date.now() - 60_000) });
    const valid = body([bundle], [played], played.answers);
    const tooMany = { ...valid, answers: Array.from({ length: 501 }, () => ({ ...played.answers[0]!, key: crypto.randomUUID() })) };
    const cases: [string, Request, number][] = [
      [
        "a form",
        new Request("http://nika.test/resources/offline/sync", {
          method: "POST",
          headers: { Cookie: who.jar.header(), "Content-Type": "application/x-www-form-urlencoded" },
          body: "answers=1",
        }),
        415,
      ],
      ["not JSON", jsonRequest("/resources/offline/sync", who, "{answers: [}"), 400],
      ["invalid UTF-8", jsonRequest("/resources/offline/sync", who, new Uint8Array([0x7b, 0xff, 0x7d])), 400],
      ["no lists", jsonRequest("/resources/offline/sync", who, { answers: "todas" }), 400],
      [
        "a key that is not a uuid",
        jsonRequest("/resources/offline/sync", who, { ...valid, answers: [{ ...played.answers[0], key: "1; drop table users" }] }),
        400,
      ],
      ["501 answers", jsonRequest("/resources/offline/sync", who, tooMany), 400],
      ["over 256 KB", jsonRequest("/resources/offline/sync", who, { ...valid, pad: "x".repeat(300 * 1024) }), 413],
      ["an array", jsonRequest("/resources/offline/sync", who, []), 400],
    ];
    for (const [name, req, status] of cases) {
      const got = await call<{ error: string; code: string }>(() => syncRoute.action(args(req, ctx())));
      expect(got.status, name).toBe(status);
      expect(got.data.error, name).toMatch(/\p{L}/u);
    }
    for (const payload of [
      { target: "tudo" },
      { target: "category" },
      { target: "category", slug: 7 },
      "null",
      { target: "review", extra: ["x".repeat(70_000)] },
    ]) {
      expect((await download(who, payload)).status, JSON.stringify(payload).slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect((await download(who, payload)).status).toBeLessThan(500);
    }
    expect((await call(() => syncRoute.loader())).status).toBe(405);
    expect(await gamesOf(who.id)).toEqual([]);
    expect(await db.select().from(offlineBundles).where(eq(offlineBundles.userId, who.id))).toHaveLength(1);
  });

  it("stops a learner downloading in a loop (429) after 30 bundles an hour", async () => {
    const who = await learner();
    await db
      .insert(rateLimitAttempts)
      .values(Array.from({ length: 30 }, () => ({ bucket: "offline_bundle", subject: who.id, createdAt: new Date() })));
    const got = await download(who, { target: "category", slug: "animais" });
    expect([got.status, got.data.code]).toEqual([429, "rate_limited"]);
    expect(got.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await db.select().from(offlineBundles).where(eq(offlineBundles.userId, who.id))).toEqual([]);
  });
});
