// /caderno: the learner's entries, grouped by kind, in one statement; and its two forms, "Essa correção está errada"
// (the entry is dismissed: never shown and never added again, and counted for the admin) and "Já sei" (mastered).
import { and, eq, isNull, sql } from "drizzle-orm";
import { data, type AppLoadContext } from "react-router";
import { z } from "zod";
import { CHAT_MODE_INFO, isChatMode } from "~/features/conversation";
import { requireUser } from "~/server/auth.server";
import { rowsOf } from "~/server/db.server";
import { notFound, parseForm } from "~/server/request.server";
import { redirectWithToast } from "~/server/toast.server";
import { NOTEBOOK_KINDS, notebookEntries, type NotebookDetails, type NotebookKind, type NotebookSource, type NotebookState } from "./tables";
import { NOTEBOOK_TEXTS } from "./texts";

type Args = { request: Request; context: AppLoadContext };

/** More than a learner reads on one page; the oldest beyond it wait until others are mastered or dismissed. */
const PAGE_ENTRIES = 200;

export type NotebookEntryView = {
  id: string;
  kind: NotebookKind;
  wrong: string;
  right: string;
  explanation: string;
  source: NotebookSource;
  count: number;
  state: NotebookState;
  /** Where it was last made, when that has a page: the conversation, or the pronunciation level. */
  where: { href: string; label: string } | null;
};

export type NotebookPageData = { groups: { kind: NotebookKind; entries: NotebookEntryView[] }[]; total: number };

type EntryRow = Omit<NotebookEntryView, "where"> & {
  conversationId: string | null;
  messageId: string | null;
  mode: string | null;
  details: NotebookDetails | null;
};

/** Where an entry was last made: its pronunciation level, or the exact turn of its conversation (`#m-<message>`). */
function whereOf({ source, conversationId, messageId, mode, details }: EntryRow): NotebookEntryView["where"] {
  if (source === "pronunciation" && details?.level) {
    return { href: `/pronunciation-game/${details.level}`, label: `${NOTEBOOK_TEXTS.atLevel} ${details.level}` };
  }
  // A flashcard word: its card is practised in Revisão, under the flashcards.
  if (source === "flashcards") {
    return {
      href: "/flashcard-v2",
      label: details?.category ? `${NOTEBOOK_TEXTS.inFlashcards} · ${details.category}` : NOTEBOOK_TEXTS.inFlashcards,
    };
  }
  const path = mode && isChatMode(mode) ? CHAT_MODE_INFO[mode].path : null;
  const anchor = messageId ? `#m-${messageId}` : "";
  return conversationId && path ? { href: `${path}?c=${conversationId}${anchor}`, label: NOTEBOOK_TEXTS.inConversation } : null;
}

export async function loadNotebookPage({ request, context }: Args): Promise<NotebookPageData> {
  const user = await requireUser(request, context);
  const rows = rowsOf<EntryRow>(
    await context.db.execute(sql`
      select e.id, e.kind, e.wrong, e."right", e.explanation, e.source, e.count, e.state,
             e.conversation_id as "conversationId", e.message_id as "messageId", c.mode, e.details
      from notebook_entries e
      left join chat_conversations c on c.id = e.conversation_id
      where e.user_id = ${user.id} and e.dismissed_at is null
      order by e.last_seen_at desc
      limit ${PAGE_ENTRIES}`),
  );
  const groups = NOTEBOOK_KINDS.map((kind) => ({
    kind,
    entries: rows
      .filter((row) => row.kind === kind)
      .map((row) => {
        const { conversationId: _, messageId: _m, mode: __, details: ___, ...entry } = row;
        return { ...entry, where: whereOf(row) };
      }),
  })).filter((group) => group.entries.length > 0);
  return { groups, total: rows.length };
}

const entryForm = z.object({ intent: z.enum(["dismiss", "master"]), entryId: z.string().uuid() });

export async function notebookAction({ request, context }: Args) {
  const user = await requireUser(request, context);
  const submission = await parseForm(request, entryForm);
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [NOTEBOOK_TEXTS.invalid] }) }, { status: 400 });
  }
  const { intent, entryId } = submission.value;
  const mine = and(eq(notebookEntries.id, entryId), eq(notebookEntries.userId, user.id), isNull(notebookEntries.dismissedAt));
  const changed =
    intent === "dismiss"
      ? await context.db.update(notebookEntries).set({ dismissedAt: new Date() }).where(mine).returning({ id: notebookEntries.id })
      : await context.db
          .update(notebookEntries)
          .set({ state: "mastered", masteredAt: new Date() })
          .where(mine)
          .returning({ id: notebookEntries.id });
  if (changed.length === 0) throw notFound(NOTEBOOK_TEXTS.notFound);
  const toast =
    intent === "dismiss"
      ? { type: "success" as const, title: NOTEBOOK_TEXTS.dismissedTitle, description: NOTEBOOK_TEXTS.dismissedDescription }
      : { type: "success" as const, title: NOTEBOOK_TEXTS.masteredTitle };
  return redirectWithToast(context.cloudflare.env, "/caderno", toast);
}
