// Azure Speech pronunciation assessment over the short-audio REST API:
//   POST {base}/speech/recognition/conversation/cognitiveservices/v1?language=en-US&format=detailed
//   Ocp-Apim-Subscription-Key: {key}
//   Content-Type: audio/wav; codecs=audio/pcm; samplerate=16000   (or audio/ogg; codecs=opus)
//   Pronunciation-Assessment: base64(JSON {ReferenceText, GradingSystem, Granularity, Dimension, EnableMiscue})
// base = AZURE_SPEECH_ENDPOINT, else https://{AZURE_SPEECH_REGION}.stt.speech.microsoft.com. 60 s timeout.
// The answer's scores and words come flat on NBest[0] (the REST reference) or nested under
// `PronunciationAssessment` (the how-to guide); both are read. NoMatch / InitialSilenceTimeout / BabbleTimeout
// (nothing recognisable was said) → a result with every reference word omitted and every score 0.
import { ProviderError, deadline, errorFromResponse, toProviderError } from "~/server/ai/types";
import { bytesToBase64, isRecord, trimBase, withProviderDefaults } from "~/server/ai/util";
import { isOggOpus, toWav16kMono } from "./audio";
import { normalizeWords } from "./normalize";
import { nothingRecognised, overallScore, round1 } from "./scoring";
import {
  WAV_TYPES,
  UnsupportedAudioError,
  baseMimeType,
  type PronouncedWord,
  type PronunciationAssessment,
  type PronunciationErrorType,
  type PronunciationOptions,
  type PronunciationScorer,
} from "./types";

export interface AzureConfig {
  key: string;
  region?: string;
  endpoint?: string;
}

const NAME = "azure";
export const AZURE_PATH = "/speech/recognition/conversation/cognitiveservices/v1";
const SILENT_STATUSES = new Set(["NoMatch", "InitialSilenceTimeout", "BabbleTimeout"]);
const ERROR_TYPES = new Set<PronunciationErrorType>(["None", "Mispronunciation", "Omission", "Insertion"]);

export function azureUrl(config: AzureConfig): string {
  const base = config.endpoint ? trimBase(config.endpoint) : `https://${config.region}.stt.speech.microsoft.com`;
  return `${base}${AZURE_PATH}?language=en-US&format=detailed`;
}

/** The `Pronunciation-Assessment` header: base64 of the UTF-8 JSON parameters. */
export function assessmentHeader(referenceText: string): string {
  const json = JSON.stringify({
    ReferenceText: referenceText,
    GradingSystem: "HundredMark",
    Granularity: "Phoneme",
    Dimension: "Comprehensive",
    EnableMiscue: true,
  });
  return bytesToBase64(new TextEncoder().encode(json));
}

const num = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

/** A score read flat from `item` or from `item.PronunciationAssessment`. */
function score(item: Record<string, unknown>, name: string): number | undefined {
  const nested = isRecord(item.PronunciationAssessment) ? item.PronunciationAssessment : {};
  return num(item[name]) ?? num(nested[name]);
}

function parseWord(raw: unknown): PronouncedWord {
  if (!isRecord(raw) || typeof raw.Word !== "string") throw new ProviderError("bad_response", NAME, "word without text");
  const nested = isRecord(raw.PronunciationAssessment) ? raw.PronunciationAssessment : {};
  const errorType = raw.ErrorType ?? nested.ErrorType ?? "None";
  const accuracy = score(raw, "AccuracyScore") ?? (errorType === "Omission" || errorType === "Insertion" ? 0 : undefined);
  if (accuracy === undefined) throw new ProviderError("bad_response", NAME, `word "${raw.Word}" without AccuracyScore`);
  // Prosody error types (UnexpectedBreak, MissingBreak, Monotone) are not pronunciation errors.
  const type: PronunciationErrorType = ERROR_TYPES.has(errorType as PronunciationErrorType) ? (errorType as PronunciationErrorType) : "None";
  return { word: raw.Word, accuracyScore: round1(accuracy), errorType: type };
}

/** Azure's detailed answer → our result. Exported for unit tests. */
export function parseAzureAssessment(body: unknown, referenceText: string): PronunciationAssessment {
  if (!isRecord(body) || typeof body.RecognitionStatus !== "string")
    throw new ProviderError("bad_response", NAME, "answer without RecognitionStatus");
  const status = body.RecognitionStatus;
  if (SILENT_STATUSES.has(status)) return nothingRecognised(referenceText);
  if (status !== "Success") {
    throw new ProviderError(status === "Error" ? "unreachable" : "bad_response", NAME, `RecognitionStatus ${status}`);
  }
  const best: unknown = Array.isArray(body.NBest) ? body.NBest[0] : undefined;
  if (!isRecord(best)) throw new ProviderError("bad_response", NAME, "answer without NBest");
  const accuracy = score(best, "AccuracyScore");
  const fluency = score(best, "FluencyScore");
  const completeness = score(best, "CompletenessScore");
  if (accuracy === undefined || fluency === undefined || completeness === undefined) {
    throw new ProviderError("bad_response", NAME, "answer without pronunciation scores");
  }
  const prosody = score(best, "ProsodyScore");
  const computed = overallScore({
    accuracy: round1(accuracy),
    fluency: round1(fluency),
    completeness: round1(completeness),
    prosody: prosody === undefined ? undefined : round1(prosody),
  });
  const pron = score(best, "PronScore");
  const overall = pron === undefined ? computed : round1(pron);
  const words = Array.isArray(best.Words) ? best.Words.map(parseWord) : [];
  const text = [best.Display, body.DisplayText, best.Lexical].find((t): t is string => typeof t === "string") ?? "";
  const result: PronunciationAssessment = {
    overallScore: overall,
    accuracyScore: round1(accuracy),
    fluencyScore: round1(fluency),
    completenessScore: round1(completeness),
    pronunciationScore: overall,
    words: words.length > 0 ? words : normalizeWords(referenceText).map((word) => ({ word, accuracyScore: 0, errorType: "Omission" as const })),
    recognizedText: text.trim(),
  };
  if (prosody !== undefined) result.prosodyScore = round1(prosody);
  return result;
}

export const AZURE_ACCEPTED_TYPES = [...WAV_TYPES, "audio/ogg"] as const;

export function createAzureScorer(config: AzureConfig, options: PronunciationOptions = {}): PronunciationScorer {
  const { fetch: doFetch, audioTimeoutMs } = withProviderDefaults(options);
  const url = azureUrl(config);
  return {
    name: NAME,
    acceptedTypes: AZURE_ACCEPTED_TYPES,
    async assess(input, callerSignal) {
      const type = baseMimeType(input.mimeType);
      let body: Uint8Array;
      let contentType: string;
      if (type === "audio/ogg") {
        if (!isOggOpus(input.bytes)) throw new UnsupportedAudioError("Azure reads Ogg audio only with Opus inside");
        body = input.bytes;
        contentType = "audio/ogg; codecs=opus";
      } else if ((WAV_TYPES as readonly string[]).includes(type)) {
        body = toWav16kMono(input.bytes);
        contentType = "audio/wav; codecs=audio/pcm; samplerate=16000";
      } else {
        throw new UnsupportedAudioError(`Azure does not read ${type}`);
      }
      const { signal, timedOut } = deadline(audioTimeoutMs, callerSignal);
      try {
        const response = await doFetch(url, {
          method: "POST",
          headers: {
            "Ocp-Apim-Subscription-Key": config.key,
            "Content-Type": contentType,
            Accept: "application/json",
            "Pronunciation-Assessment": assessmentHeader(input.referenceText),
          },
          body: new Uint8Array(body),
          signal,
        });
        if (!response.ok) throw await errorFromResponse(response, NAME);
        return parseAzureAssessment(await response.json(), input.referenceText);
      } catch (error) {
        throw toProviderError(error, NAME, timedOut());
      }
    },
  };
}
