// Where a conversation lives: its mode's page (or its lesson's), where "back" goes, and the guard every page of
// that mode uses — the text chat's and Conversa ao vivo's alike.
import { and, asc, eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { lessons, modules } from "~/features/courses";
import { requireUser, type SessionUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";
import { notFound } from "~/server/request.server";
import { CHAT_MODE_INFO, parseLessonKey, type ChatModeId } from "./modes";

type Args = { request: Request; context: AppLoadContext };

export type ChatTarget = {
  mode: ChatModeId;
  /** The page's own path, without query. */
  basePath: string;
  backTo: string;
  backLabel: string;
  lesson?: { id: string; title: string; key: string };
};

export function modeTarget(mode: ChatModeId): ChatTarget {
  const info = CHAT_MODE_INFO[mode];
  if (mode === "english-test") return { mode, basePath: info.path!, backTo: "/labs", backLabel: "Voltar ao Labs" };
  return { mode, basePath: info.path!, backTo: "/chat-with-nika", backLabel: "Voltar aos modos" };
}

/** `/chat/lesson/M01A02` → the lesson with module order_index 1 and lesson order_index 2; 404 otherwise. */
export async function lessonTarget(context: AppLoadContext, lessonKey: string | undefined): Promise<ChatTarget> {
  const parsed = parseLessonKey(lessonKey);
  const lessonNotFound = () => notFound("Aula não encontrada");
  if (!parsed) throw lessonNotFound();
  const [lesson] = await context.db
    .select({ id: lessons.id, title: lessons.title })
    .from(lessons)
    .innerJoin(modules, eq(modules.id, lessons.moduleId))
    .where(and(eq(modules.orderIndex, parsed.module), eq(lessons.orderIndex, parsed.lesson)))
    .orderBy(asc(lessons.createdAt))
    .limit(1);
  if (!lesson) throw lessonNotFound();
  return {
    mode: "lesson",
    basePath: `/chat/lesson/${lessonKey}`,
    backTo: `/courses/lessons/${lesson.id}`,
    backLabel: "Voltar à aula",
    lesson: { ...lesson, key: lessonKey! },
  };
}

export async function guard({ request, context }: Args, target: ChatTarget): Promise<SessionUser> {
  const user = await requireUser(request, context);
  const flag = CHAT_MODE_INFO[target.mode].flag;
  if (flag) await requireFeature(context, flag);
  return user;
}

export function conversationPath(target: ChatTarget, conversationId: string, hash = "") {
  return `${target.basePath}?c=${conversationId}${hash}`;
}

/** "Resumo da conversa": the page a conversation ends on (and keeps a link to). */
export function conversationReportPath(conversationId: string) {
  return `/conversas/${conversationId}/resumo`;
}
