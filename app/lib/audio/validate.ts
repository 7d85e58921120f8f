// Audio limits shared by the browser island and the server (spec §5 "Audio blob", §9 "Audio").
// Pure module: safe to import on the server and during SSR.

export const WAV_SAMPLE_RATE = 16_000;
export const MIN_AUDIO_BYTES = 1024;
export const MAX_AUDIO_BYTES = 50 * 1024 * 1024; // 52 428 800
export const CHUNK_MS = 250;
export const HIDDEN_RELEASE_MS = 30_000;

export type AudioBlobErrorCode = "empty" | "type" | "too-small" | "too-large";

export interface AudioBlobError {
  code: AudioBlobErrorCode;
  /** Portuguese text for the learner. */
  pt: string;
  /** English text (the spec quotes the empty-recording message in English). */
  en: string;
}

// The spec quotes only the empty-recording text ('Recording is empty - please try again');
// the other messages are ours, kept short and parallel in both languages.
export const AUDIO_BLOB_MESSAGES: Record<AudioBlobErrorCode, { pt: string; en: string }> = {
  empty: {
    pt: "A gravação está vazia - tente novamente",
    en: "Recording is empty - please try again",
  },
  type: {
    pt: "Formato de áudio inválido",
    en: "Invalid audio format",
  },
  "too-small": {
    pt: "Gravação muito curta - tente novamente",
    en: "Recording is too short - please try again",
  },
  "too-large": {
    pt: "Áudio muito grande (máximo 50MB)",
    en: "Audio is too large (maximum 50MB)",
  },
};

export interface AudioBlobLike {
  size: number;
  type: string;
}

/** Checks a recorded/uploaded audio blob; returns null when it is acceptable. */
export function validateAudioBlob(blob: AudioBlobLike | null | undefined): AudioBlobError | null {
  const fail = (code: AudioBlobErrorCode): AudioBlobError => ({ code, ...AUDIO_BLOB_MESSAGES[code] });
  if (!blob || blob.size === 0) return fail("empty");
  if (!isAudioType(blob.type)) return fail("type");
  if (blob.size < MIN_AUDIO_BYTES) return fail("too-small");
  if (blob.size > MAX_AUDIO_BYTES) return fail("too-large");
  return null;
}

export function isAudioType(type: string): boolean {
  return /^audio\/[a-z0-9.+-]+/i.test(type.trim());
}
