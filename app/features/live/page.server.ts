// The page of Conversa ao vivo, on the chat's own paths (/chat-with-nika/:mode/ao-vivo?c=…, /chat/lesson/:key/ao-vivo?c=…):
// the same guard as the chat screen of that mode, plus the flag and a configured provider.
import { type AppLoadContext, redirect } from "react-router";
import { ChatError, CHAT_MODE_INFO, conversationReportPath, findOwnedConversation, guard, type ChatTarget } from "~/features/conversation";
import { requireFeature } from "~/server/flags.server";
import { notFound } from "~/server/request.server";
import { liveCreditsPerMinute, LIVE_MODES, realtimeConfig } from "./config.server";

export type LivePageData = {
  conversationId: string;
  modeTitle: string;
  /** The text and voice-message chat of the same conversation. */
  chatHref: string;
  /** "Resumo da conversa": where "Encerrar" ends. */
  reportHref: string;
  creditsPerMinute: number;
  balance: number;
  buyHref: string;
};

export async function loadLivePage(args: { request: Request; context: AppLoadContext }, target: ChatTarget): Promise<LivePageData> {
  const { request, context } = args;
  const user = await guard(args, target);
  await requireFeature(context, "feature_chat_live");
  if (!realtimeConfig(context.cloudflare.env) || !LIVE_MODES.includes(target.mode)) throw notFound("Conversa ao vivo indisponível.");
  const conversationId = new URL(request.url).searchParams.get("c");
  // Without a conversation, the chat starts one; its page links back here.
  if (!conversationId) throw redirect(target.basePath, { headers: { "Cache-Control": "no-store" } });
  const conversation = await findOwnedConversation(context, user, conversationId).catch((error: unknown) => {
    if (error instanceof ChatError) throw notFound("Conversa não encontrada");
    throw error;
  });
  if (conversation.mode !== target.mode || (target.lesson && conversation.lessonId !== target.lesson.id)) {
    throw notFound("Conversa não encontrada");
  }
  return {
    conversationId: conversation.id,
    modeTitle: target.lesson ? target.lesson.title : CHAT_MODE_INFO[target.mode].title,
    chatHref: `${target.basePath}?c=${conversation.id}`,
    reportHref: conversationReportPath(conversation.id),
    creditsPerMinute: liveCreditsPerMinute(context.cloudflare.env),
    balance: user.monthlyCredits,
    buyHref: "/comprar-creditos",
  };
}
