#!/usr/bin/env node
// Teacher FLIX under load: seeds 30 modules × 20 lessons into a separate embedded database, signs in,
// and measures requests per second of /courses (and the module and lesson pages) next to trivial
// routes on the same `wrangler dev` — a loader-less signed-in page (/labs: only the session and
// flags queries of the shell) and a static asset (/manifest.webmanifest). Also prints the gzip size
// of the JavaScript each course page loads.
//   node bench/courses.mjs [--requests 400] [--concurrency 8] [--build]
// By default the existing ./build is served (never rebuilt under a running server); --build rebuilds it.
// Loopback only; a bounded number of requests.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { gzipSizeOf, kb, launchChromium, LEARNER, signInAsLearner, untilReady, writeBenchVars } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    requests: { type: "string", default: "400" },
    concurrency: { type: "string", default: "8" },
    build: { type: "boolean", default: false },
  },
});
const REQUESTS = Math.max(10, Math.min(5000, Number(opts.requests)));
const CONCURRENCY = Math.max(1, Math.min(64, Number(opts.concurrency)));
const port = "8792";
const base = `http://127.0.0.1:${port}`;
const vars = ".cache/bench-courses.vars";

writeBenchVars(vars, { port, pgPort: "25390" });

// 1. The app on a fresh embedded database (migrated + development seed by start.mjs).
const child = spawn(
  "node",
  [
    "scripts/start.mjs",
    "--env-file",
    vars,
    "--port",
    port,
    "--data",
    ".cache/bench-courses",
    "--fresh",
    "--quiet-wrangler",
    ...(opts.build ? [] : ["--no-build"]),
  ],
  { stdio: ["ignore", "ignore", "inherit", "ipc"] },
);
const stop = () => child.kill("SIGTERM");
process.on("SIGINT", () => {
  stop();
  process.exit(130);
});
await untilReady(child);

const results = { requests: REQUESTS, concurrency: CONCURRENCY };
try {
  // 2. 30 modules × 20 lessons (+ some progress and comments for the learner), over node-postgres like the app.
  process.env.ENV_FILE = vars;
  const { register } = await import("tsx/esm/api");
  register();
  const { connect, loadEnv } = await import("../scripts/lib/node-db.ts");
  const schema = await import("../app/server/schema.ts");
  const { eq } = await import("drizzle-orm");
  const { pool, db } = connect(loadEnv(vars));
  let moduleId;
  let lessonId;
  try {
    const created = await db
      .insert(schema.modules)
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          title: `Módulo de carga ${i + 1}`,
          description: `Descrição do módulo ${i + 1}.`,
          orderIndex: 10 + i,
          available: "yes",
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
  async function rps(path) {
    const hit = async () => {
      const response = await fetch(base + path, { headers: { Cookie: cookie } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    };
    for (let i = 0; i < 10; i++) await hit();
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
  results.rps = {};
  for (const [name, path] of Object.entries(routes)) {
    results.rps[name] = await rps(path);
    console.log(`${name.padEnd(48)} ${results.rps[name].toFixed(1).padStart(7)} req/s`);
  }
  const courses = results.rps["/courses"];
  const labs = results.rps["/labs (signed-in page, no loader of its own)"];
  const manifest = results.rps["/manifest.webmanifest (static asset)"];
  results.ratio = { coursesVsLabs: courses / labs, coursesVsStatic: courses / manifest };
  console.log(
    `ratio /courses ÷ /labs = ${results.ratio.coursesVsLabs.toFixed(2)} · /courses ÷ static asset = ${results.ratio.coursesVsStatic.toFixed(2)}`,
  );
  // Query counts per page are measured and asserted exactly in tests/integration/courses-learner.test.ts (30 × 20 seed).

  // 5. JavaScript each course page loads (gzip), first visit with an empty cache.
  try {
    const browser = await launchChromium();
    const [name, value] = cookie.split("=");
    results.js = {};
    for (const [label, path] of Object.entries(routes).slice(0, 3)) {
      const context = await browser.newContext();
      await context.addCookies([{ name, value, domain: "127.0.0.1", path: "/" }]);
      await context.route(/youtube|vimeo|ytimg/, (route) => route.abort());
      const page = await context.newPage();
      const scripts = new Set();
      page.on("response", (r) => r.request().resourceType() === "script" && r.url().startsWith(base) && scripts.add(r.url()));
      await page.goto(base + path, { waitUntil: "networkidle" });
      let gzip = 0;
      let routeChunk = 0;
      for (const url of scripts) {
        const size = await gzipSizeOf(url);
        gzip += size;
        if (/_app\.courses/.test(url)) routeChunk += size;
      }
      results.js[label] = { files: scripts.size, gzip, routeChunks: routeChunk };
      console.log(
        `${label.padEnd(22)} loads ${String(scripts.size).padStart(2)} JS files = ${kb(gzip)} gzip (course route chunks ${kb(routeChunk)})`,
      );
      await context.close();
    }
    await browser.close();
  } catch (error) {
    console.log(`(page JS sizes skipped: ${error.message})`);
  }
} finally {
  stop();
}
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/courses.json", JSON.stringify(results, null, 2));
setTimeout(() => process.exit(0), 1500);
