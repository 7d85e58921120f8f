// "Resumo da conversa" (/conversas/:conversationId/resumo): what one conversation was — its turns, the minutes spoken
// live, the corrections found in it (its 'made' sightings) and the due mistakes it brought back, with those the
// learner used right ('used_right' sightings). Where a chat ends (the back link, "Encerrar" in live, 10 minutes idle),
// and linked from the conversation's page. One statement after the session's: the live tables are read by name here
// (Conversa ao vivo imports this feature, so this feature cannot import it).
import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import {
  CHAT_MODE_INFO,
  conversationPath,
  isChatMode,
  modeTarget,
  type ChatModeId,
  type ChatTarget,
  type ConversationFocusItem,
} from "~/features/conversation";
import { requireUser } from "~/server/auth.server";
import { jsonValue, rowsOf } from "~/server/db.server";
import { notFound, requireUuidParam } from "~/server/request.server";
import type { NotebookKind } from "./tables";
import { REPORT_TEXTS } from "./texts";

type Args = { request: Request; context: AppLoadContext; params: Record<string, string | undefined> };

export type ReportCorrection = {
  entryId: string;
  kind: NotebookKind;
  wrong: string;
  right: string;
  explanation: string;
  /** How many turns of this conversation made it. */
  times: number;
  /** The first turn of this conversation that made it. */
  href: string | null;
};

export type ReportFocusItem = { entryId: string; wrong: string; right: string; usedRight: boolean; href: string | null };

export type ConversationReport = {
  conversationId: string;
  /** The mode's title, or the lesson's. */
  title: string;
  startedAt: string;
  /** The conversation's page (null when its lesson is gone). */
  conversationHref: string | null;
  backTo: string;
  backLabel: string;
  /** The learner's turns (text, voice and live). */
  turns: number;
  /** Live minutes served in this conversation. */
  liveMinutes: number;
  corrections: ReportCorrection[];
  focus: ReportFocusItem[];
};

type ReportRow = {
  id: string;
  mode: string;
  lessonId: string | null;
  createdAt: string | Date;
  focus: unknown;
  lessonTitle: string | null;
  moduleOrder: number | null;
  lessonOrder: number | null;
  turns: number;
  liveMinutes: number;
  corrections: unknown;
  usedRight: unknown;
};

const pad2 = (value: number) => String(Math.max(0, Math.trunc(value))).padStart(2, "0");

/** Where the conversation lives and where "back" goes, as its chat page knows them (a lesson's by its code). */
function targetOf(row: ReportRow, mode: ChatModeId): ChatTarget | null {
  if (mode !== "lesson") return modeTarget(mode);
  if (row.lessonId === null || row.moduleOrder === null || row.lessonOrder === null) return null;
  return {
    mode,
    basePath: `/chat/lesson/M${pad2(row.moduleOrder)}A${pad2(row.lessonOrder)}`,
    backTo: `/courses/lessons/${row.lessonId}`,
    backLabel: "Voltar à aula",
  };
}

/** The learner's report of one of their conversations; 404 for a malformed id or a conversation not theirs. */
export async function loadConversationReport({ request, context, params }: Args): Promise<ConversationReport> {
  const user = await requireUser(request, context);
  const conversationId = requireUuidParam(params, "conversationId", REPORT_TEXTS.notFound);
  const [row] = rowsOf<ReportRow>(
    await context.db.execute(sql`
      select c.id, c.mode, c.lesson_id as "lessonId", c.created_at as "createdAt", c.focus,
        l.title as "lessonTitle", mo.order_index as "moduleOrder", l.order_index as "lessonOrder",
        (select count(*)::int from chat_messages m
          where m.conversation_id = c.id and m.role = 'user' and m.status = 'complete') as turns,
        (select count(*)::int from live_minutes lm join live_sessions ls on ls.id = lm.session_id
          where ls.conversation_id = c.id and lm.status = 'used') as "liveMinutes",
        coalesce((
          select json_agg(x order by x.first_at, x."entryId") from (
            select e.id as "entryId", e.kind, e.wrong, e."right", e.explanation, count(*)::int as times,
              min(s.created_at) as first_at, (array_agg(s.message_id order by s.created_at, s.id))[1] as "messageId"
            from notebook_sightings s join notebook_entries e on e.id = s.entry_id
            where s.conversation_id = c.id and s.kind = 'made' and e.user_id = c.user_id and e.dismissed_at is null
            group by e.id
          ) x
        ), '[]'::json) as corrections,
        coalesce((
          select json_agg(json_build_object('entryId', s.entry_id, 'messageId', s.message_id) order by s.created_at)
          from notebook_sightings s where s.conversation_id = c.id and s.kind = 'used_right'
        ), '[]'::json) as "usedRight"
      from chat_conversations c
        left join lessons l on l.id = c.lesson_id
        left join modules mo on mo.id = l.module_id
      where c.id = ${conversationId} and c.user_id = ${user.id}`),
  );
  if (!row || !isChatMode(row.mode)) throw notFound(REPORT_TEXTS.notFound);
  const mode = row.mode;
  const target = targetOf(row, mode);
  const at = (messageId: string | null) => (target ? conversationPath(target, row.id, messageId ? `#m-${messageId}` : "") : null);
  const corrections = (jsonValue<(Omit<ReportCorrection, "href"> & { messageId: string | null })[] | null>(row.corrections) ?? []).map(
    ({ messageId, ...correction }) => ({
      entryId: correction.entryId,
      kind: correction.kind,
      wrong: correction.wrong,
      right: correction.right,
      explanation: correction.explanation,
      times: correction.times,
      href: at(messageId),
    }),
  );
  const usedRight = new Map(
    (jsonValue<{ entryId: string; messageId: string | null }[] | null>(row.usedRight) ?? []).map((used) => [used.entryId, used.messageId]),
  );
  const focus = (jsonValue<ConversationFocusItem[] | null>(row.focus) ?? []).map((item) => ({
    entryId: item.entryId,
    wrong: item.wrong,
    right: item.right,
    usedRight: usedRight.has(item.entryId),
    href: usedRight.has(item.entryId) ? at(usedRight.get(item.entryId) ?? null) : null,
  }));
  return {
    conversationId: row.id,
    title: mode === "lesson" ? (row.lessonTitle ?? CHAT_MODE_INFO.lesson.title) : CHAT_MODE_INFO[mode].title,
    startedAt: new Date(row.createdAt).toISOString(),
    conversationHref: at(null),
    backTo: target?.backTo ?? "/chat-with-nika",
    backLabel: target?.backLabel ?? "Voltar aos modos",
    turns: Number(row.turns),
    liveMinutes: Number(row.liveMinutes),
    corrections,
    focus,
  };
}
