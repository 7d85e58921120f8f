// Teacher FLIX, learner side: the loaders of /courses, the module page and the lesson page, and the
// lesson actions (completion, comments, replies) against PGlite with the real migrations — guards,
// statistics math, next-lesson rules, comment rules and the number of queries per page.
import { and, asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Catalogue, LessonPage, ModulePage } from "~/features/courses/catalog.server";
import type { LessonComments } from "~/features/courses/comments.server";
import { lessonComments, lessons, modules, siteBanners, userLessonProgress } from "~/features/courses/tables";
import { courseNotFoundOf } from "~/features/courses/ui/NotFound";
import * as root from "~/root";
import * as appLayout from "~/routes/_app+/_layout";
import * as cataloguePage from "~/routes/_app+/courses+/_catalogue+/_layout";
import * as coursesLayout from "~/routes/_app+/courses+/_layout";
import * as lessonRoute from "~/routes/_app+/courses+/lessons.$lessonId";
import * as moduleRoute from "~/routes/_app+/courses+/modules.$moduleId";
import { createSession } from "~/server/auth.server";
import type { Database } from "~/server/db.server";
import { isFeatureDisabled } from "~/server/flags.server";
import { appConfig, userRoles, users } from "~/server/schema";
import { DEV_ACCOUNTS, seedDevelopment } from "../../scripts/lib/seed";
import { args, call, contextFor, CookieJar, createTestDb, request, toastOf, type Outcome } from "./harness";

type Account = { id: string; jar: CookieJar };
type CatalogueData = Catalogue & { isAdmin: boolean };
type ModuleData = { page: ModulePage; isAdmin: boolean };
type LessonData = { page: LessonPage; comments: LessonComments; isAdmin: boolean; now: number };
type SeededModule = { id: string; orderIndex: number; available: "yes" | "no"; lessons: string[] };

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

/** A database seeded like development, with sessions for the dev accounts. */
async function createWorld() {
  const { db, queryCount } = await createTestDb();
  await seedDevelopment(db, { allowance: 50 });
  const byEmail = async (email: string) => (await db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
  const world = {
    db,
    queryCount,
    learner: await signedIn(db, await byEmail(DEV_ACCOUNTS.learner.email)),
    admin: await signedIn(db, await byEmail(DEV_ACCOUNTS.admin.email)),
    blocked: await signedIn(db, await byEmail(DEV_ACCOUNTS.blocked.email)),
    modules: await seededModules(db),
  };
  return world;
}
type World = Awaited<ReturnType<typeof createWorld>>;

async function signedIn(db: Database, userId: string): Promise<Account> {
  const jar = new CookieJar();
  jar.absorb(new Headers({ "Set-Cookie": await createSession(contextFor(db), userId, request("/")) }));
  return { id: userId, jar };
}

let counter = 0;
async function newLearner(db: Database, name = "Pessoa Teste", admin = false): Promise<Account> {
  const [user] = await db
    .insert(users)
    .values({ name, email: `learner-${Date.now()}-${counter++}@example.com`, creditsPeriod: "2999-12", emailConfirmedAt: new Date() })
    .returning({ id: users.id });
  if (admin) await db.insert(userRoles).values({ userId: user!.id, role: "admin" });
  return signedIn(db, user!.id);
}

async function seededModules(db: Database): Promise<SeededModule[]> {
  const moduleRows = await db.select().from(modules).orderBy(asc(modules.orderIndex));
  const lessonRows = await db.select().from(lessons).orderBy(asc(lessons.orderIndex));
  return moduleRows.map((m) => ({
    id: m.id,
    orderIndex: m.orderIndex,
    available: m.available,
    lessons: lessonRows.filter((l) => l.moduleId === m.id).map((l) => l.id),
  }));
}

async function addModule(
  db: Database,
  {
    title = "Módulo extra",
    orderIndex,
    available = "yes" as "yes" | "no",
    lessonCount = 1,
    seconds = 90,
  }: {
    title?: string;
    orderIndex: number;
    available?: "yes" | "no";
    lessonCount?: number;
    seconds?: number;
  },
): Promise<SeededModule> {
  const [created] = await db.insert(modules).values({ title, orderIndex, available }).returning({ id: modules.id });
  const ids: string[] = [];
  for (let index = 0; index < lessonCount; index++) {
    const [lesson] = await db
      .insert(lessons)
      .values({
        moduleId: created!.id,
        title: `${title} — aula ${index + 1}`,
        orderIndex: index + 1,
        durationSeconds: seconds,
        videoUrl: "https://youtu.be/x",
      })
      .returning({ id: lessons.id });
    ids.push(lesson!.id);
  }
  return { id: created!.id, orderIndex, available, lessons: ids };
}

// ——— calling routes ———

// Each loader under test types its own route's params; the calls below pass the ones its path has.
type Loader = (a: never) => unknown;

function load<T>(world: World, loader: Loader, path: string, account: Account | null, params: Record<string, string> = {}) {
  return call<T>(() => loader(args(request(path, { jar: account?.jar }), contextFor(world.db), params) as never));
}

function act<T = Record<string, unknown>>(world: World, lessonId: string, form: Record<string, string>, account: Account | null) {
  const path = `/courses/lessons/${lessonId}`;
  return call<T>(() => lessonRoute.action(args(request(path, { form, jar: account?.jar }), contextFor(world.db), { lessonId })));
}

const loadLesson = (world: World, lessonId: string, account: Account) =>
  load<LessonData>(world, lessonRoute.loader, `/courses/lessons/${lessonId}`, account, { lessonId });
const loadModule = (world: World, moduleId: string, account: Account) =>
  load<ModuleData>(world, moduleRoute.loader, `/courses/modules/${moduleId}`, account, { moduleId });
const loadCatalogue = (world: World, account: Account) => load<CatalogueData>(world, cataloguePage.loader, "/courses", account);

/** Runs every loader of a page the way React Router does (in parallel, one load context) and counts the SQL. */
async function loadPage(world: World, path: string, loaders: Loader[], account: Account, params: Record<string, string> = {}) {
  const context = contextFor(world.db);
  const before = world.queryCount();
  const results = await Promise.all(
    loaders.map((loader) => call(() => loader(args(request(path, { jar: account.jar }), context, params) as never))),
  );
  return { results, queries: world.queryCount() - before };
}

/** The lesson action's answer to a refused comment: its code and the conform reply (what was sent, the errors). */
const commentRefusal = (code: string, sent: Record<string, string | undefined>, error: Record<string, string[]>) => ({
  intent: "comment",
  code,
  result: { status: "error", initialValue: sent, error, fields: expect.arrayContaining(["intent"]) },
});

/** Posts the comment form and expects it refused with `status`, `code` and the reply of the form that was sent. */
async function expectCommentRefused(
  world: World,
  lessonId: string,
  form: Record<string, string>,
  account: Account,
  expected: { status: number; code: string; error: Record<string, string[]> },
) {
  const outcome = await act(world, lessonId, form, account);
  expect(outcome.status).toBe(expected.status);
  expect(outcome.data).toEqual(commentRefusal(expected.code, form, expected.error));
}

const expectNotFound = (outcome: Outcome, kind: "module" | "lesson") => {
  expect(outcome.status).toBe(404);
  expect(courseNotFoundOf(outcome.data)).toBe(kind);
  expect(outcome.data).toMatchObject({ error: kind === "module" ? "Módulo não encontrado" : "Aula não encontrada" });
};

const statisticsOf = async (db: Database, userId: string) => {
  const [row] = await db
    .select({ lessonsWatched: users.lessonsWatched, modulesCompleted: users.modulesCompleted, courseCompletion: users.courseCompletion })
    .from(users)
    .where(eq(users.id, userId));
  return row!;
};

// ——————————————————————————————————————————————————————————————————————————————

describe("guards of every course loader and action", () => {
  let world: World;
  let lessonId: string;
  let moduleId: string;
  beforeAll(async () => {
    world = await createWorld();
    moduleId = world.modules[1]!.id;
    lessonId = world.modules[1]!.lessons[0]!;
  });

  const pages = () =>
    [
      { name: "courses layout", run: (a: Account | null) => load(world, coursesLayout.loader, "/courses", a) },
      { name: "/courses", run: (a: Account | null) => load(world, cataloguePage.loader, "/courses", a) },
      { name: "module page", run: (a: Account | null) => load(world, moduleRoute.loader, `/courses/modules/${moduleId}`, a, { moduleId }) },
      { name: "lesson page", run: (a: Account | null) => load(world, lessonRoute.loader, `/courses/lessons/${lessonId}`, a, { lessonId }) },
      { name: "complete action", run: (a: Account | null) => act(world, lessonId, { intent: "complete" }, a) },
      { name: "comment action", run: (a: Account | null) => act(world, lessonId, { intent: "comment", content: "Oi" }, a) },
    ] as const;

  it("send anonymous visitors to /signin (keeping the target)", async () => {
    for (const page of pages()) {
      const outcome = await page.run(null);
      expect(outcome.status, page.name).toBe(302);
      expect(outcome.location, page.name).toMatch(/^\/signin\?redirectTo=%2Fcourses/);
    }
  });

  it("send blocked accounts to /blocked", async () => {
    for (const page of pages()) {
      const outcome = await page.run(world.blocked);
      expect(outcome.status, page.name).toBe(302);
      expect(outcome.location, page.name).toBe("/blocked");
    }
  });

  it("answer 403 feature-disabled when feature_teacher_flix is off, and store nothing", async () => {
    await world.db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_teacher_flix"));
    try {
      for (const page of pages()) {
        const outcome = await page.run(world.learner);
        expect(outcome.status, page.name).toBe(403);
        expect(isFeatureDisabled(outcome.data), page.name).toBe(true);
      }
      expect(await world.db.select().from(userLessonProgress)).toHaveLength(0);
      expect(await world.db.select().from(lessonComments)).toHaveLength(0);
    } finally {
      await world.db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_teacher_flix"));
    }
    expect((await pages()[1].run(world.learner)).status).toBe(200);
  });

  it("refuse an unknown intent with 400", async () => {
    const outcome = await act(world, lessonId, { intent: "delete-everything" }, world.learner);
    expect(outcome.status).toBe(400);
    expect(outcome.data).toMatchObject({
      intent: "unknown",
      code: "unknown_intent",
      result: { status: "error", error: { "": ["Ação inválida."] } },
    });
  });
});

describe("/courses", () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });

  it("returns the active courses banner and the modules by order_index with counts, minutes and progress", async () => {
    const outcome = await loadCatalogue(world, world.learner);
    expect(outcome.status).toBe(200);
    const { banner, modules: cards, isAdmin } = outcome.data;
    expect(isAdmin).toBe(false);
    expect(banner).toEqual({
      title: "Teacher FLIX",
      subtitle: "Aulas curtas para aprender inglês de verdade || No seu ritmo, em qualquer lugar",
      backgroundImageUrl: null,
      backgroundGradient: expect.stringMatching(/^linear-gradient/),
    });
    expect(cards.map((m) => [m.orderIndex, m.lessonCount, m.totalSeconds, m.available, m.progress])).toEqual([
      [0, 2, 600, true, 0],
      [1, 3, 1440, true, 0],
      [2, 2, 1080, false, 0],
    ]);
  });

  it("shows the viewer's own progress only", async () => {
    const other = await newLearner(world.db);
    const [first] = world.modules;
    await act(world, first!.lessons[0]!, { intent: "complete" }, other);
    const mine = (await loadCatalogue(world, other)).data.modules[0]!;
    expect([mine.completedCount, mine.progress]).toEqual([1, 50]);
    const theirs = (await loadCatalogue(world, world.learner)).data.modules[0]!;
    expect([theirs.completedCount, theirs.progress]).toEqual([0, 0]);
    await act(world, first!.lessons[1]!, { intent: "complete" }, other);
    expect((await loadCatalogue(world, other)).data.modules[0]!.progress).toBe(100);
  });

  it("has no banner when none is active (the page falls back to 'Cursos em Vídeo')", async () => {
    await world.db.update(siteBanners).set({ isActive: false });
    try {
      expect((await loadCatalogue(world, world.learner)).data.banner).toBeNull();
    } finally {
      await world.db.update(siteBanners).set({ isActive: true });
    }
  });

  it("tells the page whether the viewer is an admin", async () => {
    expect((await loadCatalogue(world, world.admin)).data.isAdmin).toBe(true);
  });
});

describe("module page", () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });

  it("returns the module, its lessons by order_index with minutes, and '{done} de {total}'", async () => {
    const learner = await newLearner(world.db);
    const target = world.modules[1]!;
    // Reverse the stored order to prove the sort is by order_index, not insertion.
    await world.db.update(lessons).set({ orderIndex: 10 }).where(eq(lessons.id, target.lessons[0]!));
    await act(world, target.lessons[1]!, { intent: "complete" }, learner);
    const { status, data } = await loadModule(world, target.id, learner);
    expect(status).toBe(200);
    expect(data.page.module).toMatchObject({
      id: target.id,
      orderIndex: 1,
      title: "Primeiros Passos no Inglês",
      available: true,
      bannerTitle: null,
    });
    expect(data.page.lessons.map((l) => [l.id, l.completed])).toEqual([
      [target.lessons[1], true],
      [target.lessons[2], false],
      [target.lessons[0], false],
    ]);
    expect(data.page.lessons[0]!.durationSeconds).toBe(7 * 60);
    expect([data.page.done, data.page.total, data.page.progress]).toEqual([1, 3, 33]);
    await world.db.update(lessons).set({ orderIndex: 1 }).where(eq(lessons.id, target.lessons[0]!));
  });

  it("answers 404 'module' for a missing id, a malformed id, and — for learners — an unavailable module", async () => {
    expectNotFound(await loadModule(world, MISSING_ID, world.learner), "module");
    expectNotFound(await loadModule(world, "nao-e-um-uuid", world.learner), "module");
    expectNotFound(await loadModule(world, "1; drop table modules", world.learner), "module");
    const unavailable = world.modules[2]!;
    expectNotFound(await loadModule(world, unavailable.id, world.learner), "module");
    const asAdmin = await loadModule(world, unavailable.id, world.admin);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.data.page.module.available).toBe(false);
    expect(asAdmin.data.isAdmin).toBe(true);
  });
});

describe("lesson page", () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });

  it("returns the lesson, its module, the completion, the practice code and the comments", async () => {
    const [, second] = world.modules;
    const { status, data } = await loadLesson(world, second!.lessons[1]!, world.learner);
    expect(status).toBe(200);
    expect(data.page.lesson).toMatchObject({ title: "Apresentando-se: My name is...", orderIndex: 2, durationSeconds: 420, materials: [] });
    expect(data.page.lesson.videoUrl).toMatch(/^https:\/\/www\.youtube\.com/);
    expect(data.page.module).toEqual({ id: second!.id, title: "Primeiros Passos no Inglês", orderIndex: 1, available: true });
    expect(data.page.completed).toBe(false);
    expect(data.page.practiceCode).toBe("M01A02");
    expect(data.comments).toEqual({ threads: [], count: 0 });
    // The page's dates are written by the server: the browser builds no Intl formatter while it hydrates.
    expect(data).not.toHaveProperty("now");
  });

  it("offers 'Praticar com a Nika' only in modules with order_index ≥ 1", async () => {
    const [first] = world.modules;
    expect((await loadLesson(world, first!.lessons[0]!, world.learner)).data.page.practiceCode).toBeNull();
  });

  it("answers 404 'lesson' for a missing, a malformed or (for learners) an unavailable lesson", async () => {
    expectNotFound(await loadLesson(world, MISSING_ID, world.learner), "lesson");
    expectNotFound(await loadLesson(world, "xyz", world.learner), "lesson");
    const hidden = world.modules[2]!.lessons[0]!;
    expectNotFound(await loadLesson(world, hidden, world.learner), "lesson");
    expect((await loadLesson(world, hidden, world.admin)).status).toBe(200);
  });
});

describe("next lesson", () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });
  const next = async (lessonId: string, account: Account) => (await loadLesson(world, lessonId, account)).data.page.nextLessonId;

  it("is the next lesson of the same module by order_index", async () => {
    const [first, second] = world.modules;
    expect(await next(first!.lessons[0]!, world.learner)).toBe(first!.lessons[1]);
    expect(await next(second!.lessons[0]!, world.learner)).toBe(second!.lessons[1]);
  });

  it("else the first lesson (by order_index) of the next module by order_index", async () => {
    const [first, second] = world.modules;
    await world.db.update(lessons).set({ orderIndex: 0 }).where(eq(lessons.id, second!.lessons[2]!));
    try {
      expect(await next(first!.lessons[1]!, world.learner)).toBe(second!.lessons[2]);
    } finally {
      await world.db.update(lessons).set({ orderIndex: 3 }).where(eq(lessons.id, second!.lessons[2]!));
    }
    expect(await next(first!.lessons[1]!, world.learner)).toBe(second!.lessons[0]);
  });

  it("skips modules without lessons, and — for learners — unavailable modules", async () => {
    const second = world.modules[1]!;
    const lastOfSecond = second.lessons[2]!;
    // The next module (order 2) is unavailable: learners have no next lesson; admins go on to it.
    expect(await next(lastOfSecond, world.learner)).toBeNull();
    expect(await next(lastOfSecond, world.admin)).toBe(world.modules[2]!.lessons[0]);
    const empty = await addModule(world.db, { title: "Vazio", orderIndex: 3, lessonCount: 0 });
    const later = await addModule(world.db, { title: "Depois", orderIndex: 4, lessonCount: 2 });
    expect(await next(lastOfSecond, world.learner)).toBe(later.lessons[0]);
    expect(empty.lessons).toEqual([]);
  });

  it("is disabled (null) after the very last lesson", async () => {
    const last = (await seededModules(world.db)).at(-1)!;
    expect(await next(last.lessons.at(-1)!, world.learner)).toBeNull();
    expect(await next(last.lessons.at(-1)!, world.admin)).toBeNull();
  });
});

describe("lesson completion and statistics", () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
    // A module without lessons never counts as completed.
    await addModule(world.db, { title: "Sem aulas", orderIndex: 9, lessonCount: 0 });
  });

  it("stores the progress row and adds 1 to lessons_watched, once — completing again changes nothing", async () => {
    const learner = await newLearner(world.db);
    const lessonId = world.modules[0]!.lessons[0]!;
    const first = await act(world, lessonId, { intent: "complete" }, learner);
    expect(first.status).toBe(302);
    expect(first.location).toBe(`/courses/lessons/${lessonId}`);
    expect(await toastOf(first)).toMatchObject({ type: "success", title: "Aula concluída!" });
    const [row] = await world.db
      .select()
      .from(userLessonProgress)
      .where(and(eq(userLessonProgress.userId, learner.id), eq(userLessonProgress.lessonId, lessonId)));
    expect(row).toMatchObject({ completed: true });
    expect(row!.completedAt).toBeInstanceOf(Date);
    expect(await statisticsOf(world.db, learner.id)).toEqual({ lessonsWatched: 1, modulesCompleted: 0, courseCompletion: 0 });

    const again = await act(world, lessonId, { intent: "complete" }, learner);
    expect(again.status).toBe(302);
    const twice = await Promise.all([
      act(world, lessonId, { intent: "complete" }, learner),
      act(world, lessonId, { intent: "complete" }, learner),
    ]);
    expect(twice.map((o) => o.status)).toEqual([302, 302]);
    expect(await statisticsOf(world.db, learner.id)).toEqual({ lessonsWatched: 1, modulesCompleted: 0, courseCompletion: 0 });
    const rows = await world.db.select().from(userLessonProgress).where(eq(userLessonProgress.userId, learner.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.completedAt!.getTime()).toBe(row!.completedAt!.getTime());

    const page = (await loadLesson(world, lessonId, learner)).data.page;
    expect(page.completed).toBe(true);
  });

  it("recomputes modules_completed and course_completion when a module becomes fully complete", async () => {
    const learner = await newLearner(world.db);
    const [m0, m1] = world.modules; // 2 + 3 lessons available; module 2 (2 lessons) is unavailable: 7 lessons in all
    const complete = (id: string) => act(world, id, { intent: "complete" }, learner);

    await complete(m0!.lessons[0]!);
    expect(await statisticsOf(world.db, learner.id)).toEqual({ lessonsWatched: 1, modulesCompleted: 0, courseCompletion: 0 });
    await complete(m0!.lessons[1]!); // module 0 complete: 2 of 7 lessons → 29 %
    expect(await statisticsOf(world.db, learner.id)).toEqual({ lessonsWatched: 2, modulesCompleted: 1, courseCompletion: 29 });
    await complete(m1!.lessons[0]!); // not a module completion: statistics other than lessons_watched stay
    expect(await statisticsOf(world.db, learner.id)).toEqual({ lessonsWatched: 3, modulesCompleted: 1, courseCompletion: 29 });
    await complete(m1!.lessons[2]!);
    await complete(m1!.lessons[1]!); // module 1 complete: 5 of 7 → 71 %
    expect(await statisticsOf(world.db, learner.id)).toEqual({ lessonsWatched: 5, modulesCompleted: 2, courseCompletion: 71 });
    await complete(m1!.lessons[1]!); // again: nothing changes
    expect(await statisticsOf(world.db, learner.id)).toEqual({ lessonsWatched: 5, modulesCompleted: 2, courseCompletion: 71 });

    const modulePage = (await loadModule(world, m1!.id, learner)).data.page;
    expect([modulePage.done, modulePage.total, modulePage.progress]).toEqual([3, 3, 100]);
  });

  it("reaches 100 % and counts every completed module (an admin may complete unavailable lessons)", async () => {
    const admin = await newLearner(world.db, "Outra Admin", true);
    for (const m of world.modules) for (const id of m.lessons) await act(world, id, { intent: "complete" }, admin);
    expect(await statisticsOf(world.db, admin.id)).toEqual({ lessonsWatched: 7, modulesCompleted: 3, courseCompletion: 100 });
  });

  it("answers 404 for a missing or — for learners — unavailable lesson, storing nothing", async () => {
    const learner = await newLearner(world.db);
    expectNotFound(await act(world, MISSING_ID, { intent: "complete" }, learner), "lesson");
    expectNotFound(await act(world, "nope", { intent: "complete" }, learner), "lesson");
    expectNotFound(await act(world, world.modules[2]!.lessons[0]!, { intent: "complete" }, learner), "lesson");
    expect(await world.db.select().from(userLessonProgress).where(eq(userLessonProgress.userId, learner.id))).toHaveLength(0);
    expect(await statisticsOf(world.db, learner.id)).toEqual({ lessonsWatched: 0, modulesCompleted: 0, courseCompletion: 0 });
  });

  it("reports the spec's failure message when the database fails, and stores nothing", async () => {
    const learner = await newLearner(world.db);
    const lessonId = world.modules[0]!.lessons[0]!;
    const failing = new Proxy(world.db, {
      get(target, property, receiver) {
        if (property === "transaction") return () => Promise.reject(new Error("connection lost"));
        return Reflect.get(target, property, receiver);
      },
    });
    const context = contextFor(failing);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...values: unknown[]) => void errors.push(values);
    const outcome = await call(() =>
      lessonRoute.action(
        args(request(`/courses/lessons/${lessonId}`, { form: { intent: "complete" }, jar: learner.jar }), context, { lessonId }),
      ),
    ).finally(() => (console.error = original));
    expect(outcome.status).toBe(500);
    expect(outcome.data).toEqual({
      intent: "complete",
      code: "completion_failed",
      result: {
        status: "error",
        initialValue: { intent: "complete" },
        error: { "": ["Erro: Não foi possível marcar a aula como concluída."] },
        fields: ["intent"],
      },
    });
    expect(errors).toHaveLength(1);
    expect(await statisticsOf(world.db, learner.id)).toEqual({ lessonsWatched: 0, modulesCompleted: 0, courseCompletion: 0 });
  });
});

describe("comments", () => {
  let world: World;
  let lessonId: string;
  let otherLessonId: string;
  beforeAll(async () => {
    world = await createWorld();
    lessonId = world.modules[1]!.lessons[0]!;
    otherLessonId = world.modules[1]!.lessons[1]!;
  });
  const comments = async (account: Account, id = lessonId) => (await loadLesson(world, id, account)).data.comments;
  const stored = () => world.db.select().from(lessonComments).where(eq(lessonComments.lessonId, lessonId));

  it("start empty", async () => {
    expect(await comments(world.learner)).toEqual({ threads: [], count: 0 });
  });

  it("are stored trimmed, as typed, with the spec's success toast and a redirect back to the comment", async () => {
    const typed = "  <script>alert('oi')</script> & <b>negrito</b>\n  segunda linha  ";
    const outcome = await act(world, lessonId, { intent: "comment", content: typed }, world.learner);
    expect(outcome.status).toBe(302);
    const [row] = await stored();
    expect(row!.content).toBe("<script>alert('oi')</script> & <b>negrito</b>\n  segunda linha");
    expect(row!.parentId).toBeNull();
    expect(outcome.location).toBe(`/courses/lessons/${lessonId}?tab=comentarios#comentario-${row!.id}`);
    expect(await toastOf(outcome)).toEqual({
      type: "success",
      title: "Comentário adicionado!",
      description: "Seu comentário foi publicado com sucesso.",
    });
    const view = await comments(world.learner);
    expect(view.count).toBe(1);
    expect(view.threads[0]).toMatchObject({ content: row!.content, authorLabel: "Você", isOwn: true, authorIsAdmin: false, replies: [] });
  });

  it("label authors Admin / Você / name / Usuário, ascending by created_at", async () => {
    const ana = await newLearner(world.db, "Ana Clara");
    const nameless = await newLearner(world.db, "   ");
    const base = Date.now() - 60 * 60_000;
    const at = (minutes: number) => new Date(base + minutes * 60_000);
    // Inserted out of order on purpose.
    await world.db.insert(lessonComments).values([
      { lessonId: otherLessonId, userId: nameless.id, content: "terceiro", createdAt: at(3) },
      { lessonId: otherLessonId, userId: ana.id, content: "primeiro", createdAt: at(1) },
      { lessonId: otherLessonId, userId: world.admin.id, content: "segundo", createdAt: at(2) },
    ]);
    const asAna = await comments(ana, otherLessonId);
    expect(asAna.threads.map((t) => [t.content, t.authorLabel])).toEqual([
      ["primeiro", "Você"],
      ["segundo", "Admin"],
      ["terceiro", "Usuário"],
    ]);
    expect(asAna.threads[1]!.authorIsAdmin).toBe(true);
    const asLearner = await comments(world.learner, otherLessonId);
    expect(asLearner.threads.map((t) => t.authorLabel)).toEqual(["Ana Clara", "Admin", "Usuário"]);
    // An admin's own comment reads "Admin", not "Você".
    expect((await comments(world.admin, otherLessonId)).threads[1]!.authorLabel).toBe("Admin");
  });

  it("refuse empty, whitespace-only and too long comments with 400 and a pt-BR message, storing nothing", async () => {
    const before = (await stored()).length;
    for (const content of ["", "   \n\t  "]) {
      const outcome = await act(world, lessonId, { intent: "comment", content }, world.learner);
      expect(outcome.status).toBe(400);
      // The new-comment form's reply (no parentId): what was typed, the message as the content's error.
      expect(outcome.data).toEqual(
        commentRefusal(
          "invalid_content",
          { intent: "comment", content: content || undefined },
          { content: ["O comentário não pode ficar vazio."] },
        ),
      );
    }
    const missing = await act(world, lessonId, { intent: "comment" }, world.learner);
    expect(missing.status).toBe(400);
    expect(missing.data).toEqual(commentRefusal("invalid_content", { intent: "comment" }, { content: ["O comentário não pode ficar vazio."] }));
    const long = await act(world, lessonId, { intent: "comment", content: "a".repeat(5001) }, world.learner);
    expect(long.status).toBe(400);
    expect(long.data).toMatchObject({
      code: "invalid_content",
      result: { error: { content: ["O comentário pode ter no máximo 5000 caracteres."] } },
    });
    expect(await stored()).toHaveLength(before);
    const exactly = await act(world, lessonId, { intent: "comment", content: ` ${"b".repeat(5000)} ` }, world.learner);
    expect(exactly.status).toBe(302);
    expect(await stored()).toHaveLength(before + 1);
  });

  it("answer 404 for a missing, malformed or (for learners) unavailable lesson", async () => {
    const total = (await world.db.select().from(lessonComments)).length;
    expectNotFound(await act(world, MISSING_ID, { intent: "comment", content: "Oi" }, world.learner), "lesson");
    expectNotFound(await act(world, "abc", { intent: "comment", content: "Oi" }, world.learner), "lesson");
    expectNotFound(await act(world, world.modules[2]!.lessons[0]!, { intent: "comment", content: "Oi" }, world.learner), "lesson");
    expect(await world.db.select().from(lessonComments)).toHaveLength(total);
  });

  it("let only admins reply (403 otherwise), one level deep, to top-level comments of the same lesson", async () => {
    const [top] = await stored();
    const before = (await world.db.select().from(lessonComments)).length;

    await expectCommentRefused(world, lessonId, { intent: "comment", content: "Eu respondo", parentId: top!.id }, world.learner, {
      status: 403,
      code: "admin_only",
      error: { "": ["Apenas administradores podem responder comentários."] },
    });

    const reply = await act(world, lessonId, { intent: "comment", content: "  Ótima pergunta!  ", parentId: top!.id }, world.admin);
    expect(reply.status).toBe(302);
    const [replyRow] = await world.db.select().from(lessonComments).where(eq(lessonComments.parentId, top!.id));
    expect(replyRow).toMatchObject({ content: "Ótima pergunta!", parentId: top!.id, lessonId });
    expect(reply.location).toBe(`/courses/lessons/${lessonId}?tab=comentarios#comentario-${replyRow!.id}`);

    await expectCommentRefused(world, lessonId, { intent: "comment", content: "Resposta da resposta", parentId: replyRow!.id }, world.admin, {
      status: 400,
      code: "invalid_parent",
      error: { "": ["Só é possível responder a comentários principais desta aula."] },
    });

    const [elsewhere] = await world.db.select().from(lessonComments).where(eq(lessonComments.lessonId, otherLessonId));
    const crossLesson = await act(world, lessonId, { intent: "comment", content: "Outra aula", parentId: elsewhere!.id }, world.admin);
    expect(crossLesson.status).toBe(400);
    const malformed = await act(world, lessonId, { intent: "comment", content: "Oi", parentId: "xyz" }, world.admin);
    expect(malformed.status).toBe(400);
    const missingParent = await act(world, lessonId, { intent: "comment", content: "Oi", parentId: MISSING_ID }, world.admin);
    expect(missingParent.status).toBe(400);
    expect(await world.db.select().from(lessonComments)).toHaveLength(before + 1);

    const view = await comments(world.learner);
    expect(view.count).toBe(view.threads.length + 1);
    const thread = view.threads.find((t) => t.id === top!.id)!;
    expect(thread.replies).toEqual([
      expect.objectContaining({ id: replyRow!.id, content: "Ótima pergunta!", authorLabel: "Admin", authorIsAdmin: true }),
    ]);
    expect(view.threads.some((t) => t.id === replyRow!.id)).toBe(false);
  });
});

describe("query counts (30 modules × 20 lessons)", () => {
  let world: World;
  let moduleId: string;
  let lessonId: string;
  const measure = async () => {
    const catalogue = await loadPage(
      world,
      "/courses",
      [root.loader, appLayout.loader, coursesLayout.loader, cataloguePage.loader],
      world.learner,
    );
    const modulePage = await loadPage(
      world,
      `/courses/modules/${moduleId}`,
      [root.loader, appLayout.loader, coursesLayout.loader, moduleRoute.loader],
      world.learner,
      { moduleId },
    );
    const lessonPage = await loadPage(
      world,
      `/courses/lessons/${lessonId}`,
      [root.loader, appLayout.loader, coursesLayout.loader, lessonRoute.loader],
      world.learner,
      { lessonId },
    );
    for (const page of [catalogue, modulePage, lessonPage]) expect(page.results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    return { catalogue, modulePage, lessonPage };
  };

  beforeAll(async () => {
    world = await createWorld();
    moduleId = world.modules[1]!.id;
    lessonId = world.modules[1]!.lessons[0]!;
  });

  it("stay fixed: session + flags + 1 per page, however many modules, lessons, completions and comments", async () => {
    const small = await measure();
    expect(small.catalogue.queries).toBe(3);
    expect(small.modulePage.queries).toBe(3);
    expect(small.lessonPage.queries).toBe(3);

    const big: SeededModule[] = [];
    for (let index = 0; index < 30; index++)
      big.push(await addModule(world.db, { title: `Módulo ${index + 10}`, orderIndex: index + 10, lessonCount: 20 }));
    moduleId = big[5]!.id;
    lessonId = big[5]!.lessons[3]!;
    for (const id of big[5]!.lessons.slice(0, 10)) await act(world, id, { intent: "complete" }, world.learner);
    for (let index = 0; index < 15; index++) await act(world, lessonId, { intent: "comment", content: `Comentário ${index}` }, world.learner);

    const large = await measure();
    expect((large.catalogue.results[3]!.data as CatalogueData).modules).toHaveLength(33);
    expect((large.modulePage.results[3]!.data as ModuleData).page.lessons).toHaveLength(20);
    expect((large.lessonPage.results[3]!.data as LessonData).comments.count).toBe(15);
    expect(large.catalogue.queries).toBe(3);
    expect(large.modulePage.queries).toBe(3);
    expect(large.lessonPage.queries).toBe(3);
  });
});
