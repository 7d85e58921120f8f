// Provider interfaces for Nika's chat and audio. Each implementation speaks a real protocol
// (OpenAI-compatible HTTP, the Workers AI binding, the automation-webhook contract of spec §7).
import { errorMessage } from "~/lib/errors";

export type ChatRole = "system" | "user" | "assistant";
export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface ChatContext {
  sessionId?: string;
  mode?: string;
  userId?: string;
}

export interface ChatInput {
  messages: ChatMessage[];
  maxTokens: number;
  signal?: AbortSignal;
  /** Extra context some providers need (the webhook contract); others ignore it. */
  context?: ChatContext;
}

export interface ChatProvider {
  readonly name: string;
  /** Yields the reply text in pieces, in order. Throws ProviderError. */
  streamChat(input: ChatInput): AsyncIterable<string>;
}

export interface AudioInput {
  bytes: Uint8Array;
  mimeType: string;
  /** Extra context the webhook contract sends along; other providers ignore it. */
  context?: ChatContext;
}

export interface TranscribedWord {
  word: string;
  start: number;
  end: number;
  confidence?: number;
}

export interface Transcription {
  text: string;
  words?: TranscribedWord[];
}

export interface SpeechToText {
  readonly name: string;
  transcribe(audio: AudioInput, signal?: AbortSignal): Promise<Transcription>;
}

export interface SynthesizedAudio {
  bytes: Uint8Array;
  mimeType: string;
}

export interface TextToSpeech {
  readonly name: string;
  synthesize(text: string, signal?: AbortSignal): Promise<SynthesizedAudio>;
}

/** A JSON Schema the answer must follow (OpenAI's `response_format: json_schema`, Workers AI's JSON mode). */
export interface JsonSchemaSpec {
  name: string;
  schema: Record<string, unknown>;
}

export interface StructuredInput {
  messages: ChatMessage[];
  schema: JsonSchemaSpec;
  maxTokens: number;
  signal?: AbortSignal;
}

export interface StructuredChat {
  readonly name: string;
  /** One completion held to `schema`, parsed as JSON; the caller validates it. Throws ProviderError. */
  completeJson(input: StructuredInput): Promise<unknown>;
}

export interface AiProviders {
  chat: ChatProvider;
  /** Structured answers (the review of a learner's turn); absent where the provider has none (the webhooks). */
  structured?: StructuredChat;
  stt: SpeechToText | null;
  /** Null → the player falls back to the browser's speech synthesis. */
  tts: TextToSpeech | null;
}

export type ProviderErrorKind = "timeout" | "unreachable" | "bad_response" | "refused";

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly provider: string;
  readonly status?: number;
  constructor(kind: ProviderErrorKind, provider: string, message: string, options?: { status?: number; cause?: unknown }) {
    super(`[${provider}] ${kind}: ${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProviderError";
    this.kind = kind;
    this.provider = provider;
    this.status = options?.status;
  }
}

/** Timeouts of spec §7: 30 s for chat, 60 s for audio processing. */
export const CHAT_TIMEOUT_MS = 30_000;
export const AUDIO_TIMEOUT_MS = 60_000;

export interface ProviderOptions {
  chatTimeoutMs?: number;
  audioTimeoutMs?: number;
  fetch?: typeof fetch;
}

/** The caller's signal combined with a timeout; `timedOut()` tells the two apart afterwards. */
export function deadline(ms: number, caller?: AbortSignal): { signal: AbortSignal; timedOut: () => boolean } {
  const timeout = AbortSignal.timeout(ms);
  const signal = caller ? AbortSignal.any([caller, timeout]) : timeout;
  return { signal, timedOut: () => timeout.aborted && !caller?.aborted };
}

/** Maps anything thrown while talking to a provider to a ProviderError. */
export function toProviderError(error: unknown, provider: string, timedOut: boolean): ProviderError {
  if (error instanceof ProviderError) return error;
  const name = error instanceof Error ? error.name : "";
  const message = errorMessage(error);
  if (timedOut || name === "TimeoutError") return new ProviderError("timeout", provider, "no answer in time", { cause: error });
  if (name === "AbortError") return new ProviderError("unreachable", provider, "request aborted", { cause: error });
  if (error instanceof SyntaxError) return new ProviderError("bad_response", provider, message, { cause: error });
  return new ProviderError("unreachable", provider, message, { cause: error });
}

/** HTTP status → ProviderError (401/403 refused, 429/5xx unreachable, other 4xx refused). */
export async function errorFromResponse(response: Response, provider: string): Promise<ProviderError> {
  const detail = (await response.text().catch(() => "")).slice(0, 200);
  const kind: ProviderErrorKind = response.status === 429 || response.status >= 500 ? "unreachable" : "refused";
  return new ProviderError(kind, provider, `HTTP ${response.status} ${detail}`.trim(), { status: response.status });
}
