// Nika's greeting: the free first turn of a conversation, claimed so that two tabs never greet twice, streamed and
// stored like a reply (sending.server's reply half).
import { and, eq, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { assertModeEnabled, buildChatMessages, findOwnedConversation, type FoundConversation, type UserRef } from "~/features/conversation";
import { chatConversations } from "~/features/conversation";
import { errorMessage } from "~/lib/errors";
import { getAiProviders } from "~/server/ai/index.server";
import { toProviderError, type AiProviders } from "~/server/ai/types";
import { drive, providerFailure, storeNikaReply, streamReply, unavailable, type ChatOptions, type GreetResult } from "./sending.server";

/**
 * The greeting endpoint's stream: finds the learner's conversation and claims its greeting in one statement (which
 * also re-checks a kept session), checks its mode's flag (kept per isolate), then asks the provider — one statement
 * before the provider's request. A conversation that has begun, or whose greeting another request holds, is
 * `already_started`; a greeting that ends without being stored frees its claim for the next try.
 */
export async function* greetConversationStream(
  context: AppLoadContext,
  user: UserRef,
  conversationId: string,
  options: Omit<ChatOptions, "onToken" | "onEvent"> = {},
): AsyncGenerator<string, GreetResult> {
  const providers = getAiProviders(context.cloudflare.env, options.providerOptions);
  const conversation = await findOwnedConversation(context, user, conversationId, {
    session: options.session,
    claimGreeting: providers !== null,
  });
  let stored = false;
  try {
    await assertModeEnabled(context, conversation.mode);
    if (!providers) return unavailable();
    if (conversation.started) return { status: "already_started" };
    if (!conversation.greetingClaim) return { status: "already_started", elsewhere: true };
    const result = yield* askForGreeting(context, providers, conversation, options.signal);
    stored = result.status === "ok";
    return result;
  } finally {
    if (conversation.greetingClaim && !stored) await releaseGreetingClaim(context, conversation.id, conversation.greetingClaim);
  }
}

/** Nika's first message of a conversation: free of charge, streamed, stored. */
export function greet(context: AppLoadContext, user: UserRef, conversationId: string, options: ChatOptions = {}): Promise<GreetResult> {
  return drive(greetConversationStream(context, user, conversationId, options), options);
}

/** Streams the greeting of a conversation whose greeting this request holds, and stores it. */
async function* askForGreeting(
  context: AppLoadContext,
  providers: AiProviders,
  conversation: FoundConversation,
  signal: AbortSignal | undefined,
): AsyncGenerator<string, GreetResult> {
  const built = buildChatMessages({
    mode: conversation.mode,
    lesson: conversation.lesson ?? undefined,
    focus: conversation.focus,
    history: [],
    userText: null,
  });
  let raw: string;
  try {
    raw = yield* streamReply(
      providers,
      built,
      { conversationId: conversation.id, mode: conversation.mode, userId: conversation.userId },
      signal,
    );
  } catch (error) {
    const failure = toProviderError(error, providers.chat.name, false);
    console.warn("chat greet failed", failure.message);
    return providerFailure(failure.kind);
  }
  // Dated from its claim: a message another tab sent while it streamed comes after it, as the learner saw it.
  const { reply } = await storeNikaReply(context, providers, conversation, raw, conversation.greetingClaim ?? undefined);
  return { status: "ok", reply };
}

/**
 * Frees the claim this request took (only that one: a claim that expired and was taken again stays). When the
 * database cannot be reached the claim simply expires after GREETING_CLAIM_TTL_SECONDS.
 */
async function releaseGreetingClaim(context: AppLoadContext, conversationId: string, claimedAt: string): Promise<void> {
  await context.db
    .update(chatConversations)
    .set({ greetingClaimedAt: null })
    .where(and(eq(chatConversations.id, conversationId), eq(chatConversations.greetingClaimedAt, sql`${claimedAt}::timestamptz`)))
    .catch((error: unknown) => console.warn("chat: greeting claim not released", errorMessage(error)));
}
