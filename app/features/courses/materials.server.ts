// Lesson materials: upload (streamed to R2, then one atomic jsonb append), removal (one atomic jsonb
// removal, then the object) and download (the stored object as an attachment).
import { eq, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { errorMessage } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { rowsOf, type DbOrTx } from "~/server/db.server";
import {
  BODY_MESSAGES,
  BodyTooLargeError,
  FORM_OVERHEAD_BYTES,
  readMultipart,
  refusalMessage,
  UnreadableBodyError,
} from "~/server/request.server";
import {
  deleteQuietly,
  keyFromPublicUrl,
  MATERIAL_MAX_BYTES,
  materialKey,
  mediaBucket,
  publicPath,
  StreamingObjectWriter,
  TooLargeError,
} from "~/server/storage.server";
import { formatFileSize, materialContentType, materialTitle, materialType } from "./material-files";
import { lessons, type DownloadableMaterial } from "./tables";

export type LessonMaterials = Pick<typeof lessons.$inferSelect, "id" | "title" | "moduleId"> & { materials: DownloadableMaterial[] };

export async function findLessonMaterials(db: DbOrTx, lessonId: string): Promise<LessonMaterials | null> {
  if (!isUuid(lessonId)) return null;
  const [row] = await db
    .select({ id: lessons.id, title: lessons.title, moduleId: lessons.moduleId, materials: lessons.downloadableMaterials })
    .from(lessons)
    .where(eq(lessons.id, lessonId));
  return row ?? null;
}

/** Appends one item in one statement (no read-modify-write); false when the lesson is gone. */
export async function appendMaterial(db: DbOrTx, lessonId: string, item: DownloadableMaterial): Promise<boolean> {
  const result = await db.execute(sql`
    update lessons
       set downloadable_materials = downloadable_materials || jsonb_build_array(${JSON.stringify(item)}::jsonb),
           updated_at = now()
     where id = ${lessonId}
 returning id`);
  return rowsOf(result).length === 1;
}

/** Removes the items with this URL in one statement; false when there was none. */
export async function removeMaterialEntry(db: DbOrTx, lessonId: string, url: string): Promise<boolean> {
  const result = await db.execute(sql`
    update lessons
       set downloadable_materials = coalesce(
             (select jsonb_agg(item order by position)
                from jsonb_array_elements(downloadable_materials) with ordinality as t(item, position)
               where item->>'url' is distinct from ${url}),
             '[]'::jsonb),
           updated_at = now()
     where id = ${lessonId}
       and downloadable_materials @> jsonb_build_array(jsonb_build_object('url', ${url}::text))
 returning id`);
  return rowsOf(result).length === 1;
}

export type UploadOutcome =
  | { status: "ok"; item: DownloadableMaterial }
  | { status: "not_found" }
  | { status: "no_file" }
  | { status: "too_large" }
  | { status: "unreadable"; message: string }
  | { status: "storage_failed"; message: string }
  | { status: "save_failed"; message: string };

/**
 * One material from a multipart form (field `file`): refused by Content-Length before reading when it
 * declares more than 50 MB, streamed to R2 while counting bytes (over 50 MB: aborted, nothing stored),
 * then appended to the lesson's list; when that fails the stored object is deleted again.
 */
export async function uploadMaterial(context: AppLoadContext, request: Request, lessonId: string, now = new Date()): Promise<UploadOutcome> {
  const lesson = await findLessonMaterials(context.db, lessonId);
  if (!lesson) return { status: "not_found" };
  const bucket = mediaBucket(context);

  let stored: { key: string; name: string; size: number } | null = null;
  try {
    await readMultipart(request, MATERIAL_MAX_BYTES + FORM_OVERHEAD_BYTES, async (part) => {
      if (part.name !== "file" || stored || !part.filename) return undefined;
      const name = part.filename;
      const writer = new StreamingObjectWriter(bucket, materialKey(lessonId, name, now.getTime()), {
        contentType: materialContentType(name, part.contentType),
        originalName: name,
        maxBytes: MATERIAL_MAX_BYTES,
      });
      try {
        for await (const chunk of part.data) await writer.write(chunk);
        if (writer.size === 0) {
          await writer.abort();
          return undefined;
        }
        const size = await writer.finish();
        stored = { key: writer.key, name, size };
      } catch (error) {
        await writer.abort();
        throw error;
      }
      return undefined;
    });
  } catch (error) {
    if (stored) await deleteQuietly(bucket, [(stored as { key: string }).key]);
    // The body helper refuses by status: too large (413) keeps the drawer's message; 415 is not a form.
    if (error instanceof Response && error.status === 413) return { status: "too_large" };
    if (error instanceof Response && error.status === 400) {
      // A field sent twice or a control character says so; any other broken body gets the drawer's own message.
      const message = await refusalMessage(error);
      const own = message === BODY_MESSAGES.duplicatedField || message === BODY_MESSAGES.controlCharacter;
      return { status: "unreadable", message: own ? message : "Não foi possível ler o arquivo enviado." };
    }
    if (error instanceof Response) throw error;
    if (error instanceof TooLargeError || error instanceof BodyTooLargeError) return { status: "too_large" };
    if (error instanceof UnreadableBodyError || error instanceof TypeError) {
      return { status: "unreadable", message: "Não foi possível ler o arquivo enviado." };
    }
    console.error("materials: upload failed", error);
    return { status: "storage_failed", message: errorMessage(error) };
  }
  if (!stored) return { status: "no_file" };
  const file = stored as { key: string; name: string; size: number };

  const item: DownloadableMaterial = {
    title: materialTitle(file.name),
    type: materialType(file.name),
    size: formatFileSize(file.size),
    url: publicPath(file.key),
    uploadedAt: now.toISOString(),
  };
  try {
    if (!(await appendMaterial(context.db, lessonId, item))) throw new Error("Aula não encontrada");
  } catch (error) {
    await deleteQuietly(bucket, [file.key]);
    return { status: "save_failed", message: errorMessage(error) };
  }
  return { status: "ok", item };
}

export type RemoveOutcome = { status: "ok" } | { status: "not_found" } | { status: "invalid_url" } | { status: "failed"; message: string };

/**
 * Removes one material: the entry (atomic) and then its object. The entry goes first so the list never
 * points at a deleted file; an object whose deletion fails is only an orphan in storage (logged).
 */
export async function removeMaterial(context: AppLoadContext, lessonId: string, url: string): Promise<RemoveOutcome> {
  const key = keyFromPublicUrl(url, context.cloudflare.env.APP_URL);
  if (!key || !key.startsWith(`lesson-materials/${lessonId}/`)) return { status: "invalid_url" };
  try {
    if (!(await removeMaterialEntry(context.db, lessonId, url))) return { status: "not_found" };
  } catch (error) {
    return { status: "failed", message: errorMessage(error) };
  }
  await deleteQuietly(mediaBucket(context), [key]);
  return { status: "ok" };
}

/** The material of a lesson by its stored file name, opened for download. */
/** The storage key of one of the lesson's materials (by its file id), or null. */
export async function findMaterialKey(context: AppLoadContext, lessonId: string, fileId: string): Promise<string | null> {
  const lesson = await findLessonMaterials(context.db, lessonId);
  const key = `lesson-materials/${lessonId}/${fileId}`;
  const found = lesson?.materials.some((m) => keyFromPublicUrl(m.url, context.cloudflare.env.APP_URL) === key);
  return found ? key : null;
}
