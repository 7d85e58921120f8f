// The automation-webhook contract of spec §7, for existing deployments:
//   POST {NIKA_CHAT_WEBHOOK_URL}        body { sessionID, mode, userText, userAudio, userId } → [{ text, url }]
//   POST {NIKA_USER_AUDIO_WEBHOOK_URL}  body { sessionID, mode, userAudio, userId }           → [{ text (transcription), url }]
// Audio goes as base64 WAV. Timeouts: 30 s default, 60 s audio processing.
import {
  ProviderError,
  deadline,
  errorFromResponse,
  toProviderError,
  type ChatContext,
  type ChatProvider,
  type ProviderOptions,
  type SpeechToText,
} from "./types";
import { bytesToBase64, isRecord, withProviderDefaults } from "./util";

export interface WebhookConfig {
  chatUrl?: string;
  userAudioUrl?: string;
}

export interface WebhookReply {
  text: string;
  url: string | null;
}

const NAME = "webhook";

/** The contract's answer: a list whose first item has `text` (and `url`). A bare object is accepted too. */
export function parseWebhookReply(body: unknown): WebhookReply {
  const first: unknown = Array.isArray(body) ? body[0] : body;
  if (!isRecord(first) || typeof first.text !== "string") throw new ProviderError("bad_response", NAME, "Invalid webhook response");
  return { text: first.text, url: typeof first.url === "string" && first.url ? first.url : null };
}

export function createWebhookProviders(
  config: WebhookConfig,
  options: ProviderOptions = {},
): { chat: ChatProvider | null; stt: SpeechToText | null } {
  const { fetch: doFetch, chatTimeoutMs, audioTimeoutMs } = withProviderDefaults(options);

  async function call(url: string, body: Record<string, unknown>, ms: number, caller?: AbortSignal): Promise<WebhookReply> {
    const { signal, timedOut } = deadline(ms, caller);
    try {
      const response = await doFetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        signal,
      });
      if (!response.ok) throw await errorFromResponse(response, NAME);
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ProviderError("bad_response", NAME, "Failed to parse webhook response");
      }
      return parseWebhookReply(parsed);
    } catch (error) {
      throw toProviderError(error, NAME, timedOut());
    }
  }

  const ctx = (c: ChatContext | undefined) => ({ sessionID: c?.sessionId ?? null, mode: c?.mode ?? null, userId: c?.userId ?? null });

  const chat: ChatProvider | null = config.chatUrl
    ? {
        name: NAME,
        async *streamChat(input) {
          // The webhook keeps its own conversation per sessionID; it takes only the learner's latest text.
          const lastUser = [...input.messages].reverse().find((m) => m.role === "user");
          const { sessionID, mode, userId } = ctx(input.context);
          const reply = await call(
            config.chatUrl!,
            { sessionID, mode, userText: lastUser?.content ?? "", userAudio: null, userId },
            chatTimeoutMs,
            input.signal,
          );
          if (!reply.text.trim()) throw new ProviderError("bad_response", NAME, "empty reply");
          yield reply.text;
        },
      }
    : null;

  const stt: SpeechToText | null = config.userAudioUrl
    ? {
        name: NAME,
        async transcribe(audio, signal) {
          const { sessionID, mode, userId } = ctx(audio.context);
          const reply = await call(
            config.userAudioUrl!,
            { sessionID, mode, userAudio: bytesToBase64(audio.bytes), userId },
            audioTimeoutMs,
            signal,
          );
          return { text: reply.text.trim() };
        },
      }
    : null;

  return { chat, stt };
}
