// Chooses Nika's AI providers from configuration, in this order:
//   1. OPENAI_BASE_URL set → any OpenAI-compatible API (chat stream, transcription, speech);
//   2. the Workers AI binding (env.AI);
//   3. the spec §7 automation webhooks (NIKA_CHAT_WEBHOOK_URL, NIKA_USER_AUDIO_WEBHOOK_URL);
//   4. none → null, and the chat screen says "Nika não está disponível". There are no canned replies.
import type { Env } from "../env";
import { createOpenAiProviders } from "./openai.server";
import type { AiProviders, ProviderOptions } from "./types";
import { createWebhookProviders } from "./webhook.server";
import { createWorkersAiProviders, type AiRunner } from "./workers-ai.server";

export type AiEnv = Pick<
  Env,
  | "OPENAI_BASE_URL"
  | "OPENAI_API_KEY"
  | "OPENAI_CHAT_MODEL"
  | "OPENAI_REVIEW_MODEL"
  | "OPENAI_TRANSCRIBE_MODEL"
  | "OPENAI_TTS_MODEL"
  | "AI"
  | "NIKA_CHAT_WEBHOOK_URL"
  | "NIKA_USER_AUDIO_WEBHOOK_URL"
>;

export const NIKA_UNAVAILABLE = "Nika não está disponível";

export function getAiProviders(env: AiEnv, options: ProviderOptions = {}): AiProviders | null {
  if (env.OPENAI_BASE_URL) {
    return createOpenAiProviders(
      {
        baseUrl: env.OPENAI_BASE_URL,
        apiKey: env.OPENAI_API_KEY,
        chatModel: env.OPENAI_CHAT_MODEL,
        reviewModel: env.OPENAI_REVIEW_MODEL,
        transcribeModel: env.OPENAI_TRANSCRIBE_MODEL,
        ttsModel: env.OPENAI_TTS_MODEL,
      },
      options,
    );
  }
  if (env.AI) return createWorkersAiProviders(env.AI as unknown as AiRunner, options);
  if (env.NIKA_CHAT_WEBHOOK_URL) {
    const { chat, stt } = createWebhookProviders({ chatUrl: env.NIKA_CHAT_WEBHOOK_URL, userAudioUrl: env.NIKA_USER_AUDIO_WEBHOOK_URL }, options);
    if (chat) return { chat, stt, tts: null };
  }
  return null;
}

export * from "./types";
