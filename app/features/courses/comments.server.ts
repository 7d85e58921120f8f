// Lesson comments: the read on its own (comment-threads.server has its SQL, the threading and the labels of spec §6)
// and the comment / reply action (spec §4, §8). Content is stored as typed (trimmed) and always rendered as text.
import { and, eq, sql } from "drizzle-orm";
import { data, type AppLoadContext } from "react-router";
import { isUuid } from "~/lib/ids";
import { jsonValue, rowsOf, type DbOrTx } from "~/server/db.server";
import { redirectWithToast } from "~/server/toast.server";
import { courseNotFound, findVisibleLesson, type FormSubmission, type Viewer } from "./catalog.server";
import { COMMENT_MESSAGES, commentSchema, type CommentActionData, type CommentRefusal } from "./comment-form";
import { lessonCommentsJson, threadComments, type CommentRow, type LessonComments } from "./comment-threads.server";
import { COMMENT_MAX_LENGTH } from "./format";
import { publishLessonComment } from "./lesson-live.server";
import { lessonComments } from "./tables";

export { COMMENT_MAX_LENGTH, COMMENT_MESSAGES, commentSchema };
export { commentAuthorLabel, type CommentThread, type CommentView, type LessonComments } from "./comment-threads.server";

/** Comments of a lesson, ascending by created_at, replies under their top-level comment (1 query). */
export async function loadLessonComments(db: DbOrTx, viewer: Viewer, lessonId: string): Promise<LessonComments> {
  if (!isUuid(lessonId)) return { threads: [], count: 0 };
  const row = rowsOf(await db.execute(sql`select ${lessonCommentsJson(lessonId)} as comments`))[0]!;
  return threadComments(jsonValue<CommentRow[]>(row.comments), viewer);
}

// ——— adding a comment ———

export type AddCommentResult =
  | { ok: true; id: string }
  | { ok: false; status: 404; code: "not_found"; message: string }
  | { ok: false; status: 400 | 403; code: CommentRefusal; message: string };

/**
 * Adds a comment (or an admin's reply to a top-level comment of the same lesson). Nothing is stored
 * unless every rule holds: visible lesson (404), replies by admins only (403), non-empty trimmed
 * text up to 5000 characters (400), parent is a top-level comment of this lesson (400).
 */
export async function addComment(
  db: DbOrTx,
  viewer: Viewer,
  lessonId: string | undefined,
  input: { content: unknown; parentId: unknown },
): Promise<AddCommentResult> {
  const lesson = await findVisibleLesson(db, viewer, lessonId);
  if (!lesson) return { ok: false, status: 404, code: "not_found", message: "Aula não encontrada" };
  const wantsReply = typeof input.parentId === "string" && input.parentId.trim() !== "";
  if (wantsReply && !viewer.isAdmin) return { ok: false, status: 403, code: "admin_only", message: COMMENT_MESSAGES.adminOnly };

  const parsed = commentSchema.safeParse({
    content: typeof input.content === "string" ? input.content : "",
    parentId: typeof input.parentId === "string" ? input.parentId : undefined,
  });
  if (!parsed.success) {
    return { ok: false, status: 400, code: "invalid_content", message: parsed.error.issues[0]?.message ?? COMMENT_MESSAGES.empty };
  }
  const { content, parentId } = parsed.data;

  if (parentId) {
    if (!isUuid(parentId)) return { ok: false, status: 400, code: "invalid_parent", message: COMMENT_MESSAGES.replyToReply };
    const [parent] = await db
      .select({ parentId: lessonComments.parentId })
      .from(lessonComments)
      .where(and(eq(lessonComments.id, parentId), eq(lessonComments.lessonId, lesson.id)));
    if (!parent || parent.parentId !== null) return { ok: false, status: 400, code: "invalid_parent", message: COMMENT_MESSAGES.replyToReply };
  }

  const [created] = await db
    .insert(lessonComments)
    .values({ lessonId: lesson.id, userId: viewer.id, content, parentId })
    .returning({ id: lessonComments.id });
  return { ok: true, id: created!.id };
}

/**
 * Action body of intent=comment: on success redirect back to the new comment with the spec's toast
 * (works without JavaScript) and tell live viewers; on failure the status and the conform reply —
 * what was typed (kept in the form, also without JavaScript), the content's error as its field error,
 * any other refusal as the form error — with the refusal's code.
 */
export async function handleCommentAction(
  context: AppLoadContext,
  viewer: Viewer,
  lessonId: string,
  { content, parentId }: { content: string; parentId: string | null },
  submission: FormSubmission,
) {
  const result = await addComment(context.db, viewer, lessonId, { content, parentId });
  if (!result.ok) {
    if (result.status === 404) throw courseNotFound("lesson");
    const reply =
      result.code === "invalid_content"
        ? submission.reply({ fieldErrors: { content: [result.message] } })
        : submission.reply({ formErrors: [result.message] });
    return data({ intent: "comment", result: reply, code: result.code } satisfies CommentActionData, { status: result.status });
  }
  // Live refresh for everyone on the lesson page, after the response; never fails the request.
  const published = publishLessonComment(context, lessonId).catch((error) => console.error("publishLessonComment failed", error));
  context.cloudflare.ctx.waitUntil(published);
  return redirectWithToast(context.cloudflare.env, `/courses/lessons/${lessonId}?tab=comentarios#comentario-${result.id}`, {
    type: "success",
    title: "Comentário adicionado!",
    description: "Seu comentário foi publicado com sucesso.",
  });
}
