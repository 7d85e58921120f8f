// The pronunciation game's automation webhooks of spec §7, for existing deployments:
//   POST {NIKA_PRONUNCIATION_WEBHOOK_URL}         {audio: base64 16 kHz mono WAV, level, sentence, user_id}
//        → the result (overallScore, accuracyScore, completenessScore, pronunciationScore, fluencyScore,
//          wordDetails[{Word, AccuracyScore, ErrorType}]) or {creditsExhausted: true}; 60 s.
//   POST {NIKA_PRONUNCIATION_SOURCE_WEBHOOK_URL}  {user_id, level} → {Level, Sentence, 'Audio URL'}
//        or [{text: '0 monthly credits'}]; 30 s.
//   POST {NIKA_USER_LEVEL_WEBHOOK_URL}            {user_id, 'no-cache': true} → {best_scores_map: {"1": 80}}
//        or a one-item array of it; 30 s, retried 2 times.
// A one-item array is accepted wherever an object is (automation tools often wrap replies in one).
import { ProviderError, deadline, errorFromResponse, toProviderError } from "~/server/ai/types";
import { bytesToBase64, isRecord, withProviderDefaults } from "~/server/ai/util";
import { toWav16kMono } from "./audio";
import { round1 } from "./scoring";
import {
  CreditsExhaustedError,
  WAV_TYPES,
  UnsupportedAudioError,
  baseMimeType,
  type PronouncedWord,
  type PronunciationAssessment,
  type PronunciationEnv,
  type PronunciationErrorType,
  type PronunciationOptions,
  type PronunciationScorer,
} from "./types";

const NAME = "webhook";
const INVALID = "Invalid webhook response";
const ERROR_TYPES = ["None", "Mispronunciation", "Omission", "Insertion"];

const unwrap = (body: unknown): unknown => (Array.isArray(body) && body.length === 1 ? body[0] : body);

/** '0 monthly credits' as the text of a list's first item (the flashcards/source webhooks' way of saying it). */
function saysNoCredits(body: unknown): boolean {
  const first: unknown = Array.isArray(body) ? body[0] : body;
  return isRecord(first) && typeof first.text === "string" && first.text.trim().toLowerCase() === "0 monthly credits";
}

async function postJson(
  doFetch: typeof fetch,
  url: string,
  body: Record<string, unknown>,
  ms: number,
  caller: AbortSignal | undefined,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const { signal, timedOut } = deadline(ms, caller);
  try {
    const response = await doFetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal,
    });
    if (!response.ok) throw await errorFromResponse(response, NAME);
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ProviderError("bad_response", NAME, "Failed to parse webhook response");
    }
  } catch (error) {
    throw toProviderError(error, NAME, timedOut());
  }
}

const score = (value: unknown): number | undefined => {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 && n <= 100 ? round1(n) : undefined;
};

/** The pronunciation-game webhook's answer → our result (CreditsExhaustedError, or bad_response 'Invalid webhook response'). */
export function parsePronunciationReply(raw: unknown): PronunciationAssessment {
  const body = unwrap(raw);
  if (isRecord(body) && body.creditsExhausted === true) throw new CreditsExhaustedError(NAME);
  if (saysNoCredits(raw)) throw new CreditsExhaustedError(NAME);
  if (!isRecord(body) || !Array.isArray(body.wordDetails)) throw new ProviderError("bad_response", NAME, INVALID);
  const names = ["overallScore", "accuracyScore", "completenessScore", "pronunciationScore", "fluencyScore"] as const;
  const scores = names.map((n) => score(body[n]));
  if (scores.some((s) => s === undefined)) throw new ProviderError("bad_response", NAME, INVALID);
  const words: PronouncedWord[] = body.wordDetails.map((w: unknown) => {
    const accuracy = isRecord(w) ? score(w.AccuracyScore) : undefined;
    if (!isRecord(w) || typeof w.Word !== "string" || accuracy === undefined || !ERROR_TYPES.includes(String(w.ErrorType))) {
      throw new ProviderError("bad_response", NAME, INVALID);
    }
    return { word: w.Word, accuracyScore: accuracy, errorType: w.ErrorType as PronunciationErrorType };
  });
  const [overall, accuracy, completeness, pronunciation, fluency] = scores as number[];
  const result: PronunciationAssessment = {
    overallScore: overall!,
    accuracyScore: accuracy!,
    completenessScore: completeness!,
    pronunciationScore: pronunciation!,
    fluencyScore: fluency!,
    words,
    // The contract has no transcript: the words that were said stand for it.
    recognizedText:
      typeof body.recognizedText === "string"
        ? body.recognizedText
        : words
            .filter((w) => w.errorType !== "Omission")
            .map((w) => w.word)
            .join(" "),
  };
  const prosody = score(body.prosodyScore);
  if (prosody !== undefined) result.prosodyScore = prosody;
  return result;
}

export function createWebhookScorer(url: string, options: PronunciationOptions = {}): PronunciationScorer {
  const { fetch: doFetch, audioTimeoutMs } = withProviderDefaults(options);
  return {
    name: NAME,
    acceptedTypes: WAV_TYPES,
    async assess(input, signal) {
      const type = baseMimeType(input.mimeType);
      if (!(WAV_TYPES as readonly string[]).includes(type)) throw new UnsupportedAudioError(`the webhook takes WAV, not ${type}`);
      const audio = bytesToBase64(toWav16kMono(input.bytes));
      const body = { audio, level: input.level, sentence: input.referenceText, user_id: input.userId };
      return parsePronunciationReply(await postJson(doFetch, url, body, audioTimeoutMs, signal));
    },
  };
}

// ——— pronunciation-game-source ———
export type SourceLevel = { creditsExhausted: false; level: number; sentence: string; audioUrl: string | null } | { creditsExhausted: true };

export function parseSourceReply(raw: unknown): SourceLevel {
  if (saysNoCredits(raw)) return { creditsExhausted: true };
  const body = unwrap(raw);
  if (!isRecord(body)) throw new ProviderError("bad_response", NAME, INVALID);
  const level = typeof body.Level === "string" ? Number(body.Level) : body.Level;
  const audio = body["Audio URL"];
  if (typeof level !== "number" || !Number.isInteger(level) || typeof body.Sentence !== "string" || !body.Sentence.trim()) {
    throw new ProviderError("bad_response", NAME, INVALID);
  }
  return { creditsExhausted: false, level, sentence: body.Sentence.trim(), audioUrl: typeof audio === "string" && audio ? audio : null };
}

/** A level from the pronunciation-game-source webhook; null when NIKA_PRONUNCIATION_SOURCE_WEBHOOK_URL is unset. */
export async function fetchLevelFromSource(
  env: Pick<PronunciationEnv, "NIKA_PRONUNCIATION_SOURCE_WEBHOOK_URL">,
  request: { userId: string; level: number },
  options: PronunciationOptions & { signal?: AbortSignal } = {},
): Promise<SourceLevel | null> {
  const url = env.NIKA_PRONUNCIATION_SOURCE_WEBHOOK_URL;
  if (!url) return null;
  const { fetch: doFetch, chatTimeoutMs } = withProviderDefaults(options);
  return parseSourceReply(await postJson(doFetch, url, { user_id: request.userId, level: request.level }, chatTimeoutMs, options.signal));
}

// ——— user-level ———
/** best_scores_map → level → score (levels 1–100 with a numeric score; anything else is ignored). */
export function parseBestScores(raw: unknown): Map<number, number> {
  const body = unwrap(raw);
  if (!isRecord(body) || !isRecord(body.best_scores_map)) throw new ProviderError("bad_response", NAME, INVALID);
  const scores = new Map<number, number>();
  for (const [key, value] of Object.entries(body.best_scores_map)) {
    const level = Number(key);
    const best = score(value);
    if (Number.isInteger(level) && level >= 1 && level <= 100 && best !== undefined) scores.set(level, best);
  }
  return scores;
}

export const USER_LEVEL_RETRIES = 2;

/**
 * The learner's best score per level from the user-level webhook (30 s per attempt, retried 2 times after
 * failures other than a refusal); null when NIKA_USER_LEVEL_WEBHOOK_URL is unset.
 */
export async function fetchBestScores(
  env: Pick<PronunciationEnv, "NIKA_USER_LEVEL_WEBHOOK_URL">,
  userId: string,
  options: PronunciationOptions & { signal?: AbortSignal } = {},
): Promise<Map<number, number> | null> {
  const url = env.NIKA_USER_LEVEL_WEBHOOK_URL;
  if (!url) return null;
  const { fetch: doFetch, chatTimeoutMs } = withProviderDefaults(options);
  const delay = options.retryDelayMs ?? 1000;
  for (let attempt = 0; ; attempt++) {
    try {
      const body = await postJson(doFetch, url, { user_id: userId, "no-cache": true }, chatTimeoutMs, options.signal, {
        "Cache-Control": "no-cache",
      });
      return parseBestScores(body);
    } catch (error) {
      const retryable = error instanceof ProviderError && error.kind !== "refused" && !options.signal?.aborted;
      if (!retryable || attempt >= USER_LEVEL_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
