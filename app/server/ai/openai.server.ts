// Any OpenAI-compatible HTTP API (OpenAI, Groq, OpenRouter, a local server):
//   POST {base}/chat/completions      (stream: true → SSE `data: {"choices":[{"delta":{"content":…}}]}` … `data: [DONE]`)
//   POST {base}/audio/transcriptions  (multipart; response_format=verbose_json, timestamp_granularities[]=word)
//   POST {base}/audio/speech          (JSON → audio bytes)
// Timeouts: 30 s chat, 60 s audio (spec §7), combined with the caller's signal.
import { parseSse } from "~/lib/sse";
import {
  ProviderError,
  deadline,
  errorFromResponse,
  toProviderError,
  type AiProviders,
  type AudioInput,
  type ChatInput,
  type ChatProvider,
  type ProviderOptions,
  type SpeechToText,
  type StructuredChat,
  type StructuredInput,
  type SynthesizedAudio,
  type TextToSpeech,
  type Transcription,
  type TranscribedWord,
} from "./types";
import { extensionFor, isRecord, trimBase, withProviderDefaults } from "./util";

export interface OpenAiConfig {
  baseUrl: string;
  apiKey?: string;
  chatModel?: string;
  /** The model of the structured review calls (default: the chat model). */
  reviewModel?: string;
  transcribeModel?: string;
  ttsModel?: string;
  ttsVoice?: string;
}

export const OPENAI_DEFAULTS = {
  chatModel: "gpt-4o-mini",
  // verbose_json with word timestamps is a whisper-1 feature on OpenAI itself; other servers accept their own names.
  transcribeModel: "whisper-1",
  ttsModel: "tts-1",
  ttsVoice: "nova",
} as const;

const NAME = "openai";

export function createOpenAiProviders(config: OpenAiConfig, options: ProviderOptions = {}): AiProviders {
  const base = trimBase(config.baseUrl);
  const { fetch: doFetch, chatTimeoutMs, audioTimeoutMs } = withProviderDefaults(options);
  const auth: Record<string, string> = config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {};

  async function post(path: string, init: { body: BodyInit; json?: boolean; signal: AbortSignal }): Promise<Response> {
    const response = await doFetch(`${base}${path}`, {
      method: "POST",
      headers: { ...auth, ...(init.json ? { "Content-Type": "application/json" } : {}) },
      body: init.body,
      signal: init.signal,
    });
    if (!response.ok) throw await errorFromResponse(response, NAME);
    return response;
  }

  const chat: ChatProvider = {
    name: NAME,
    async *streamChat(input: ChatInput) {
      const { signal, timedOut } = deadline(chatTimeoutMs, input.signal);
      try {
        const response = await post("/chat/completions", {
          json: true,
          signal,
          body: JSON.stringify({
            model: config.chatModel || OPENAI_DEFAULTS.chatModel,
            messages: input.messages,
            max_tokens: input.maxTokens,
            stream: true,
          }),
        });
        const type = response.headers.get("content-type") ?? "";
        if (type.includes("application/json")) {
          // A server that ignored `stream: true` — accept the whole completion as one piece.
          const text = nonStreamContent(await response.json());
          if (!text) throw new ProviderError("bad_response", NAME, "completion without text");
          yield text;
          return;
        }
        if (!response.body) throw new ProviderError("bad_response", NAME, "empty body");
        let pieces = 0;
        for await (const event of parseSse(response.body)) {
          const delta = streamDelta(event.data);
          if (delta) {
            pieces++;
            yield delta;
          }
        }
        if (pieces === 0) throw new ProviderError("bad_response", NAME, "stream ended without any text");
      } catch (error) {
        throw toProviderError(error, NAME, timedOut());
      }
    },
  };

  const stt: SpeechToText = {
    name: NAME,
    async transcribe(audio: AudioInput, callerSignal?: AbortSignal): Promise<Transcription> {
      const { signal, timedOut } = deadline(audioTimeoutMs, callerSignal);
      try {
        const form = new FormData();
        form.append("file", new Blob([new Uint8Array(audio.bytes)], { type: audio.mimeType }), `audio.${extensionFor(audio.mimeType)}`);
        form.append("model", config.transcribeModel || OPENAI_DEFAULTS.transcribeModel);
        form.append("response_format", "verbose_json");
        form.append("timestamp_granularities[]", "word");
        const response = await post("/audio/transcriptions", { body: form, signal });
        return parseVerboseTranscription(await response.json());
      } catch (error) {
        throw toProviderError(error, NAME, timedOut());
      }
    },
  };

  const tts: TextToSpeech = {
    name: NAME,
    async synthesize(text: string, callerSignal?: AbortSignal): Promise<SynthesizedAudio> {
      const { signal, timedOut } = deadline(audioTimeoutMs, callerSignal);
      try {
        const response = await post("/audio/speech", {
          json: true,
          signal,
          body: JSON.stringify({
            model: config.ttsModel || OPENAI_DEFAULTS.ttsModel,
            voice: config.ttsVoice || OPENAI_DEFAULTS.ttsVoice,
            input: text,
            response_format: "mp3",
          }),
        });
        const mimeType = (response.headers.get("content-type") ?? "audio/mpeg").split(";")[0]!.trim();
        if (!mimeType.startsWith("audio/") && mimeType !== "application/octet-stream") {
          throw new ProviderError("bad_response", NAME, `speech answered ${mimeType}`);
        }
        const bytes = new Uint8Array(await response.arrayBuffer());
        if (bytes.length === 0) throw new ProviderError("bad_response", NAME, "empty audio");
        return { bytes, mimeType: mimeType === "application/octet-stream" ? "audio/mpeg" : mimeType };
      } catch (error) {
        throw toProviderError(error, NAME, timedOut());
      }
    },
  };

  const structured: StructuredChat = {
    name: NAME,
    async completeJson(input: StructuredInput): Promise<unknown> {
      const { signal, timedOut } = deadline(chatTimeoutMs, input.signal);
      try {
        const response = await post("/chat/completions", {
          json: true,
          signal,
          body: JSON.stringify({
            model: config.reviewModel || config.chatModel || OPENAI_DEFAULTS.chatModel,
            messages: input.messages,
            max_tokens: input.maxTokens,
            response_format: { type: "json_schema", json_schema: { name: input.schema.name, schema: input.schema.schema, strict: true } },
          }),
        });
        return JSON.parse(nonStreamContent(await response.json()));
      } catch (error) {
        throw toProviderError(error, NAME, timedOut());
      }
    },
  };

  return { chat, stt, tts, structured };
}

/** One SSE `data` payload of a chat-completions stream → its text delta (may be ""). */
export function streamDelta(data: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new ProviderError("bad_response", NAME, `stream chunk is not JSON: ${data.slice(0, 80)}`);
  }
  if (!isRecord(parsed)) throw new ProviderError("bad_response", NAME, "stream chunk is not an object");
  if (isRecord(parsed.error)) throw new ProviderError("bad_response", NAME, `stream error: ${String(parsed.error.message ?? "")}`);
  const choices = parsed.choices;
  if (!Array.isArray(choices)) throw new ProviderError("bad_response", NAME, "stream chunk without choices");
  const first: unknown = choices[0];
  if (first === undefined) return ""; // e.g. a final usage-only chunk
  if (!isRecord(first)) throw new ProviderError("bad_response", NAME, "malformed choice");
  const delta = first.delta;
  if (delta === undefined) return "";
  if (!isRecord(delta)) throw new ProviderError("bad_response", NAME, "malformed delta");
  const content = delta.content;
  if (content === undefined || content === null) return "";
  if (typeof content !== "string") throw new ProviderError("bad_response", NAME, "delta content is not text");
  return content;
}

function nonStreamContent(body: unknown): string {
  if (!isRecord(body) || !Array.isArray(body.choices)) throw new ProviderError("bad_response", NAME, "completion without choices");
  const first: unknown = body.choices[0];
  const message = isRecord(first) ? first.message : undefined;
  const content = isRecord(message) ? message.content : undefined;
  if (typeof content !== "string") throw new ProviderError("bad_response", NAME, "completion without text");
  return content;
}

export function parseVerboseTranscription(body: unknown): Transcription {
  if (!isRecord(body) || typeof body.text !== "string") throw new ProviderError("bad_response", NAME, "transcription without text");
  const words = Array.isArray(body.words) ? body.words.map(toWord).filter((w): w is TranscribedWord => w !== null) : undefined;
  return words && words.length > 0 ? { text: body.text.trim(), words } : { text: body.text.trim() };
}

export function toWord(raw: unknown): TranscribedWord | null {
  if (!isRecord(raw) || typeof raw.word !== "string" || typeof raw.start !== "number" || typeof raw.end !== "number") return null;
  const word: TranscribedWord = { word: raw.word.trim(), start: raw.start, end: raw.end };
  const confidence = typeof raw.confidence === "number" ? raw.confidence : typeof raw.probability === "number" ? raw.probability : undefined;
  if (confidence !== undefined) word.confidence = confidence;
  return word;
}
