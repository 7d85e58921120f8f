// The pronunciation scorers' contract. Scores are 0–100 with one decimal; the result's field names
// follow the spec §3 pronunciation result (wordDetails → `words`).
import type { AiEnv } from "~/server/ai/index.server";
import { ProviderError, type ProviderOptions } from "~/server/ai/types";
import type { Env } from "~/server/env";

export type PronunciationErrorType = "None" | "Mispronunciation" | "Omission" | "Insertion";

export interface PronouncedWord {
  word: string;
  accuracyScore: number;
  errorType: PronunciationErrorType;
}

export interface PronunciationAssessment {
  overallScore: number;
  accuracyScore: number;
  fluencyScore: number;
  completenessScore: number;
  pronunciationScore: number;
  prosodyScore?: number;
  /** Reference words in order (Omission included), with recognised extra words (Insertion) where they were said. */
  words: PronouncedWord[];
  /** What the recogniser heard ("" when nothing was recognised). */
  recognizedText: string;
}

export interface PronunciationInput {
  bytes: Uint8Array;
  mimeType: string;
  referenceText: string;
  level: number;
  userId: string;
}

export type PronunciationScorerName = "azure" | "alignment" | "webhook";

export interface PronunciationScorer {
  readonly name: PronunciationScorerName;
  /** Audio MIME types (lower-case, no parameters) this scorer can read; the route answers 415 for others. */
  readonly acceptedTypes: readonly string[];
  /**
   * Throws ProviderError on timeout/unreachable/bad_response/refused (a CreditsExhaustedError when the webhook
   * says the learner has no credits), and UnsupportedAudioError when the bytes are not audio it can read.
   */
  assess(input: PronunciationInput, signal?: AbortSignal): Promise<PronunciationAssessment>;
}

export type PronunciationEnv = AiEnv &
  Pick<
    Env,
    | "AZURE_SPEECH_KEY"
    | "AZURE_SPEECH_REGION"
    | "AZURE_SPEECH_ENDPOINT"
    | "NIKA_PRONUNCIATION_WEBHOOK_URL"
    | "NIKA_PRONUNCIATION_SOURCE_WEBHOOK_URL"
    | "NIKA_USER_LEVEL_WEBHOOK_URL"
  >;

export interface PronunciationOptions extends ProviderOptions {
  /** Wait between the user-level webhook's attempts (default 1 000 ms). */
  retryDelayMs?: number;
}

/** The automation service answered that the learner is out of credits (`creditsExhausted: true`, '0 monthly credits'). */
export class CreditsExhaustedError extends ProviderError {
  readonly creditsExhausted = true;
  constructor(provider: string) {
    super("refused", provider, "CREDITS_EXHAUSTED");
    this.name = "CreditsExhaustedError";
  }
}

export const isCreditsExhausted = (error: unknown): error is CreditsExhaustedError =>
  error instanceof ProviderError && (error as Partial<CreditsExhaustedError>).creditsExhausted === true;

/**
 * The bytes are not audio this scorer can read (e.g. a WAV that is not PCM, an Ogg file that is not Opus).
 * Not a provider failure: the route answers 415 and refunds the credit.
 */
export class UnsupportedAudioError extends Error {
  override name = "UnsupportedAudioError";
}

/** MIME type without parameters, lower-case ("audio/webm;codecs=opus" → "audio/webm"). */
export function baseMimeType(mimeType: string): string {
  return mimeType.split(";")[0]!.trim().toLowerCase();
}

export const WAV_TYPES = ["audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave"] as const;
