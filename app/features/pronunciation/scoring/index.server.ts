// Chooses the pronunciation scorer from configuration, first match wins:
//   1. AZURE_SPEECH_KEY with AZURE_SPEECH_REGION or AZURE_SPEECH_ENDPOINT → Azure pronunciation assessment;
//   2. a transcription provider of the chat (OPENAI_BASE_URL, or the Workers AI binding) → our alignment scorer;
//   3. NIKA_PRONUNCIATION_WEBHOOK_URL → the spec §7 pronunciation-game webhook;
//   4. the chat's user-audio webhook (NIKA_CHAT_WEBHOOK_URL + NIKA_USER_AUDIO_WEBHOOK_URL) → alignment over it;
//   5. none → null: the level page says scoring is not available and nothing is spent.
import { getAiProviders } from "~/server/ai/index.server";
import { createAlignmentScorer } from "./alignment.server";
import { createAzureScorer } from "./azure.server";
import type { PronunciationEnv, PronunciationOptions, PronunciationScorer } from "./types";
import { createWebhookScorer } from "./webhook.server";

export function getPronunciationScorer(env: PronunciationEnv, options: PronunciationOptions = {}): PronunciationScorer | null {
  if (env.AZURE_SPEECH_KEY && (env.AZURE_SPEECH_REGION || env.AZURE_SPEECH_ENDPOINT)) {
    return createAzureScorer({ key: env.AZURE_SPEECH_KEY, region: env.AZURE_SPEECH_REGION, endpoint: env.AZURE_SPEECH_ENDPOINT }, options);
  }
  const stt = getAiProviders(env, options)?.stt ?? null;
  if (stt && stt.name !== "webhook") return createAlignmentScorer(stt);
  if (env.NIKA_PRONUNCIATION_WEBHOOK_URL) return createWebhookScorer(env.NIKA_PRONUNCIATION_WEBHOOK_URL, options);
  if (stt) return createAlignmentScorer(stt);
  return null;
}

export { createAlignmentScorer, TRANSCRIPTION_TYPES } from "./alignment.server";
export { createAzureScorer, parseAzureAssessment, assessmentHeader, azureUrl, AZURE_ACCEPTED_TYPES, type AzureConfig } from "./azure.server";
export {
  createWebhookScorer,
  fetchBestScores,
  fetchLevelFromSource,
  parseBestScores,
  parsePronunciationReply,
  parseSourceReply,
  USER_LEVEL_RETRIES,
  type SourceLevel,
} from "./webhook.server";
export { assessTranscription, overallScore, round1 } from "./scoring";
export { toWav16kMono } from "./audio";
export * from "./types";
export { ProviderError, type ProviderErrorKind } from "~/server/ai/types";
