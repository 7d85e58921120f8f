// The chat screen's loader and action, shared by /chat-with-nika/:mode, /english-level-test and
// /chat/lesson/:lessonKey. The conversation lives in the URL (`?c=<id>`), so a reload shows it and
// the learner carries on. See docs/decisions/0009-chat.md.
//
//  GET  without ?c  → a new conversation (conversations_started + 1), redirect to ?c=<id>
//  GET  ?c=<id>     → the conversation; with JS the island streams Nika's greeting, without JS a
//                     <noscript> refresh comes back with &greet=1 and the server waits for it
//  POST intent=send → (no JS) the whole reply is awaited, stored, then redirect back to the conversation;
//                     a refusal answers the conform reply (text kept, [title, message]) and a code
import type { SubmissionResult } from "@conform-to/react";
import { type AppLoadContext, data, redirect } from "react-router";
import { z } from "zod";
import {
  ChatError,
  CHAT_MODE_INFO,
  conversationPath,
  conversationReportPath,
  guard,
  loadConversation,
  MENU_MODES,
  startConversation,
  type ChatErrorCode,
  type ChatTarget,
} from "~/features/conversation";
import { focusEntries } from "~/features/notebook";
import { getAiProviders } from "~/server/ai/index.server";
import type { SessionUser } from "~/server/auth.server";
import { getFlags } from "~/server/flags.server";
import { BODY_MESSAGES, notFound, parseForm, refusal } from "~/server/request.server";
import { statusOf } from "./events.server";
import { greet } from "./greeting.server";
import { MESSAGE_MAX_CHARS, sendMessage, type GreetResult, type SendResult } from "./sending.server";
import type { ChatFormError, ChatPageData, ClientMessage } from "./types";

type Args = { request: Request; context: AppLoadContext };

const NO_STORE = { "Cache-Control": "no-store" };
/** No JS, another tab greeting the same conversation: how long the page waits before asking again. */
const GREETING_RETRY_SECONDS = 2;

function rethrowChatError(error: unknown): never {
  if (error instanceof ChatError) throw refusal(error.status, error.message, error.code);
  throw error;
}

/**
 * Starts a conversation and sends the browser to it. It brings back the learner's due mistakes ("Meu caderno"),
 * chosen once here: every turn's prompt reads them with the conversation (no statement more per message). The level
 * test brings none back: it measures.
 */
export async function startAndRedirect(args: Args, target: ChatTarget, user: SessionUser): Promise<never> {
  const focus = target.mode === "english-test" ? [] : await focusEntries(args.context.db, user.id, new Date());
  const conversation = await startConversation(args.context, user, { mode: target.mode, lessonId: target.lesson?.id, focus }).catch(
    rethrowChatError,
  );
  throw redirect(conversationPath(target, conversation.id), { headers: NO_STORE });
}

/** The chat screen's data; its route adds what other features offer on it (Conversa ao vivo's link). */
export async function loadChatPage(args: Args, target: ChatTarget): Promise<Omit<ChatPageData, "liveHref">> {
  const { request, context } = args;
  const user = await guard(args, target);
  const url = new URL(request.url);
  const conversationId = url.searchParams.get("c");
  if (!conversationId) return startAndRedirect(args, target, user);
  const { conversation, messages } = await loadConversation(context, user, conversationId).catch(rethrowChatError);
  if (conversation.mode !== target.mode || (target.lesson && conversation.lessonId !== target.lesson.id)) {
    throw notFound("Conversa não encontrada");
  }

  let greetingError: ChatFormError | null = null;
  let greetingRetrySeconds = 0;
  if (messages.length === 0 && url.searchParams.get("greet") === "1") {
    // No JavaScript: wait for the whole greeting here, then come back without the parameter.
    const result = await greet(context, user, conversation.id).catch(rethrowChatError);
    if (result.status === "already_started" && result.elsewhere) {
      greetingRetrySeconds = GREETING_RETRY_SECONDS; // another tab is greeting: look again in a moment, not at once
    } else if (result.status === "ok" || result.status === "already_started") {
      throw redirect(conversationPath(target, conversation.id), { headers: NO_STORE });
    } else {
      greetingError = chatRefusal(result);
    }
  }

  const providers = getAiProviders(context.cloudflare.env);
  const flags = await getFlags(context);
  const pageData: Omit<ChatPageData, "liveHref"> = {
    conversationId: conversation.id,
    mode: { id: target.mode, title: CHAT_MODE_INFO[target.mode].title, language: CHAT_MODE_INFO[target.mode].language },
    basePath: target.basePath,
    reportHref: conversationReportPath(conversation.id),
    backTo: target.backTo,
    backLabel: target.backLabel,
    lesson: target.lesson ? { title: target.lesson.title, key: target.lesson.key } : null,
    messages: messages.map(toClientMessage),
    nikaAvailable: providers !== null,
    voiceAvailable: providers?.stt != null,
    credits: user.monthlyCredits,
    englishLevel: user.englishLevel,
    englishLevelAt: user.englishLevelAt ? new Date(user.englishLevelAt).toISOString() : null,
    modes: MENU_MODES.map((m) => ({ id: m.id, title: m.title, path: m.path!, enabled: m.flag ? flags[m.flag] : true })),
    greetingError,
    greetingRetrySeconds,
  };
  return pageData;
}

export function toClientMessage(row: {
  id: string;
  role: "user" | "nika";
  text: string;
  audioUrl: string | null;
  transcription: string | null;
  status: "complete" | "failed";
}): ClientMessage {
  return {
    id: row.id,
    role: row.role,
    text: row.text,
    audioUrl: row.audioUrl,
    voice: row.transcription !== null,
    failed: row.status === "failed",
  };
}

/** Why a no-JS send (or the greeting the page waited for) was refused; the page branches on it, never on the message. */
export type ChatRefusal = ChatErrorCode | "credits_exhausted" | "provider_unavailable" | "nika_unavailable" | "not_understood";

/**
 * The chat page action's answer when it does not redirect: the conform reply — the learner's text kept
 * for the box, the refusal as form errors `[title, message]` — and the refusal's code.
 */
export type ChatActionData = { result: SubmissionResult<string[]>; code: ChatRefusal };

/** The title of a refusal that has none of its own. */
const REFUSED_TITLE = "Não foi possível enviar";

/** A refused send or greeting as the page shows it: its code, a title and the message (statuses: statusOf). */
export function chatRefusal(result: Exclude<SendResult | GreetResult, { status: "ok" } | { status: "already_started" }>): ChatFormError & {
  code: ChatRefusal;
  title: string;
} {
  switch (result.status) {
    case "credits_exhausted":
      return { code: "credits_exhausted", title: "Créditos Esgotados", message: "Seus créditos acabaram." };
    case "provider_error":
      return { code: "provider_unavailable", title: result.title, message: result.message };
    case "not_understood":
      return { code: "not_understood", title: REFUSED_TITLE, message: result.message };
    case "unavailable":
      return { code: "nika_unavailable", title: REFUSED_TITLE, message: result.message };
  }
}

/** The no-JS form posts: `intent=send` (text) or `intent=new` (a fresh conversation in this mode). */
const chatFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("new") }),
  // The length rule (and its message) belongs to sendMessage; the schema only bounds the shape.
  z.object({
    intent: z.literal("send"),
    text: z
      .string()
      .max(MESSAGE_MAX_CHARS * 4)
      .default(""),
    conversationId: z.string().max(100).optional(),
  }),
]);

export async function chatPageAction(args: Args, target: ChatTarget) {
  const { request, context } = args;
  const user = await guard(args, target);
  const submission = await parseForm(request, chatFormSchema);
  // The text stays in the box (the reply carries it back); the page shows why it was not sent.
  const refuse = (status: number, { code, title, message }: { code: ChatRefusal; title: string; message: string }) =>
    data({ result: submission.reply({ formErrors: [title, message] }), code } satisfies ChatActionData, { status });
  if (submission.status !== "success") return refuse(400, { code: "invalid_text", title: REFUSED_TITLE, message: BODY_MESSAGES.invalid });
  const input = submission.value;
  if (input.intent === "new") return startAndRedirect(args, target, user);

  const conversationId = new URL(request.url).searchParams.get("c") ?? input.conversationId ?? "";
  let result: SendResult;
  try {
    result = await sendMessage(context, user, conversationId, { text: input.text });
  } catch (error) {
    if (error instanceof ChatError) return refuse(error.status, { code: error.code, title: REFUSED_TITLE, message: error.message });
    throw error;
  }
  if (result.status === "ok") throw redirect(conversationPath(target, conversationId, `#m-${result.reply.id}`));
  return refuse(statusOf(result), chatRefusal(result));
}
