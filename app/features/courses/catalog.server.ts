// Course reads for learners (catalogue, module page, lesson page) and lesson completion with the
// user statistics of spec §4. Every page reads with a fixed number of queries, however many modules
// and lessons exist: aggregates are computed by Postgres (joins + group by), never per row in JS.
import type { Submission, SubmissionResult } from "@conform-to/react";
import { and, asc, eq, sql } from "drizzle-orm";
import { data, type AppLoadContext } from "react-router";
import { isUuid } from "~/lib/ids";
import { recordActivitySafely } from "~/server/activity.server";
import { forgetUserSessions } from "~/server/auth.server";
import { jsonValue, rowsOf, type DbOrTx } from "~/server/db.server";
import { notFound } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";
import { lessonCommentsJson, threadComments, type CommentRow, type LessonComments } from "./comment-threads.server";
import { practiceLessonCode, progressPercent } from "./format";
import { withUploadLabels, type MaterialView } from "./material-files";
import { lessons, modules, siteBanners, userLessonProgress } from "./tables";
import { COURSE_NOT_FOUND_CODES, type CourseNotFoundKind } from "./ui/NotFound";

export type Viewer = { id: string; isAdmin: boolean };

// ——— not found ———

/** A 404 the course routes' error boundaries render as "Módulo não encontrado" / "Aula não encontrada". */
export function courseNotFound(kind: CourseNotFoundKind) {
  return notFound(kind === "module" ? "Módulo não encontrado" : "Aula não encontrada", COURSE_NOT_FOUND_CODES[kind]);
}

/** Learners only see available modules; admins see every module (to preview and edit). */
const visibleTo = (viewer: Viewer, available: "yes" | "no") => available === "yes" || viewer.isAdmin;

// ——— catalogue (/courses) ———

/** Pictures of the modules a learner sees in the catalogue, in its order (spec §9: warmed after sign-in). */
export async function moduleImageUrls(db: DbOrTx, limit = 40): Promise<string[]> {
  const rows = await db
    .select({ imageUrl: modules.imageUrl })
    .from(modules)
    .where(and(eq(modules.available, "yes"), sql`${modules.imageUrl} is not null and ${modules.imageUrl} <> ''`))
    .orderBy(asc(modules.orderIndex), asc(modules.id))
    .limit(limit);
  return rows.map((row) => row.imageUrl!);
}

type ModuleRow = typeof modules.$inferSelect;
type LessonRow = typeof lessons.$inferSelect;

export type HeroBanner = Pick<typeof siteBanners.$inferSelect, "title" | "subtitle" | "backgroundImageUrl" | "backgroundGradient">;

export type ModuleCard = Pick<ModuleRow, "id" | "title" | "description" | "orderIndex" | "imageUrl"> & {
  available: boolean;
  lessonCount: number;
  totalSeconds: number;
  completedCount: number;
  progress: number;
};

export type Catalogue = { banner: HeroBanner | null; modules: ModuleCard[] };

/** A module's columns as the edit form reads them (the catalogue and module page select the same ones in their single statements). */
export const moduleColumns = {
  id: modules.id,
  title: modules.title,
  description: modules.description,
  orderIndex: modules.orderIndex,
  available: modules.available,
};
/** The module banner's columns, as the module form edits them. */
export const moduleBannerColumns = {
  bannerUrl: modules.bannerUrl,
  bannerTitle: modules.bannerTitle,
  bannerSubtitle: modules.bannerSubtitle,
};

/**
 * /courses: the active courses banner and every module with its lesson count, minutes and the viewer's progress, in
 * ONE statement (a page's statements each cost a round trip: decision 0019).
 */
export async function loadCatalogue(db: DbOrTx, viewer: Viewer): Promise<Catalogue> {
  const result = await db.execute(sql`
    select
      (select row_to_json(b) from (
        select title, subtitle, background_image_url as "backgroundImageUrl", background_gradient as "backgroundGradient"
        from site_banners where section = 'courses' and is_active
        order by updated_at desc, id desc limit 1) b) as banner,
      coalesce((select json_agg(m order by m."orderIndex", m.id) from (
        select m.id, m.title, m.description, m.order_index as "orderIndex", m.available, m.image_url as "imageUrl",
          count(l.id)::int as "lessonCount", coalesce(sum(l.duration_seconds), 0)::int as "totalSeconds",
          count(p.id)::int as "completedCount"
        from modules m
        left join lessons l on l.module_id = m.id
        left join user_lesson_progress p on p.lesson_id = l.id and p.user_id = ${viewer.id} and p.completed
        group by m.id) m), '[]'::json) as modules`);
  const row = rowsOf(result)[0]!;
  type ModuleRowJson = Omit<ModuleCard, "available" | "progress"> & { available: ModuleRow["available"] };
  return {
    banner: jsonValue<HeroBanner | null>(row.banner),
    modules: jsonValue<ModuleRowJson[]>(row.modules).map((module) => ({
      ...module,
      available: module.available === "yes",
      progress: progressPercent(module.completedCount, module.lessonCount),
    })),
  };
}

// ——— module page (/courses/modules/{id}) ———

export type ModuleLesson = Pick<LessonRow, "id" | "title" | "description" | "thumbnailUrl" | "durationSeconds" | "orderIndex"> & {
  completed: boolean;
};

export type ModulePage = {
  module: Pick<ModuleRow, "id" | "title" | "description" | "orderIndex" | "bannerUrl" | "bannerTitle" | "bannerSubtitle"> & {
    available: boolean;
  };
  lessons: ModuleLesson[];
  done: number;
  total: number;
  progress: number;
};

/** The module with its lessons (by order_index) and the viewer's completion of each, in one statement; null when not visible. */
export async function loadModulePage(db: DbOrTx, viewer: Viewer, moduleId: string | undefined): Promise<ModulePage | null> {
  if (!isUuid(moduleId)) return null;
  const result = await db.execute(sql`
    select
      (select row_to_json(m) from (
        select id, title, description, order_index as "orderIndex", available,
          banner_url as "bannerUrl", banner_title as "bannerTitle", banner_subtitle as "bannerSubtitle"
        from modules where id = ${moduleId}) m) as module,
      coalesce((select json_agg(l order by l."orderIndex", l.id) from (
        select l.id, l.title, l.description, l.thumbnail_url as "thumbnailUrl", l.duration_seconds as "durationSeconds",
          l.order_index as "orderIndex", coalesce(p.completed, false) as completed
        from lessons l
        left join user_lesson_progress p on p.lesson_id = l.id and p.user_id = ${viewer.id}
        where l.module_id = ${moduleId}) l), '[]'::json) as lessons`);
  const row = rowsOf(result)[0]!;
  const module = jsonValue<(Omit<ModulePage["module"], "available"> & Pick<ModuleRow, "available">) | null>(row.module);
  if (!module || !visibleTo(viewer, module.available)) return null;
  const lessonList = jsonValue<ModuleLesson[]>(row.lessons);
  const done = lessonList.filter((lesson) => lesson.completed).length;
  return {
    module: { ...module, available: module.available === "yes" },
    lessons: lessonList,
    done,
    total: lessonList.length,
    progress: progressPercent(done, lessonList.length),
  };
}

// ——— lesson page (/courses/lessons/{id}) ———

export type LessonPage = {
  lesson: Pick<LessonRow, "id" | "title" | "description" | "videoUrl" | "iframe" | "thumbnailUrl" | "durationSeconds" | "orderIndex"> & {
    materials: MaterialView[];
  };
  module: Pick<ModuleRow, "id" | "title" | "orderIndex"> & { available: boolean };
  completed: boolean;
  /** Next lesson: same module by order_index, else the first lesson of the next module; null = none. */
  nextLessonId: string | null;
  /** M{module}A{lesson} for "Praticar com a Nika"; null for modules with order_index below 1. */
  practiceCode: string | null;
};

/**
 * SQL for the next lesson after the lesson row of the outer query: the next one in its module by
 * (order_index, id), else the first lesson of the next module by (order_index, id) that has lessons
 * and that the viewer may open.
 */
function nextLessonSql(viewer: Viewer) {
  return sql<string | null>`coalesce(
    (select l2.id from lessons l2
      where l2.module_id = ${lessons.moduleId} and (l2.order_index, l2.id) > (${lessons.orderIndex}, ${lessons.id})
      order by l2.order_index, l2.id limit 1),
    (select l3.id from lessons l3 join modules m3 on m3.id = l3.module_id
      where (m3.order_index, m3.id) > (${modules.orderIndex}, ${modules.id})
        and ${viewer.isAdmin ? sql`true` : sql`m3.available = 'yes'`}
      order by m3.order_index, m3.id, l3.order_index, l3.id limit 1)
  )`;
}

/** The columns of a lesson that its page and its edit form show (LessonPage["lesson"] without materials). */
export const lessonColumns = {
  id: lessons.id,
  title: lessons.title,
  description: lessons.description,
  videoUrl: lessons.videoUrl,
  iframe: lessons.iframe,
  thumbnailUrl: lessons.thumbnailUrl,
  durationSeconds: lessons.durationSeconds,
  orderIndex: lessons.orderIndex,
};

/** The lesson, its module, the viewer's completion, the next lesson and the comments in one statement; null when not visible. */
export async function loadLessonPage(
  db: DbOrTx,
  viewer: Viewer,
  lessonId: string | undefined,
): Promise<(LessonPage & { comments: LessonComments }) | null> {
  if (!isUuid(lessonId)) return null;
  const [row] = await db
    .select({
      ...lessonColumns,
      materials: lessons.downloadableMaterials,
      moduleId: modules.id,
      moduleTitle: modules.title,
      moduleOrder: modules.orderIndex,
      moduleAvailable: modules.available,
      completed: sql<boolean>`coalesce(${userLessonProgress.completed}, false)`,
      nextLessonId: nextLessonSql(viewer),
      comments: lessonCommentsJson(lessonId),
    })
    .from(lessons)
    .innerJoin(modules, eq(modules.id, lessons.moduleId))
    .leftJoin(userLessonProgress, and(eq(userLessonProgress.lessonId, lessons.id), eq(userLessonProgress.userId, viewer.id)))
    .where(eq(lessons.id, lessonId));
  if (!row || !visibleTo(viewer, row.moduleAvailable)) return null;
  const { materials, moduleId, moduleTitle, moduleOrder, moduleAvailable, completed, nextLessonId, comments, ...lesson } = row;
  return {
    comments: threadComments(jsonValue<CommentRow[]>(comments), viewer),
    lesson: { ...lesson, materials: withUploadLabels(Array.isArray(materials) ? materials : []) },
    module: { id: moduleId, title: moduleTitle, orderIndex: moduleOrder, available: moduleAvailable === "yes" },
    completed: completed === true,
    nextLessonId: nextLessonId ?? null,
    practiceCode: practiceLessonCode(moduleOrder, lesson.orderIndex),
  };
}

/** Whether the viewer may open (and so complete or comment on) this lesson. One query. */
export async function findVisibleLesson(db: DbOrTx, viewer: Viewer, lessonId: string | undefined) {
  if (!isUuid(lessonId)) return null;
  const [row] = await db
    .select({ id: lessons.id, moduleId: lessons.moduleId, available: modules.available })
    .from(lessons)
    .innerJoin(modules, eq(modules.id, lessons.moduleId))
    .where(eq(lessons.id, lessonId));
  return row && visibleTo(viewer, row.available) ? { id: row.id, moduleId: row.moduleId } : null;
}

// ——— completion and statistics ———

export type UserStatistics = { lessonsWatched: number; modulesCompleted: number; courseCompletion: number };

export type CompletionResult =
  { status: "not_found" } | { status: "already_completed" } | { status: "completed"; moduleCompleted: boolean; statistics: UserStatistics };

/**
 * Marks a lesson completed for the viewer, in one transaction:
 * 1. upsert the progress row — it changes only if the lesson was not completed yet, so completing
 *    again (or twice at once) changes nothing;
 * 2. on a first completion, add 1 to users.lessons_watched in SQL and, when this completion made the
 *    lesson's module fully complete, recompute modules_completed (modules with ≥ 1 lesson, all
 *    completed) and course_completion (rounded percent of all lessons completed, clamped 0–100).
 * Then, once committed, the first completion is the day's activity (the lesson is its ref: completing again is not).
 */
export async function completeLesson(db: DbOrTx, viewer: Viewer, lessonId: string | undefined, now = new Date()): Promise<CompletionResult> {
  if (!isUuid(lessonId)) return { status: "not_found" };
  const result = await db.transaction(async (tx) => {
    const lesson = await findVisibleLesson(tx, viewer, lessonId);
    if (!lesson) return { status: "not_found" } as const;

    const changed = await tx
      .insert(userLessonProgress)
      .values({ userId: viewer.id, lessonId: lesson.id, completed: true, completedAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [userLessonProgress.userId, userLessonProgress.lessonId],
        set: { completed: true, completedAt: now, updatedAt: now },
        setWhere: eq(userLessonProgress.completed, false),
      })
      .returning({ id: userLessonProgress.id });
    if (changed.length === 0) return { status: "already_completed" } as const;

    const result = await tx.execute(sql`
      with module_state as (
        select count(*) > 0 and count(*) = count(p.id) as complete
        from lessons l
        left join user_lesson_progress p on p.lesson_id = l.id and p.user_id = ${viewer.id} and p.completed
        where l.module_id = ${lesson.moduleId}
      ), totals as (
        select
          (select count(*) from modules m
            where exists (select 1 from lessons l where l.module_id = m.id)
              and not exists (
                select 1 from lessons l
                left join user_lesson_progress p on p.lesson_id = l.id and p.user_id = ${viewer.id} and p.completed
                where l.module_id = m.id and p.id is null)
          )::int as modules_completed,
          least(100, greatest(0, coalesce(round(100.0 *
            (select count(*) from user_lesson_progress p join lessons l on l.id = p.lesson_id
              where p.user_id = ${viewer.id} and p.completed)
            / nullif((select count(*) from lessons), 0)), 0)))::int as course_completion
        from module_state where module_state.complete
      )
      update users set
        lessons_watched = lessons_watched + 1,
        modules_completed = coalesce((select modules_completed from totals), users.modules_completed),
        course_completion = coalesce((select course_completion from totals), users.course_completion),
        updated_at = now()
      where id = ${viewer.id}
      returning lessons_watched, modules_completed, course_completion,
        (select complete from module_state) as module_completed`);
    const row = rowsOf(result)[0];
    if (!row) throw new Error("user not found while completing a lesson");
    return {
      status: "completed",
      moduleCompleted: row.module_completed === true,
      statistics: {
        lessonsWatched: Number(row.lessons_watched),
        modulesCompleted: Number(row.modules_completed),
        courseCompletion: Number(row.course_completion),
      },
    } as const;
  });
  if (result.status === "completed") {
    await recordActivitySafely(db, { userId: viewer.id, kind: "lesson_completed", ref: lessonId, at: now });
  }
  return result;
}

export const COMPLETION_ERROR = "Erro: Não foi possível marcar a aula como concluída.";

/** A conform submission of the lesson page's action: its reply is what the page's forms show. */
export type FormSubmission = Pick<Submission<unknown>, "reply">;

/** The lesson action's answer when the completion failed: the conform reply (the message as form error) and its code. */
export type CompleteActionData = { intent: "complete"; result: SubmissionResult<string[]>; code: "completion_failed" };

/**
 * Action body of intent=complete: PRG with a flash toast on success (also without JavaScript), 404
 * for a missing or unavailable lesson, the spec's failure message when the database fails.
 */
export async function handleCompleteAction(context: AppLoadContext, viewer: Viewer, lessonId: string | undefined, submission: FormSubmission) {
  let result: CompletionResult;
  try {
    result = await completeLesson(context.db, viewer, lessonId);
  } catch (error) {
    console.error("completeLesson failed", error);
    const reply = submission.reply({ formErrors: [COMPLETION_ERROR] });
    return data({ intent: "complete", result: reply, code: "completion_failed" } satisfies CompleteActionData, { status: 500 });
  }
  if (result.status === "not_found") throw courseNotFound("lesson");
  // A page load meanwhile (another tab) may have kept the learner's "Hoje" without this lesson (keptWithSession).
  forgetUserSessions(context, viewer.id);
  return redirectWithToast(context.cloudflare.env, `/courses/lessons/${lessonId}`, {
    type: "success",
    title: "Aula concluída!",
    description:
      result.status === "completed" && result.moduleCompleted
        ? "Parabéns, você concluiu todas as aulas deste módulo!"
        : "Seu progresso foi salvo.",
  });
}
