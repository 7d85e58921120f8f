// Lesson comments: reads (one query, threaded one level deep, labels of spec §6) and the comment /
// reply action (spec §4, §8). Content is stored as typed (trimmed) and always rendered as text.
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { and, asc, eq, sql } from "drizzle-orm";
import { isUuid } from "~/lib/ids";
import type { DbOrTx } from "~/server/db.server";
import { publishLessonComment } from "~/server/realtime.server";
import { lessonComments, users } from "~/server/schema";
import { redirectWithToast } from "~/server/toast.server";
import { courseNotFound, findVisibleLesson, type FormSubmission, type Viewer } from "./catalog.server";
import { COMMENT_MESSAGES, commentSchema, type CommentActionData, type CommentRefusal } from "./comment-form";
import { COMMENT_MAX_LENGTH } from "./format";

export { COMMENT_MAX_LENGTH, COMMENT_MESSAGES, commentSchema };

export type CommentView = {
  id: string;
  content: string;
  createdAt: string;
  /** "Admin" for admins, "Você" for the viewer's own comments, the author's name, or "Usuário". */
  authorLabel: string;
  authorIsAdmin: boolean;
  /** The author's avatar (1–7, /config/app); null when the author's account is gone. */
  authorAvatar: number | null;
  isOwn: boolean;
};

export type CommentThread = CommentView & { replies: CommentView[] };

export type LessonComments = { threads: CommentThread[]; count: number };

/** Spec §6: admin → "Admin"; the viewer's own non-admin comment → "Você"; the name; "Usuário" when missing. */
export function commentAuthorLabel(author: { name: string | null; isAdmin: boolean; isOwn: boolean }): string {
  if (author.isAdmin) return "Admin";
  if (author.isOwn) return "Você";
  const name = author.name?.trim();
  return name ? name : "Usuário";
}

/** Comments of a lesson, ascending by created_at, replies under their top-level comment (1 query). */
export async function loadLessonComments(db: DbOrTx, viewer: Viewer, lessonId: string): Promise<LessonComments> {
  if (!isUuid(lessonId)) return { threads: [], count: 0 };
  const rows = await db
    .select({
      id: lessonComments.id,
      content: lessonComments.content,
      createdAt: lessonComments.createdAt,
      userId: lessonComments.userId,
      parentId: lessonComments.parentId,
      name: users.name,
      avatar: users.avatar,
      isAdmin: sql<boolean>`exists (select 1 from user_roles r where r.user_id = ${lessonComments.userId} and r.role = 'admin')`,
    })
    .from(lessonComments)
    .leftJoin(users, eq(users.id, lessonComments.userId))
    .where(eq(lessonComments.lessonId, lessonId))
    .orderBy(asc(lessonComments.createdAt), asc(lessonComments.id));

  const byId = new Map<string, CommentThread>();
  const threads: CommentThread[] = [];
  const views = rows.map((row) => {
    const isAdmin = row.isAdmin === true;
    const isOwn = row.userId === viewer.id;
    const view: CommentView = {
      id: row.id,
      content: row.content,
      createdAt: new Date(row.createdAt).toISOString(),
      authorLabel: commentAuthorLabel({ name: row.name, isAdmin, isOwn }),
      authorIsAdmin: isAdmin,
      authorAvatar: row.avatar ?? null,
      isOwn,
    };
    return { view, parentId: row.parentId };
  });
  for (const { view, parentId } of views) {
    if (parentId) continue;
    const thread = { ...view, replies: [] };
    byId.set(view.id, thread);
    threads.push(thread);
  }
  for (const { view, parentId } of views) {
    if (!parentId) continue;
    const parent = byId.get(parentId);
    if (parent) parent.replies.push(view);
    else threads.push({ ...view, replies: [] }); // orphan (deeper reply from old data): shown at the top level
  }
  return { threads, count: rows.length };
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
  return redirectWithToast(`/courses/lessons/${lessonId}?tab=comentarios#comentario-${result.id}`, {
    type: "success",
    title: "Comentário adicionado!",
    description: "Seu comentário foi publicado com sucesso.",
  });
}
