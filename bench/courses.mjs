#!/usr/bin/env node
// @ts-check
// Teacher FLIX under load: seeds 30 modules × 20 lessons into a separate embedded database, signs in,
// and measures requests per second of /courses (and the module and lesson pages) next to trivial
// routes on the same `wrangler dev` — a loader-less signed-in page (/labs: only the session and
// flags queries of the shell) and a static asset (/manifest.webmanifest). Also prints the gzip size
// of the JavaScript each course page loads.
//   node bench/courses.mjs [--requests 400] [--concurrency 8] [--build] [--smoke]
// By default the existing ./build is served (never rebuilt under a running server); --build rebuilds it.
// --smoke (bench/smoke.mjs): 5 requests per route. Loopback only; a bounded number of requests.
import { parseArgs } from "node:util";
import { benchDb, firstVisitScripts, LEARNER, printPageScripts, signInAsLearner, startApp, writeResults } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    requests: { type: "string", default: "400" },
    concurrency: { type: "string", default: "8" },
    build: { type: "boolean", default: false },
    smoke: { type: "boolean", default: false },
  },
});
const REQUESTS = opts.smoke ? 5 : Math.max(10, Math.min(5000, Number(opts.requests)));
const CONCURRENCY = opts.smoke ? 2 : Math.max(1, Math.min(64, Number(opts.concurrency)));
const WARMUP = opts.smoke ? 1 : 10;

// 1. The app on a fresh embedded database (migrated + development seed by start.mjs).
const app = await startApp({ name: "courses", port: "8792", pgPort: "25390", build: opts.build });
const { base } = app;

/** @type {{ requests: number, concurrency: number, rps?: Record<string, number>, ratio?: Record<string, number>, js?: unknown }} */
const results = { requests: REQUESTS, concurrency: CONCURRENCY };
let failed = false;
try {
  // 2. 30 modules × 20 lessons (+ some progress and comments for the learner), over node-postgres like the app.
  const { db, pool } = await benchDb(app.vars);
  const schema = { ...(await import("../app/server/schema.ts")), ...(await import("../app/features/courses/tables.ts")) };
  const { eq } = await import("drizzle-orm");
  /** @type {string} */
  let moduleId;
  /** @type {string} */
  let lessonId;
  try {
    const created = await db
      .insert(schema.modules)
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          title: `Módulo de carga ${i + 1}`,
          description: `Descrição do módulo ${i + 1}.`,
          orderIndex: 10 + i,
          available: /** @type {const} */ ("yes"),
        })),
      )
      .returning({ id: schema.modules.id });
    const lessonRows = created.flatMap((m, mi) =>
      Array.from({ length: 20 }, (_, li) => ({
        moduleId: m.id,
        title: `Aula ${li + 1} do módulo ${mi + 1}`,
        description: `Conteúdo da aula ${li + 1}.`,
        durationSeconds: 300 + li * 17,
        orderIndex: li + 1,
        videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      })),
    );
    const insertedLessons = await db
      .insert(schema.lessons)
      .values(lessonRows)
      .returning({ id: schema.lessons.id, moduleId: schema.lessons.moduleId });
    const [learner] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, LEARNER.email));
    moduleId = created[3].id;
    const ofModule = insertedLessons.filter((l) => l.moduleId === moduleId);
    lessonId = ofModule[4].id;
    await db
      .insert(schema.userLessonProgress)
      .values(
        insertedLessons
          .filter((_, i) => i % 3 === 0)
          .map((l) => ({ userId: learner.id, lessonId: l.id, completed: true, completedAt: new Date() })),
      );
    await db
      .insert(schema.lessonComments)
      .values(Array.from({ length: 20 }, (_, i) => ({ lessonId, userId: learner.id, content: `Comentário de carga ${i + 1}` })));
  } finally {
    await pool.end();
  }
  console.log(`seeded 30 modules × 20 lessons (+3 development modules), 200 completions, 20 comments`);

  // 3. Sign in as the learner.
  const cookie = await signInAsLearner(base, { redirectTo: "/courses" });

  // 4. Requests per second: REQUESTS requests, CONCURRENCY in flight, after a short warm-up.
  /** @param {string} path */
  async function rps(path) {
    const hit = async () => {
      const response = await fetch(base + path, { headers: { Cookie: cookie } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    };
    for (let i = 0; i < WARMUP; i++) await hit();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next++;
          await hit();
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return REQUESTS / seconds;
  }
  const routes = {
    "/courses": "/courses",
    "/courses/modules/:id": `/courses/modules/${moduleId}`,
    "/courses/lessons/:id": `/courses/lessons/${lessonId}`,
    "/labs (signed-in page, no loader of its own)": "/labs",
    "/manifest.webmanifest (static asset)": "/manifest.webmanifest",
  };
  /** @type {Record<string, number>} */
  const perRoute = {};
  for (const [name, path] of Object.entries(routes)) {
    perRoute[name] = await rps(path);
    console.log(`${name.padEnd(48)} ${perRoute[name].toFixed(1).padStart(7)} req/s`);
  }
  results.rps = perRoute;
  const courses = perRoute["/courses"];
  const labs = perRoute["/labs (signed-in page, no loader of its own)"];
  const manifest = perRoute["/manifest.webmanifest (static asset)"];
  results.ratio = { coursesVsLabs: courses / labs, coursesVsStatic: courses / manifest };
  console.log(
    `ratio /courses ÷ /labs = ${results.ratio.coursesVsLabs.toFixed(2)} · /courses ÷ static asset = ${results.ratio.coursesVsStatic.toFixed(2)}`,
  );
  // Query counts per page are measured and asserted exactly in tests/integration/courses-learner.test.ts (30 × 20 seed).

  // 5. JavaScript each course page loads (gzip), first visit with an empty cache.
  const js = await firstVisitScripts(
    base,
    cookie,
    Object.entries(routes)
      .slice(0, 3)
      .map(([label, path]) => [label, path]),
    /_app\.courses/,
    opts.smoke,
  );
  results.js = js;
  printPageScripts(js, "course route chunks");
  writeResults("courses", results, opts.smoke);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await app.stop();
}
process.exit(failed ? 1 : 0);
