// A lesson's comments as the page shows them: one JSON column (so the lesson page reads the lesson and its comments in
// one statement, decision 0019) and the threading, one level deep, with the labels of spec §6.
import { sql, type SQL } from "drizzle-orm";
import type { Viewer } from "./catalog.server";
import { relativeTimePtBr } from "./format";

export type CommentView = {
  id: string;
  content: string;
  createdAt: string;
  /**
   * "há 5 minutos" at the time of the read, written by the server: a browser's first Intl formatter loads its ICU
   * data inside the page's hydration, where it counts as blocking time (decision 0019).
   */
  createdAtLabel: string;
  /** "Admin" for admins, "Você" for the viewer's own comments, the author's name, or "Usuário". */
  authorLabel: string;
  authorIsAdmin: boolean;
  /** The author's avatar (1–7, /config/app); null when the author's account is gone. */
  authorAvatar: number | null;
  isOwn: boolean;
};

export type CommentThread = CommentView & { replies: CommentView[] };

export type LessonComments = { threads: CommentThread[]; count: number };

/** One element of lessonCommentsJson's array. */
export type CommentRow = {
  id: string;
  content: string;
  createdAt: string;
  userId: string | null;
  parentId: string | null;
  name: string | null;
  avatar: number | null;
  isAdmin: boolean;
};

/** Spec §6: admin → "Admin"; the viewer's own non-admin comment → "Você"; the name; "Usuário" when missing. */
export function commentAuthorLabel(author: { name: string | null; isAdmin: boolean; isOwn: boolean }): string {
  if (author.isAdmin) return "Admin";
  if (author.isOwn) return "Você";
  const name = author.name?.trim();
  return name ? name : "Usuário";
}

/** SQL: the lesson's comments with their authors, ascending by created_at, as a JSON array of CommentRow. */
export function lessonCommentsJson(lessonId: string): SQL {
  return sql`coalesce((select json_agg(c order by c."createdAt", c.id) from (
    select lc.id, lc.content, lc.created_at as "createdAt", lc.user_id as "userId", lc.parent_id as "parentId",
      u.name, u.avatar, exists (select 1 from user_roles r where r.user_id = lc.user_id and r.role = 'admin') as "isAdmin"
    from lesson_comments lc left join users u on u.id = lc.user_id
    where lc.lesson_id = ${lessonId}) c), '[]'::json)`;
}

/** Replies under their top-level comment (orphans — deeper replies from old data — at the top level). */
export function threadComments(rows: CommentRow[], viewer: Viewer, now: number = Date.now()): LessonComments {
  const byId = new Map<string, CommentThread>();
  const threads: CommentThread[] = [];
  const views = rows.map((row) => {
    const isAdmin = row.isAdmin === true;
    const isOwn = row.userId === viewer.id;
    const view: CommentView = {
      id: row.id,
      content: row.content,
      createdAt: new Date(row.createdAt).toISOString(),
      createdAtLabel: relativeTimePtBr(row.createdAt, now),
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
    else threads.push({ ...view, replies: [] });
  }
  return { threads, count: rows.length };
}
