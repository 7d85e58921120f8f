// The comment action (handleCommentAction in comments.server.ts) through the lesson page's action — rules a
// broken line must not get past (issue 8, item 11, found by mutation testing): a refused comment answers
// its status with the message where the form shows it, an invisible lesson is a 404, and a stored
// comment redirects to itself with the toast and tells the lesson's live viewers after the response.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { COMMENT_MESSAGES } from "~/features/courses/comments.server";
import * as lessonPage from "~/routes/_app+/courses+/lessons.$lessonId";
import { createSession } from "~/server/auth.server";
import type { Database } from "~/server/db.server";
import { lessonComments, lessons, modules, userRoles, users } from "~/server/schema";
import { takeToast } from "~/server/toast.server";
import { args, call, contextFor, createTestDb } from "./harness";

let db: Database;
let n = 0;
beforeAll(async () => {
  ({ db } = await createTestDb());
});
async function person(isAdmin = false) {
  const [user] = await db
    .insert(users)
    .values({ name: "Pessoa", email: `acao-comentario${++n}@example.com` })
    .returning();
  if (isAdmin) await db.insert(userRoles).values({ userId: user!.id, role: "admin" });
  return { id: user!.id, isAdmin };
}
async function newLesson(available: "yes" | "no" = "yes") {
  const [mod] = await db
    .insert(modules)
    .values({ title: `Módulo ${++n}`, orderIndex: 200 + n, available })
    .returning();
  const [lesson] = await db
    .insert(lessons)
    .values({ moduleId: mod!.id, title: `Aula ${n}` })
    .returning();
  return lesson!.id;
}
const commentsOf = (lessonId: string) => db.select().from(lessonComments).where(eq(lessonComments.lessonId, lessonId));

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
    const { toast } = await takeToast(new Request("http://nika.test/", { headers: { Cookie: cookie } }));
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
    const admin = await person(true);
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
    expect([outcome.status, outcome.data]).toEqual([404, { notFound: "lesson" }]);
    expect(await commentsOf(hidden)).toEqual([]);
    expect(pending).toEqual([]);
  });
});
