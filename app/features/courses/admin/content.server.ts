// Reads and writes of the admin forms: one module, one lesson, the courses banner. Updates return the
// image URLs before and after in the same statement, so replaced objects can be deleted.
import { and, desc, eq, ne, sql } from "drizzle-orm";
import { isUuid } from "~/lib/ids";
import { rowsOf, type Database, type DbOrTx } from "~/server/db.server";
import { lessonColumns, moduleBannerColumns, moduleColumns } from "../catalog.server";
import { lessons, modules, siteBanners } from "../tables";
import { orNull, type BannerInput, type LessonInput, type ModuleInput } from "./schemas";

export const COURSES_SECTION = "courses";

export async function findModuleForEdit(db: DbOrTx, moduleId: string) {
  if (!isUuid(moduleId)) return null;
  const [row] = await db
    .select({ ...moduleColumns, imageUrl: modules.imageUrl, ...moduleBannerColumns })
    .from(modules)
    .where(eq(modules.id, moduleId));
  return row ?? null;
}
export type ModuleForEdit = NonNullable<Awaited<ReturnType<typeof findModuleForEdit>>>;

type ImageChange = { old: (string | null)[]; current: (string | null)[] };

export async function updateModule(db: DbOrTx, moduleId: string, input: ModuleInput, urls: Record<string, string>): Promise<ImageChange | null> {
  const imageUrl = urls.image_url ?? orNull(input.image_url);
  const bannerUrl = urls.banner_url ?? orNull(input.banner_url);
  const result = await db.execute(sql`
    update modules as m
       set title = ${input.title},
           description = ${orNull(input.description)},
           image_url = ${imageUrl},
           banner_url = ${bannerUrl},
           banner_title = ${orNull(input.banner_title)},
           banner_subtitle = ${orNull(input.banner_subtitle)},
           available = ${input.available},
           order_index = ${input.order_index},
           updated_at = now()
      from (select id, image_url, banner_url from modules where id = ${moduleId} for update) as old
     where m.id = old.id
 returning old.image_url as "oldImage", old.banner_url as "oldBanner"`);
  const [row] = rowsOf<{ oldImage: string | null; oldBanner: string | null }>(result);
  return row ? { old: [row.oldImage, row.oldBanner], current: [imageUrl, bannerUrl] } : null;
}

export async function findLessonForEdit(db: DbOrTx, lessonId: string) {
  if (!isUuid(lessonId)) return null;
  const [row] = await db
    .select({ ...lessonColumns, moduleId: lessons.moduleId, moduleTitle: modules.title })
    .from(lessons)
    .innerJoin(modules, eq(modules.id, lessons.moduleId))
    .where(eq(lessons.id, lessonId));
  return row ?? null;
}
export type LessonForEdit = NonNullable<Awaited<ReturnType<typeof findLessonForEdit>>>;

export async function updateLesson(db: DbOrTx, lessonId: string, input: LessonInput, urls: Record<string, string>): Promise<ImageChange | null> {
  const thumbnailUrl = urls.thumbnail_url ?? orNull(input.thumbnail_url);
  const result = await db.execute(sql`
    update lessons as l
       set title = ${input.title},
           description = ${orNull(input.description)},
           video_url = ${orNull(input.video_url)},
           iframe = ${orNull(input.iframe)},
           thumbnail_url = ${thumbnailUrl},
           duration_seconds = ${input.duration_seconds},
           order_index = ${input.order_index},
           updated_at = now()
      from (select id, thumbnail_url from lessons where id = ${lessonId} for update) as old
     where l.id = old.id
 returning old.thumbnail_url as "oldThumbnail"`);
  const [row] = rowsOf<{ oldThumbnail: string | null }>(result);
  return row ? { old: [row.oldThumbnail], current: [thumbnailUrl] } : null;
}

const bannerColumns = {
  id: siteBanners.id,
  title: siteBanners.title,
  subtitle: siteBanners.subtitle,
  backgroundImageUrl: siteBanners.backgroundImageUrl,
  backgroundGradient: siteBanners.backgroundGradient,
  isActive: siteBanners.isActive,
};

/** The banner the editor edits: the active one of the section, else its most recent one. */
export async function findCoursesBanner(db: DbOrTx) {
  const [row] = await db
    .select(bannerColumns)
    .from(siteBanners)
    .where(eq(siteBanners.section, COURSES_SECTION))
    .orderBy(desc(siteBanners.isActive), desc(siteBanners.updatedAt), desc(siteBanners.id))
    .limit(1);
  return row ?? null;
}
export type BannerForEdit = NonNullable<Awaited<ReturnType<typeof findCoursesBanner>>>;

/**
 * Saves the courses banner (updating the edited row, or creating the first one) and keeps at most one
 * active banner in the section: activating this one deactivates the others, in the same transaction.
 */
export async function saveCoursesBanner(db: Database, input: BannerInput, urls: Record<string, string>): Promise<ImageChange> {
  const imageUrl = urls.background_image_url ?? orNull(input.background_image_url);
  const values = {
    title: orNull(input.title),
    subtitle: orNull(input.subtitle),
    backgroundImageUrl: imageUrl,
    backgroundGradient: orNull(input.background_gradient),
    isActive: input.is_active === true,
    updatedAt: new Date(),
  };
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ id: siteBanners.id, backgroundImageUrl: siteBanners.backgroundImageUrl })
      .from(siteBanners)
      .where(eq(siteBanners.section, COURSES_SECTION))
      .orderBy(desc(siteBanners.isActive), desc(siteBanners.updatedAt), desc(siteBanners.id))
      .limit(1)
      .for("update");
    let id: number;
    if (current) {
      await tx.update(siteBanners).set(values).where(eq(siteBanners.id, current.id));
      id = current.id;
    } else {
      const [created] = await tx
        .insert(siteBanners)
        .values({ section: COURSES_SECTION, ...values })
        .returning({ id: siteBanners.id });
      id = created!.id;
    }
    if (values.isActive) {
      await tx
        .update(siteBanners)
        .set({ isActive: false, updatedAt: new Date() })
        .where(and(eq(siteBanners.section, COURSES_SECTION), eq(siteBanners.isActive, true), ne(siteBanners.id, id)));
    }
    return { old: [current?.backgroundImageUrl ?? null], current: [imageUrl] };
  });
}
