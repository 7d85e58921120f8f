#!/usr/bin/env node
// @ts-check
// Flashcards: the server time to start a game (1 credit, one statement) and to answer a question
// (median and p95 over --games games × their 10 answers, one request at a time, as the development
// learner with enough credits), the JavaScript the picker and a game page load on a first visit
// (gzip), and the bytes of the shipped content (public/content/flashcards: pictures + audio).
//   node bench/flashcards.mjs [--games 50] [--build] [--smoke]
// By default the existing ./build is served (never rebuilt under a running server); --build rebuilds it.
// --smoke (bench/smoke.mjs): one game. Its own port, embedded database and data folder: it never meets `npm start`
// or the e2e server.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchDb, firstVisitScripts, kb, LEARNER, percentile, printPageScripts, signInAsLearner, startApp, writeResults } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    games: { type: "string", default: "50" },
    build: { type: "boolean", default: false },
    smoke: { type: "boolean", default: false },
  },
});
const GAMES = opts.smoke ? 1 : Math.max(5, Math.min(500, Number(opts.games)));
const WARMUP_GAMES = opts.smoke ? 1 : 3;
const CONTENT_DIR = "public/content/flashcards";

// 1. The app on a fresh embedded database (migrated, with the shipped cards, + development seed).
const app = await startApp({ name: "flashcards", port: "8794", pgPort: "25395", build: opts.build });
const { base } = app;

const median = (/** @type {number[]} */ values) => percentile(values, 0.5);
const ms = (/** @type {number} */ value) => `${value.toFixed(1)} ms`;
/** @typedef {{ median: number, p95: number, n: number }} Timing */

/** @type {{ games: number, start?: Timing, answer?: Timing, js?: unknown, content?: unknown }} */
const results = { games: GAMES };
let failed = false;
try {
  // 2. Enough credits for every game (the learner's balance, set over node-postgres).
  const { db, pool, sql } = await benchDb(app.vars);
  /** @param {string} gameId */
  const optionsOf = async (gameId) =>
    (await db.execute(sql`select position, option_ids from flashcard_questions where game_id = ${gameId} order by position`)).rows.map(
      (row) => ({
        position: Number(row.position),
        options: typeof row.option_ids === "string" ? row.option_ids.replace(/[{}]/g, "").split(",") : /** @type {string[]} */ (row.option_ids),
      }),
    );
  try {
    await db.execute(sql`update users set monthly_credits = greatest(monthly_credits, ${GAMES * 2 + 20}) where email = ${LEARNER.email}`);
    const slugs = (await db.execute(sql`select slug from flashcard_categories order by order_index`)).rows.map((row) => String(row.slug));
    const cookie = await signInAsLearner(base);

    /**
     * One form post, timed until the whole answer is read.
     * @param {string} path
     * @param {Record<string, string>} fields
     * @returns {Promise<{ ms: number, response: Response }>}
     */
    async function post(path, fields) {
      const started = performance.now();
      const response = await fetch(base + path, {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
      await response.arrayBuffer();
      return { ms: performance.now() - started, response };
    }

    /**
     * Starts a game in `slug`'s category and answers its every question; its id.
     * @param {string} slug
     * @param {{ start: number[], answer: number[] }} [timings]
     */
    async function playGame(slug, timings) {
      const started = await post("/flashcard-v2?index", { intent: "start", category: slug });
      const location = started.response.headers.get("location") ?? "";
      const gameId = /\/flashcard-v2\/([0-9a-f-]{36})/.exec(location)?.[1];
      if (started.response.status !== 303 || !gameId) throw new Error(`start answered ${started.response.status} ${location}`);
      timings?.start.push(started.ms);
      for (const { position, options } of await optionsOf(gameId)) {
        // the first option: right or wrong, the server does the same work
        const answered = await post(`/flashcard-v2/${gameId}`, { intent: "answer", position: String(position), optionId: options[0] });
        if (answered.response.status !== 303) throw new Error(`answer answered ${answered.response.status}`);
        timings?.answer.push(answered.ms);
      }
      return gameId;
    }

    // 3. Warm-up, then GAMES games one request at a time.
    for (let i = 0; i < WARMUP_GAMES; i++) await playGame(slugs[i % slugs.length]);
    /** @type {{ start: number[], answer: number[] }} */
    const timings = { start: [], answer: [] };
    const wall = performance.now();
    for (let i = 0; i < GAMES; i++) await playGame(slugs[i % slugs.length], timings);
    const seconds = (performance.now() - wall) / 1000;
    const start = { n: timings.start.length, median: median(timings.start), p95: percentile(timings.start, 0.95) };
    const answer = { n: timings.answer.length, median: median(timings.answer), p95: percentile(timings.answer, 0.95) };
    Object.assign(results, { start, answer });
    console.log(`start a game (POST /flashcard-v2 → 303)          median ${ms(start.median)} · p95 ${ms(start.p95)} (n=${start.n})`);
    console.log(`answer a question (POST /flashcard-v2/:id → 303) median ${ms(answer.median)} · p95 ${ms(answer.p95)} (n=${answer.n})`);
    console.log(
      `(${GAMES} games × their answers in ${seconds.toFixed(1)} s, one request at a time, loopback, wrangler dev + embedded Postgres)`,
    );

    // 4. JavaScript the picker and a game page load on a first visit (empty cache), gzip.
    const unfinished = await post("/flashcard-v2?index", { intent: "start", category: slugs[0] });
    const unfinishedId = /\/flashcard-v2\/([0-9a-f-]{36})/.exec(unfinished.response.headers.get("location") ?? "")?.[1];
    if (!unfinishedId) throw new Error(`start answered ${unfinished.response.status} without a game`);
    const js = await firstVisitScripts(
      base,
      cookie,
      [
        ["/flashcard-v2 (picker)", "/flashcard-v2"],
        ["/flashcard-v2/:id (game)", `/flashcard-v2/${unfinishedId}`],
      ],
      /flashcard|Picker|GameScreen|preload/i,
      opts.smoke,
    );
    results.js = js;
    printPageScripts(js, "flashcard chunks");
  } finally {
    await pool.end();
  }

  // 5. The shipped content.
  const files = readdirSync(CONTENT_DIR).map((file) => ({ file, bytes: statSync(join(CONTENT_DIR, file)).size }));
  const sum = (/** @type {{ bytes: number }[]} */ list) => list.reduce((total, f) => total + f.bytes, 0);
  const pictures = files.filter((f) => f.file.endsWith(".svg"));
  const audio = files.filter((f) => f.file.endsWith(".mp3"));
  results.content = {
    files: files.length,
    bytes: sum(files),
    pictures: { files: pictures.length, bytes: sum(pictures) },
    audio: { files: audio.length, bytes: sum(audio) },
  };
  console.log(
    `shipped content (${CONTENT_DIR}): ${files.length} files = ${kb(sum(files))} — ${pictures.length} pictures ${kb(sum(pictures))}, ${audio.length} sounds ${kb(sum(audio))}`,
  );
  writeResults("flashcards", results, opts.smoke);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await app.stop();
}
process.exit(failed ? 1 : 0);
