// The Workers AI binding (env.AI). Chat streams as SSE `data: {"response":"…"}` … `data: [DONE]`;
// Whisper takes base64 audio; MeloTTS answers base64 MP3. The binding cannot run offline, so only the
// stream and response parsing is unit-tested (workers-ai.test.ts).
import { parseSse } from "~/lib/sse";
import { toWord } from "./openai.server";
import {
  AUDIO_TIMEOUT_MS,
  CHAT_TIMEOUT_MS,
  ProviderError,
  deadline,
  toProviderError,
  type AiProviders,
  type ChatProvider,
  type ProviderOptions,
  type SpeechToText,
  type StructuredChat,
  type TextToSpeech,
  type Transcription,
  type TranscribedWord,
} from "./types";
import { base64ToBytes, bytesToBase64, isRecord } from "./util";

export const WORKERS_AI_MODELS = {
  chat: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
  stt: "@cf/openai/whisper-large-v3-turbo",
  tts: "@cf/myshell-ai/melotts",
} as const;

/** The part of the binding used here; the generated `Ai` overloads are too narrow for a model chosen at runtime. */
export interface AiRunner {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

const NAME = "workers-ai";

/** Rejects with the signal's reason when it aborts first (the binding may not honour the signal itself). */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** Text pieces of a Workers AI chat stream (also accepts the OpenAI-shaped chunks some newer models send). */
export async function* workersAiTokens(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let pieces = 0;
  for await (const event of parseSse(stream)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(event.data);
    } catch {
      throw new ProviderError("bad_response", NAME, `stream chunk is not JSON: ${event.data.slice(0, 80)}`);
    }
    if (!isRecord(parsed)) throw new ProviderError("bad_response", NAME, "stream chunk is not an object");
    let text: unknown = parsed.response;
    if (text === undefined && Array.isArray(parsed.choices)) {
      const choice: unknown = parsed.choices[0];
      const delta = isRecord(choice) ? choice.delta : undefined;
      text = isRecord(delta) ? delta.content : undefined;
    }
    if (text === undefined || text === null) continue; // usage-only chunk
    if (typeof text !== "string") throw new ProviderError("bad_response", NAME, "response is not text");
    if (text) {
      pieces++;
      yield text;
    }
  }
  if (pieces === 0) throw new ProviderError("bad_response", NAME, "stream ended without any text");
}

/** Whisper's answer → Transcription. v3-turbo puts words inside segments; the older model at the top. */
export function parseWhisper(body: unknown): Transcription {
  if (!isRecord(body) || typeof body.text !== "string") throw new ProviderError("bad_response", NAME, "transcription without text");
  const raw: unknown[] = Array.isArray(body.words)
    ? body.words
    : Array.isArray(body.segments)
      ? body.segments.flatMap((s: unknown) => (isRecord(s) && Array.isArray(s.words) ? s.words : []))
      : [];
  const words = raw.map(toWord).filter((w): w is TranscribedWord => w !== null);
  return words.length > 0 ? { text: body.text.trim(), words } : { text: body.text.trim() };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export function createWorkersAiProviders(ai: AiRunner, options: ProviderOptions = {}): AiProviders {
  const chatTimeout = options.chatTimeoutMs ?? CHAT_TIMEOUT_MS;
  const audioTimeout = options.audioTimeoutMs ?? AUDIO_TIMEOUT_MS;

  const chat: ChatProvider = {
    name: NAME,
    async *streamChat(input) {
      const { signal, timedOut } = deadline(chatTimeout, input.signal);
      try {
        const result = await raceSignal(
          ai.run(WORKERS_AI_MODELS.chat, { messages: input.messages, stream: true, max_tokens: input.maxTokens }, { signal }),
          signal,
        );
        if (!(result instanceof ReadableStream)) throw new ProviderError("bad_response", NAME, "chat did not return a stream");
        const stream = result as ReadableStream<Uint8Array>;
        const reader = workersAiTokens(stream)[Symbol.asyncIterator]();
        while (true) {
          const next = await raceSignal(reader.next(), signal).catch(async (error: unknown) => {
            await reader.return?.(undefined).catch(() => {});
            throw error;
          });
          if (next.done) break;
          yield next.value;
        }
      } catch (error) {
        throw toProviderError(error, NAME, timedOut());
      }
    },
  };

  const stt: SpeechToText = {
    name: NAME,
    async transcribe(audio, callerSignal) {
      const { signal, timedOut } = deadline(audioTimeout, callerSignal);
      try {
        const body = await raceSignal(ai.run(WORKERS_AI_MODELS.stt, { audio: bytesToBase64(audio.bytes) }, { signal }), signal);
        return parseWhisper(body);
      } catch (error) {
        throw toProviderError(error, NAME, timedOut());
      }
    },
  };

  const tts: TextToSpeech = {
    name: NAME,
    async synthesize(text, callerSignal) {
      const { signal, timedOut } = deadline(audioTimeout, callerSignal);
      try {
        const body = await raceSignal(ai.run(WORKERS_AI_MODELS.tts, { prompt: text, lang: "en" }, { signal }), signal);
        let bytes: Uint8Array;
        if (isRecord(body) && typeof body.audio === "string") bytes = base64ToBytes(body.audio);
        else if (body instanceof ReadableStream) bytes = await readAll(body as ReadableStream<Uint8Array>);
        else if (body instanceof Uint8Array) bytes = body;
        else throw new ProviderError("bad_response", NAME, "speech without audio");
        if (bytes.length === 0) throw new ProviderError("bad_response", NAME, "empty audio");
        return { bytes, mimeType: "audio/mpeg" };
      } catch (error) {
        throw toProviderError(error, NAME, timedOut());
      }
    },
  };

  // JSON mode (https://developers.cloudflare.com/workers-ai/features/json-mode/): `response` is the object, or its text.
  const structured: StructuredChat = {
    name: NAME,
    async completeJson(input) {
      const { signal, timedOut } = deadline(chatTimeout, input.signal);
      try {
        const body = await raceSignal(
          ai.run(
            WORKERS_AI_MODELS.chat,
            {
              messages: input.messages,
              max_tokens: input.maxTokens,
              response_format: { type: "json_schema", json_schema: input.schema.schema },
            },
            { signal },
          ),
          signal,
        );
        const response = isRecord(body) ? body.response : undefined;
        if (typeof response === "string") return JSON.parse(response);
        if (isRecord(response) || Array.isArray(response)) return response;
        throw new ProviderError("bad_response", NAME, "JSON mode answered without a response");
      } catch (error) {
        throw toProviderError(error, NAME, timedOut());
      }
    },
  };

  return { chat, stt, tts, structured };
}
