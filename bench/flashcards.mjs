#!/usr/bin/env node
// Flashcards: the server time to start a game (1 credit, one statement) and to answer a question
// (median and p95 over --games games × their 10 answers, one request at a time, as the development
// learner with enough credits), the JavaScript the picker and a game page load on a first visit
// (gzip), and the bytes of the shipped content (public/content/flashcards: pictures + audio).
//   node bench/flashcards.mjs [--games 50] [--build]
// By default the existing ./build is served (never rebuilt under a running server); --build rebuilds it.
// Its own port, embedded database and data folder: it never meets `npm start` or the e2e server.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchDb, firstVisitScripts, kb, LEARNER, percentile, requireFreePorts, signInAsLearner, untilReady, writeBenchVars } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    games: { type: "string", default: "50" },
    build: { type: "boolean", default: false },
  },
});
const GAMES = Math.max(5, Math.min(500, Number(opts.games)));
const port = "8794";
const pgPort = "25395";
const base = `http://127.0.0.1:${port}`;
const vars = ".cache/bench-flashcards.vars";
const CONTENT_DIR = "public/content/flashcards";

await requireFreePorts([port, pgPort]);

writeBenchVars(vars, { port, pgPort });

// 1. The app on a fresh embedded database (migrated, with the shipped cards, + development seed).
const startArgs = ["--env-file", vars, "--port", port, "--data", ".cache/bench-flashcards", "--fresh", "--quiet-wrangler"];
const child = spawn("node", ["scripts/start.mjs", ...startArgs, ...(opts.build ? [] : ["--no-build"])], {
  stdio: ["ignore", "ignore", "inherit", "ipc"],
});
const stop = () => child.kill("SIGTERM");
process.on("SIGINT", () => (stop(), process.exit(130)));
await untilReady(child);

const median = (values) => percentile(values, 0.5);
const ms = (value) => `${value.toFixed(1)} ms`;

const results = { games: GAMES };
try {
  // 2. Enough credits for every game (the learner's balance, set over node-postgres).
  const { db, pool, sql } = await benchDb(vars);
  const optionsOf = async (gameId) =>
    (await db.execute(sql`select position, option_ids from flashcard_questions where game_id = ${gameId} order by position`)).rows.map(
      (row) => ({
        position: Number(row.position),
        options: typeof row.option_ids === "string" ? row.option_ids.replace(/[{}]/g, "").split(",") : row.option_ids,
      }),
    );
  try {
    await db.execute(sql`update users set monthly_credits = ${GAMES * 2 + 20} where email = ${LEARNER.email}`);
    const slugs = (await db.execute(sql`select slug from flashcard_categories order by order_index`)).rows.map((row) => String(row.slug));
    const cookie = await signInAsLearner(base);

    /** One form post, timed until the whole answer is read; returns [ms, response]. */
    async function post(path, fields) {
      const started = performance.now();
      const response = await fetch(base + path, {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
      await response.arrayBuffer();
      return [performance.now() - started, response];
    }

    async function playGame(slug, timings) {
      const [startMs, started] = await post("/flashcard-v2?index", { intent: "start", category: slug });
      const location = started.headers.get("location") ?? "";
      const gameId = /\/flashcard-v2\/([0-9a-f-]{36})/.exec(location)?.[1];
      if (started.status !== 303 || !gameId) throw new Error(`start answered ${started.status} ${location}`);
      timings?.start.push(startMs);
      for (const { position, options } of await optionsOf(gameId)) {
        // the first option: right or wrong, the server does the same work
        const [answerMs, answered] = await post(`/flashcard-v2/${gameId}`, {
          intent: "answer",
          position: String(position),
          optionId: options[0],
        });
        if (answered.status !== 303) throw new Error(`answer answered ${answered.status}`);
        timings?.answer.push(answerMs);
      }
      return gameId;
    }

    // 3. Warm-up, then GAMES games one request at a time.
    for (let i = 0; i < 3; i++) await playGame(slugs[i % slugs.length]);
    const timings = { start: [], answer: [] };
    const wall = performance.now();
    for (let i = 0; i < GAMES; i++) await playGame(slugs[i % slugs.length], timings);
    const seconds = (performance.now() - wall) / 1000;
    results.start = { n: timings.start.length, median: median(timings.start), p95: percentile(timings.start, 0.95) };
    results.answer = { n: timings.answer.length, median: median(timings.answer), p95: percentile(timings.answer, 0.95) };
    console.log(
      `start a game (POST /flashcard-v2 → 303)          median ${ms(results.start.median)} · p95 ${ms(results.start.p95)} (n=${results.start.n})`,
    );
    console.log(
      `answer a question (POST /flashcard-v2/:id → 303) median ${ms(results.answer.median)} · p95 ${ms(results.answer.p95)} (n=${results.answer.n})`,
    );
    console.log(
      `(${GAMES} games × their answers in ${seconds.toFixed(1)} s, one request at a time, loopback, wrangler dev + embedded Postgres)`,
    );

    // 4. JavaScript the picker and a game page load on a first visit (empty cache), gzip.
    const unfinished = await (async () => {
      const [, started] = await post("/flashcard-v2?index", { intent: "start", category: slugs[0] });
      return /\/flashcard-v2\/([0-9a-f-]{36})/.exec(started.headers.get("location") ?? "")[1];
    })();
    try {
      results.js = await firstVisitScripts(
        base,
        cookie,
        [
          ["/flashcard-v2 (picker)", "/flashcard-v2"],
          ["/flashcard-v2/:id (game)", `/flashcard-v2/${unfinished}`],
        ],
        /flashcard|Picker|GameScreen|preload/i,
      );
      for (const [label, { files, gzip, routeChunks }] of Object.entries(results.js)) {
        console.log(`${label.padEnd(26)} loads ${String(files).padStart(2)} JS files = ${kb(gzip)} gzip (flashcard chunks ${kb(routeChunks)})`);
      }
    } catch (error) {
      console.log(`(page JS sizes skipped: ${error.message})`);
    }
  } finally {
    await pool.end();
  }

  // 5. The shipped content.
  const files = readdirSync(CONTENT_DIR).map((file) => ({ file, bytes: statSync(join(CONTENT_DIR, file)).size }));
  const sum = (list) => list.reduce((total, f) => total + f.bytes, 0);
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
} finally {
  stop();
}
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/flashcards.json", JSON.stringify(results, null, 2));
setTimeout(() => process.exit(0), 1500);
