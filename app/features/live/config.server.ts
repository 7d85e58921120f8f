// Whether and how Conversa ao vivo is configured, and the entry the chat page's routes add to that page.
import type { AppLoadContext } from "react-router";
import type { ChatModeId, ChatTarget } from "~/features/conversation";
import type { Env } from "~/server/env";
import { getFlags } from "~/server/flags.server";
import { LIVE_LIMITS } from "./protocol";

export const DEFAULT_LIVE_CREDITS_PER_MINUTE = 1;

/** The modes with a live conversation: the four of the menu and lesson practice (not the level test). */
export const LIVE_MODES: readonly ChatModeId[] = ["portuguese", "english", "game", "roleplay", "lesson"];

/** How the worker tells the LiveConversation object whose session it opens (the object trusts only the worker). */
export const LIVE_HEADERS = { user: "X-Nika-User", conversation: "X-Nika-Conversation", resume: "X-Nika-Resume" } as const;

export type RealtimeConfig = { url: string; apiKey: string; model: string; voice: string };

/** The realtime provider, or null when Conversa ao vivo is not configured (then it is absent everywhere). */
export function realtimeConfig(env: Pick<Env, "OPENAI_REALTIME_URL" | "OPENAI_API_KEY" | "OPENAI_REALTIME_MODEL" | "OPENAI_REALTIME_VOICE">) {
  if (!env.OPENAI_REALTIME_URL || !env.OPENAI_API_KEY) return null;
  return {
    url: env.OPENAI_REALTIME_URL,
    apiKey: env.OPENAI_API_KEY,
    model: env.OPENAI_REALTIME_MODEL ?? "gpt-realtime",
    voice: env.OPENAI_REALTIME_VOICE ?? "marin",
  } satisfies RealtimeConfig;
}

export function liveCreditsPerMinute(env: Pick<Env, "LIVE_CREDITS_PER_MINUTE">): number {
  const value = Number.parseInt(env.LIVE_CREDITS_PER_MINUTE ?? "", 10);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_LIVE_CREDITS_PER_MINUTE;
}

/** Whether a chat page of `mode` offers "Conversa ao vivo": configured, the flag on, a live mode. */
export function liveEntryAvailable(env: Parameters<typeof realtimeConfig>[0], flagOn: boolean, mode: ChatModeId): boolean {
  return flagOn && realtimeConfig(env) !== null && LIVE_MODES.includes(mode);
}

/** The chat page's "Conversa ao vivo" link for this conversation, or null where it is not offered. */
export async function liveEntryHref(context: AppLoadContext, target: ChatTarget, conversationId: string): Promise<string | null> {
  const flags = await getFlags(context);
  if (!liveEntryAvailable(context.cloudflare.env, flags.feature_chat_live, target.mode)) return null;
  return `${target.basePath}/ao-vivo?c=${conversationId}`;
}

export type LiveTimings = { minuteMs: number; maxSessionMs: number; silenceMs: number; resumeMs: number };

/**
 * The session's clock. A minute is 60 s; only under APP_ENV=test may LIVE_MINUTE_MS shorten it (and every limit with
 * it, in proportion), so tests can see minutes pass, the silence rule and the 15-minute limit without waiting for them.
 */
export function liveTimings(env: Pick<Env, "APP_ENV" | "LIVE_MINUTE_MS">): LiveTimings {
  const minuteMs = env.APP_ENV === "test" && env.LIVE_MINUTE_MS ? Number(env.LIVE_MINUTE_MS) : 60_000;
  const scale = minuteMs / 60_000;
  return {
    minuteMs,
    maxSessionMs: LIVE_LIMITS.maxSessionMs * scale,
    silenceMs: LIVE_LIMITS.silenceMs * scale,
    resumeMs: LIVE_LIMITS.resumeMs * scale,
  };
}
