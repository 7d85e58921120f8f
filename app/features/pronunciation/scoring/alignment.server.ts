// Our own scorer over any transcription provider configured for the chat (OpenAI-compatible verbose_json with
// word timestamps, Workers AI Whisper, or the user-audio webhook). The reference sentence is never sent to the
// recogniser (as a prompt it would make the recogniser agree with it); scoring.ts compares afterwards.
import type { SpeechToText } from "~/server/ai/types";
import { assessTranscription } from "./scoring";
import { WAV_TYPES, baseMimeType, UnsupportedAudioError, type PronunciationScorer } from "./types";

/** What OpenAI's /audio/transcriptions and Whisper read (flac, m4a, mp3, mp4, mpeg, ogg, wav, webm). */
export const TRANSCRIPTION_TYPES = [
  ...WAV_TYPES,
  "audio/mpeg",
  "audio/mp3",
  "audio/mp4",
  "audio/x-m4a",
  "audio/m4a",
  "audio/aac",
  "audio/webm",
  "audio/ogg",
  "audio/flac",
  "audio/x-flac",
] as const;

export function createAlignmentScorer(stt: SpeechToText): PronunciationScorer {
  // The user-audio webhook of spec §7 takes base64 WAV only.
  const acceptedTypes: readonly string[] = stt.name === "webhook" ? WAV_TYPES : TRANSCRIPTION_TYPES;
  return {
    name: "alignment",
    acceptedTypes,
    async assess(input, signal) {
      const type = baseMimeType(input.mimeType);
      if (!acceptedTypes.includes(type)) throw new UnsupportedAudioError(`${stt.name} does not read ${type}`);
      const transcription = await stt.transcribe(
        { bytes: input.bytes, mimeType: type, context: { userId: input.userId, mode: "pronunciation" } },
        signal,
      );
      return assessTranscription(input.referenceText, transcription);
    },
  };
}
