// The realtime provider's side of the relay: opening its WebSocket from the Durable Object and the few events of the
// OpenAI Realtime protocol (GA) the relay sends. Any provider that speaks that protocol works (OPENAI_REALTIME_URL).
import { Buffer } from "node:buffer";
import type { RealtimeConfig } from "./config.server";
import { LIVE_SAMPLE_RATE } from "./protocol";

/** How long the provider may take to accept the socket and then to answer session.update. */
export const PROVIDER_CONNECT_TIMEOUT_MS = 10_000;
/** A turn the learner finished must get Nika's response started within this time, or the provider is taken as stalled. */
export const PROVIDER_RESPONSE_TIMEOUT_MS = 15_000;
/** The model that writes the learner's captions. */
export const INPUT_TRANSCRIPTION_MODEL = "gpt-4o-mini-transcribe";

export class ProviderUnavailableError extends Error {
  override name = "ProviderUnavailableError";
}

/** Opens the provider's WebSocket (workerd: a fetch with `Upgrade: websocket` to the http(s) form of the URL). */
export async function openProviderSocket(config: RealtimeConfig): Promise<WebSocket> {
  const url = new URL(config.url);
  url.protocol = url.protocol === "wss:" ? "https:" : "http:";
  url.searchParams.set("model", config.model);
  let response: Response;
  // workerd ties a fetch's signal to the WebSocket it returns: the timeout must be cleared once the socket is here,
  // or it would cut the session when it fires (AbortSignal.timeout cannot be cleared).
  const connecting = new AbortController();
  const timeout = setTimeout(() => connecting.abort(), PROVIDER_CONNECT_TIMEOUT_MS);
  try {
    response = await fetch(url, {
      headers: { Upgrade: "websocket", Authorization: `Bearer ${config.apiKey}` },
      signal: connecting.signal,
    });
  } catch (error) {
    throw new ProviderUnavailableError(`could not reach the realtime provider: ${String(error)}`);
  } finally {
    clearTimeout(timeout);
  }
  const socket = response.webSocket;
  if (!socket) throw new ProviderUnavailableError(`the realtime provider answered ${response.status} instead of a WebSocket`);
  socket.accept();
  return socket;
}

/** session.update: the mode's instructions, the voice, PCM16 both ways, captions of the learner, server VAD. */
export function sessionUpdate(config: RealtimeConfig, instructions: string) {
  const format = { type: "audio/pcm", rate: LIVE_SAMPLE_RATE };
  return {
    type: "session.update",
    session: {
      type: "realtime",
      model: config.model,
      instructions,
      output_modalities: ["audio"],
      audio: {
        input: {
          format,
          transcription: { model: INPUT_TRANSCRIPTION_MODEL },
          noise_reduction: { type: "near_field" },
          // The relay cancels and truncates itself on barge-in, with the milliseconds the learner actually heard.
          turn_detection: {
            type: "server_vad",
            threshold: 0.5,
            prefix_padding_ms: 300,
            silence_duration_ms: 500,
            create_response: true,
            interrupt_response: false,
          },
        },
        output: { format, voice: config.voice },
      },
    },
  };
}

export const appendAudio = (pcm: ArrayBuffer) => ({ type: "input_audio_buffer.append", audio: Buffer.from(pcm).toString("base64") });
export const cancelResponse = () => ({ type: "response.cancel" });
export const truncateItem = (itemId: string, audioEndMs: number) => ({
  type: "conversation.item.truncate",
  item_id: itemId,
  content_index: 0,
  audio_end_ms: audioEndMs,
});

/** The base64 PCM of an audio delta as bytes to send on. */
export function decodeAudio(base64: string): Uint8Array {
  return Buffer.from(base64, "base64");
}

/** The provider events the relay reads (GA names; the beta's `response.audio.*` are read as the same). */
export type ProviderEvent = {
  type: string;
  item_id?: string;
  delta?: string;
  transcript?: string;
  response?: { id?: string; status?: string };
  item?: { id?: string; role?: string };
  error?: { type?: string; code?: string; message?: string };
};

export function parseProviderEvent(data: unknown): ProviderEvent | null {
  if (typeof data !== "string") return null;
  try {
    const event = JSON.parse(data) as ProviderEvent;
    if (!event || typeof event.type !== "string") return null;
    if (event.type === "response.audio.delta") event.type = "response.output_audio.delta";
    else if (event.type === "response.audio_transcript.delta") event.type = "response.output_audio_transcript.delta";
    else if (event.type === "response.audio_transcript.done") event.type = "response.output_audio_transcript.done";
    return event;
  } catch {
    return null;
  }
}

/** Errors that end the session (the provider failed), as opposed to a refused request of ours (e.g. nothing to cancel). */
export const isFatalProviderError = (event: ProviderEvent) => event.error?.type !== "invalid_request_error";
