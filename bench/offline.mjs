#!/usr/bin/env node
// @ts-check
// Offline practice (issue 38): what a download weighs — a Revisão bundle (100 cards due) and a category bundle, their
// JSON and their media (pictures + audio) as the server reports them — and the server's time to handle a sync of 10
// and of 100 answers (1 and 10 games, each paying its credit; median and p95 over --rounds syncs, one request at a
// time), plus a replay of 100 answers already synced (every one a duplicate). As the development learner.
//   node bench/offline.mjs [--rounds 20] [--build] [--smoke]
// By default the existing ./build is served (never rebuilt under a running server); --build rebuilds it. --smoke
// (bench/smoke.mjs): one round. Its own port, embedded database and data folder: it never meets `npm start` or the
// e2e server.
import { parseArgs } from "node:util";
import { benchDb, kb, LEARNER, percentile, signInAsLearner, startApp, writeResults } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    rounds: { type: "string", default: "20" },
    build: { type: "boolean", default: false },
    smoke: { type: "boolean", default: false },
  },
});
const ROUNDS = opts.smoke ? 1 : Math.max(3, Math.min(200, Number(opts.rounds)));
const WARMUP = opts.smoke ? 0 : 3;
const SIZES = [10, 100];
const REVIEW_CARDS = 100;

const app = await startApp({ name: "offline", port: "8793", pgPort: "25393", build: opts.build });
const { base } = app;
const ms = (/** @type {number} */ value) => `${value.toFixed(1)} ms`;

/**
 * @typedef {{ id: string, options: { id: string }[] }} Card
 * @typedef {{ id: string, signature: string, issuedAt: string, cards: Card[], media: string[], bytes: { json: number, media: number } }} Bundle
 */

/** @type {Record<string, unknown>} */
const results = { rounds: ROUNDS };
let failed = false;
try {
  const { db, pool, sql } = await benchDb(app.vars);
  try {
    // Credits for every game, and 100 cards due for Revisão (the learner's memory of the first cards of each category).
    const games = (WARMUP + ROUNDS) * SIZES.reduce((sum, size) => sum + Math.ceil(size / 10), 0);
    await db.execute(sql`update users set monthly_credits = greatest(monthly_credits, ${games + 20}) where email = ${LEARNER.email}`);
    await db.execute(sql`
      insert into flashcard_memory (user_id, card_id, due, stability, difficulty, elapsed_days, scheduled_days, reps, lapses, state, last_review, last_missed)
      select u.id, k.id, now() + interval '1 day', 3, 5, 1, 3, 2, 0, 2, now() - interval '2 days', false
      from users u cross join (select id from flashcard_cards where not hidden and deleted_at is null order by category_slug, order_index limit ${REVIEW_CARDS}) k
      where u.email = ${LEARNER.email}
      on conflict do nothing`);
    const cookie = await signInAsLearner(base);

    /**
     * A JSON POST, timed until the whole answer is read.
     * @param {string} path
     * @param {unknown} body
     */
    async function post(path, body) {
      const started = performance.now();
      const response = await fetch(base + path, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const data = await response.json();
      const elapsed = performance.now() - started;
      if (response.status !== 200) throw new Error(`${path} answered ${response.status} ${JSON.stringify(data)}`);
      return { ms: elapsed, data };
    }

    // 1. The two downloads: what they weigh.
    /** @type {Record<string, Bundle>} */
    const bundles = {};
    for (const [name, target] of /** @type {const} */ ([
      ["review", { target: "review" }],
      ["category", { target: "category", slug: "animais" }],
    ])) {
      const { ms: took, data } = await post("/resources/offline/bundle", target);
      const bundle = /** @type {Bundle} */ (data.bundle);
      bundles[name] = bundle;
      results[`${name}Bundle`] = {
        cards: bundle.cards.length,
        json: bundle.bytes.json,
        media: bundle.bytes.media,
        files: bundle.media.length,
        ms: took,
      };
      console.log(
        `${name === "review" ? "Revisão" : "category 'animais'"} bundle: ${bundle.cards.length} cards — JSON ${kb(bundle.bytes.json)}, ` +
          `media ${kb(bundle.bytes.media)} in ${bundle.media.length} files, total ${kb(bundle.bytes.json + bundle.bytes.media)} (issued in ${ms(took)})`,
      );
    }

    // 2. Syncs: a queue of `size` answers to the category bundle (games of 10), each sync new games and keys.
    const bundle = bundles.category;
    const issuedAt = Date.parse(bundle.issuedAt);
    /** @param {number} size */
    function queue(size) {
      const gameIds = Array.from({ length: Math.ceil(size / 10) }, () => crypto.randomUUID());
      return {
        bundles: [{ id: bundle.id, signature: bundle.signature }],
        games: gameIds.map((id) => ({ id, bundleId: bundle.id, questionCount: 10 })),
        answers: Array.from({ length: size }, (_, i) => {
          const card = bundle.cards[i % bundle.cards.length];
          return {
            key: crypto.randomUUID(),
            gameId: gameIds[Math.floor(i / 10)],
            position: i % 10,
            cardId: card.id,
            // right or wrong, the server does the same work
            chosenId: card.options[i % card.options.length].id,
            answeredAt: new Date(issuedAt + (i + 1) * 1000).toISOString(),
          };
        }),
      };
    }
    for (const size of SIZES) {
      for (let i = 0; i < WARMUP; i++) await post("/resources/offline/sync", queue(size));
      /** @type {number[]} */
      const times = [];
      /** @type {ReturnType<typeof queue> | undefined} */
      let last;
      for (let i = 0; i < ROUNDS; i++) {
        last = queue(size);
        const { ms: took, data } = await post("/resources/offline/sync", last);
        if (data.accepted.length !== size)
          throw new Error(`sync of ${size} accepted ${data.accepted.length}: ${JSON.stringify(data.refused[0])}`);
        times.push(took);
      }
      const timing = { n: times.length, median: percentile(times, 0.5), p95: percentile(times, 0.95) };
      results[`sync${size}`] = timing;
      console.log(
        `sync of ${String(size).padStart(3)} answers (${Math.ceil(size / 10)} new game${size > 10 ? "s" : ""}) median ${ms(timing.median)} · p95 ${ms(timing.p95)} (n=${timing.n})`,
      );
      if (size === SIZES.at(-1) && last) {
        /** @type {number[]} */
        const replays = [];
        for (let i = 0; i < ROUNDS; i++) {
          const { ms: took, data } = await post("/resources/offline/sync", last);
          if (data.duplicate.length !== size) throw new Error(`a replay of ${size} found ${data.duplicate.length} duplicates`);
          replays.push(took);
        }
        const replay = { n: replays.length, median: percentile(replays, 0.5), p95: percentile(replays, 0.95) };
        results[`replay${size}`] = replay;
        console.log(`replay of ${size} answers (all duplicates)       median ${ms(replay.median)} · p95 ${ms(replay.p95)} (n=${replay.n})`);
      }
    }
    console.log("(one request at a time, loopback, wrangler dev + embedded Postgres: the round trip is the server's handling time)");
  } finally {
    await pool.end();
  }
  writeResults("offline", results, opts.smoke);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await app.stop();
}
process.exit(failed ? 1 : 0);
