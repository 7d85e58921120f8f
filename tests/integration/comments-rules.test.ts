// Comment rules a broken line must not get past (issue 8, item 11 — found by mutation testing):
// who may reply, what counts as a reply, content validation at its edges, how old data that breaks the
// one-level rule is still shown, and the lesson page's comment action.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { addComment, COMMENT_MESSAGES, commentAuthorLabel, loadLessonComments } from "~/features/courses/comments.server";
import { lessonComments, lessons, modules } from "~/features/courses/tables";
import * as lessonPage from "~/routes/_app+/courses+/lessons.$lessonId";
import { createSession } from "~/server/auth.server";
import type { Database } from "~/server/db.server";
import { userRoles, users } from "~/server/schema";
import { takeToast } from "~/server/toast.server";
import { args, call, contextFor, createTestDb, TEST_ENV } from "./harness";

let db: Database;
let n = 0;
beforeAll(async () => {
  ({ db } = await createTestDb());
});
async function person(name = "Pessoa", isAdmin = false) {
  const [user] = await db
    .insert(users)
    .values({ name, email: `comentarios${++n}@example.com` })
    .returning();
  if (isAdmin) await db.insert(userRoles).values({ userId: user!.id, role: "admin" });
  return { id: user!.id, isAdmin };
}
async function newLesson(available: "yes" | "no" = "yes") {
  const [mod] = await db
    .insert(modules)
    .values({ title: `Módulo ${++n}`, orderIndex: n, available })
    .returning();
  const [lesson] = await db
    .insert(lessons)
    .values({ moduleId: mod!.id, title: `Aula ${n}` })
    .returning();
  return lesson!.id;
}
const commentsOf = (lessonId: string) => db.select().from(lessonComments).where(eq(lessonComments.lessonId, lessonId));

describe("addComment", () => {
  it("treats a blank parentId as a top-level comment, for learners too", async () => {
    const lessonId = await newLesson();
    const learner = await person();
    for (const parentId of ["", "   ", null, undefined]) {
      const result = await addComment(db, learner, lessonId, { content: `sem pai ${String(parentId)}`, parentId });
      expect(result.ok).toBe(true);
    }
    expect((await commentsOf(lessonId)).map((c) => c.parentId)).toEqual([null, null, null, null]);
  });

  it("refuses a learner's reply before looking at its content or parent (403)", async () => {
    const lessonId = await newLesson();
    const learner = await person();
    expect(await addComment(db, learner, lessonId, { content: "", parentId: "not-a-uuid" })).toEqual({
      ok: false,
      status: 403,
      code: "admin_only",
      message: COMMENT_MESSAGES.adminOnly,
    });
    expect(await commentsOf(lessonId)).toEqual([]);
  });

  it("validates the content at its edges: 5000 characters after trimming pass, 5001 do not, non-text is empty", async () => {
    const lessonId = await newLesson();
    const learner = await person();
    expect((await addComment(db, learner, lessonId, { content: `\n ${"a".repeat(5000)}\t`, parentId: null })).ok).toBe(true);
    expect(await addComment(db, learner, lessonId, { content: "a".repeat(5001), parentId: null })).toEqual({
      ok: false,
      status: 400,
      code: "invalid_content",
      message: COMMENT_MESSAGES.tooLong,
    });
    expect(await addComment(db, learner, lessonId, { content: 42, parentId: null })).toEqual({
      ok: false,
      status: 400,
      code: "invalid_content",
      message: COMMENT_MESSAGES.empty,
    });
    expect(await addComment(db, learner, lessonId, { content: " \n ", parentId: null })).toEqual({
      ok: false,
      status: 400,
      code: "invalid_content",
      message: COMMENT_MESSAGES.empty,
    });
    expect(await commentsOf(lessonId)).toHaveLength(1);
  });

  it("lets an admin reply to a top-level comment only, and keeps the reply on the same lesson", async () => {
    const lessonId = await newLesson();
    const learner = await person();
    const admin = await person("Equipe", true);
    const top = await addComment(db, learner, lessonId, { content: "Dúvida", parentId: null });
    const topId = (top as { id: string }).id;
    const reply = await addComment(db, admin, lessonId, { content: " Resposta ", parentId: ` ${topId} ` });
    expect(reply.ok).toBe(true);
    const [row] = await db
      .select()
      .from(lessonComments)
      .where(eq(lessonComments.id, (reply as { id: string }).id));
    expect(row).toMatchObject({ parentId: topId, lessonId, content: "Resposta", userId: admin.id });
    expect(await addComment(db, admin, lessonId, { content: "De novo", parentId: row!.id })).toEqual({
      ok: false,
      status: 400,
      code: "invalid_parent",
      message: COMMENT_MESSAGES.replyToReply,
    });
  });

  it("answers 404 for a lesson a learner cannot see, but lets admins comment there", async () => {
    const hidden = await newLesson("no");
    const learner = await person();
    const admin = await person("Equipe", true);
    expect(await addComment(db, learner, hidden, { content: "Oi", parentId: null })).toMatchObject({ ok: false, status: 404 });
    expect(await addComment(db, learner, undefined, { content: "Oi", parentId: null })).toMatchObject({ ok: false, status: 404 });
    expect((await addComment(db, admin, hidden, { content: "Oi", parentId: null })).ok).toBe(true);
  });
});

describe("loadLessonComments", () => {
  it("shows a reply whose parent is itself a reply (old data) at the top level, and counts every comment", async () => {
    const lessonId = await newLesson();
    const learner = await person("Bia");
    const admin = await person("Equipe", true);
    const [top] = await db
      .insert(lessonComments)
      .values({ lessonId, userId: learner.id, content: "topo", createdAt: new Date("2026-01-01T10:00:00Z") })
      .returning();
    const [reply] = await db
      .insert(lessonComments)
      .values({ lessonId, userId: admin.id, content: "resposta", parentId: top!.id, createdAt: new Date("2026-01-01T11:00:00Z") })
      .returning();
    await db
      .insert(lessonComments)
      .values({ lessonId, userId: learner.id, content: "neta", parentId: reply!.id, createdAt: new Date("2026-01-01T12:00:00Z") });
    const view = await loadLessonComments(db, learner, lessonId);
    expect(view.count).toBe(3);
    // "há …" written by the server at the time of the read (months or years after these 2026-01-01 comments)
    expect(view.threads[0]!.createdAtLabel).toMatch(/^há \d+ (meses|mês|anos?)$/);
    expect(view.threads.map((t) => [t.content, t.replies.map((r) => r.content)])).toEqual([
      ["topo", ["resposta"]],
      ["neta", []],
    ]);
    expect(view.threads[0]).toMatchObject({ authorLabel: "Você", isOwn: true, createdAt: "2026-01-01T10:00:00.000Z" });
    expect(view.threads[0]!.replies[0]).toMatchObject({ authorLabel: "Admin", authorIsAdmin: true, isOwn: false });
  });

  it("orders by creation time, then id, and shows nothing for an id that is not a lesson id", async () => {
    const lessonId = await newLesson();
    const learner = await person("Caio");
    const at = new Date("2026-02-02T09:00:00Z");
    const rows = await db
      .insert(lessonComments)
      .values([
        { lessonId, userId: learner.id, content: "b", createdAt: new Date(at.getTime() + 1000) },
        { lessonId, userId: learner.id, content: "a1", createdAt: at },
        { lessonId, userId: learner.id, content: "a2", createdAt: at },
      ])
      .returning();
    const sameTime = rows
      .filter((r) => r.createdAt.getTime() === at.getTime())
      .sort((x, y) => (x.id < y.id ? -1 : 1))
      .map((r) => r.content);
    const view = await loadLessonComments(db, { id: crypto.randomUUID(), isAdmin: false }, lessonId);
    expect(view.threads.map((t) => t.content)).toEqual([...sameTime, "b"]);
    expect(view.threads.map((t) => t.authorLabel)).toEqual(["Caio", "Caio", "Caio"]);
    expect(await loadLessonComments(db, learner, "nao-e-uuid")).toEqual({ threads: [], count: 0 });
  });

  it("labels: Admin first, then Você, then the trimmed name, then Usuário", () => {
    expect(commentAuthorLabel({ name: "Ana", isAdmin: true, isOwn: true })).toBe("Admin");
    expect(commentAuthorLabel({ name: "Ana", isAdmin: false, isOwn: true })).toBe("Você");
    expect(commentAuthorLabel({ name: "  Ana Clara ", isAdmin: false, isOwn: false })).toBe("Ana Clara");
    expect(commentAuthorLabel({ name: "   ", isAdmin: false, isOwn: false })).toBe("Usuário");
    expect(commentAuthorLabel({ name: null, isAdmin: false, isOwn: false })).toBe("Usuário");
  });
});

// ——— through the lesson page's action (handleCommentAction): a refused comment answers its status with
// the message where the form shows it, an invisible lesson is a 404, and a stored comment redirects to
// itself with the toast and tells the lesson's live viewers after the response ———

/** A load context whose live channel and waitUntil are recorded. */
function liveContext() {
  const notified: string[] = [];
  const pending: Promise<unknown>[] = [];
  const context = contextFor(db, {
    LESSON_CHANNELS: {
      idFromName: (name: string) => name,
      get: () => ({ notifyComment: async (id: string) => void notified.push(id) }),
    } as never,
  });
  context.cloudflare.ctx.waitUntil = (promise: Promise<unknown>) => void pending.push(promise);
  return { context, notified, pending };
}
/** The lesson page's action, as a signed-in browser posts the comment (or reply) form. */
async function post(
  context: ReturnType<typeof liveContext>["context"],
  viewer: { id: string; isAdmin: boolean },
  lessonId: string,
  content: string,
  parentId = "",
) {
  const cookie = (await createSession(contextFor(db), viewer.id, new Request("http://nika.test/"))).split(";")[0]!;
  const form = new URLSearchParams({ intent: "comment", content });
  if (parentId) form.set("parentId", parentId);
  const req = new Request(`http://nika.test/courses/lessons/${lessonId}`, {
    method: "POST",
    body: form,
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  context.memo.clear(); // one load context per request, as in production (the recorders are kept)
  return call<{
    intent: string;
    code: string;
    result: { status: string; error: Record<string, string[]>; initialValue: Record<string, unknown> };
  }>(() => lessonPage.action(args(req, context, { lessonId })));
}

describe("handleCommentAction", () => {
  it("a stored comment redirects to itself with the success toast, then tells the lesson's live viewers", async () => {
    const lessonId = await newLesson();
    const learner = await person();
    const { context, notified, pending } = liveContext();
    const outcome = await post(context, learner, lessonId, "  Uma dúvida  ");
    const [row] = await commentsOf(lessonId);
    expect(row).toMatchObject({ content: "Uma dúvida", userId: learner.id, parentId: null });
    expect([outcome.status, outcome.location]).toEqual([302, `/courses/lessons/${lessonId}?tab=comentarios#comentario-${row!.id}`]);
    const cookie = outcome.headers.get("Set-Cookie")!.split(";")[0]!;
    const { toast } = await takeToast(TEST_ENV, new Request("http://nika.test/", { headers: { Cookie: cookie } }));
    expect(toast).toEqual({ type: "success", title: "Comentário adicionado!", description: "Seu comentário foi publicado com sucesso." });
    expect(pending).toHaveLength(1);
    await Promise.all(pending);
    expect(notified).toEqual([lessonId.toLowerCase()]);
  });

  it("refused content: 400, the message as the content field's error, what was typed kept, nothing stored or announced", async () => {
    const lessonId = await newLesson();
    const learner = await person();
    const { context, notified, pending } = liveContext();
    const outcome = await post(context, learner, lessonId, "   ");
    expect(outcome.status).toBe(400);
    expect(outcome.data).toMatchObject({ intent: "comment", code: "invalid_content" });
    expect(outcome.data.result.error).toEqual({ content: [COMMENT_MESSAGES.empty] });
    const tooLong = "a".repeat(5001);
    const long = await post(context, learner, lessonId, tooLong);
    expect([long.status, long.data.code]).toEqual([400, "invalid_content"]);
    expect(long.data.result.error).toEqual({ content: [COMMENT_MESSAGES.tooLong] });
    expect(long.data.result.initialValue).toMatchObject({ content: tooLong });
    expect(await commentsOf(lessonId)).toEqual([]);
    expect([pending, notified]).toEqual([[], []]);
  });

  it("other refusals are form errors with their own status and code: a learner's reply (403), a reply to a reply (400)", async () => {
    const lessonId = await newLesson();
    const learner = await person();
    const admin = await person("Admin", true);
    const { context } = liveContext();
    const top = await post(context, learner, lessonId, "Dúvida");
    const topId = top.location!.split("#comentario-")[1]!;

    const learnerReply = await post(context, learner, lessonId, "Eu respondo", topId);
    expect([learnerReply.status, learnerReply.data.code]).toEqual([403, "admin_only"]);
    expect(learnerReply.data.result.error).toEqual({ "": [COMMENT_MESSAGES.adminOnly] });
    expect(learnerReply.data.result.initialValue).toMatchObject({ content: "Eu respondo", parentId: topId });

    const reply = await post(context, admin, lessonId, "Resposta", topId);
    expect(reply.status).toBe(302);
    const replyId = reply.location!.split("#comentario-")[1]!;
    const nested = await post(context, admin, lessonId, "Mais fundo", replyId);
    expect([nested.status, nested.data.code]).toEqual([400, "invalid_parent"]);
    expect(nested.data.result.error).toEqual({ "": [COMMENT_MESSAGES.replyToReply] });
    expect((await commentsOf(lessonId)).map((c) => c.content).sort()).toEqual(["Dúvida", "Resposta"]);
  });

  it("a lesson the viewer cannot see is the lesson's 404, with nothing stored", async () => {
    const hidden = await newLesson("no");
    const learner = await person();
    const { context, pending } = liveContext();
    const outcome = await post(context, learner, hidden, "Oi");
    expect([outcome.status, outcome.data]).toEqual([404, { error: "Aula não encontrada", code: "lesson_not_found" }]);
    expect(await commentsOf(hidden)).toEqual([]);
    expect(pending).toEqual([]);
  });
});
