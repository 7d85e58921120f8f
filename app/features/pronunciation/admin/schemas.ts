// The pronunciation admin's level form, shared by the browser (conform, instant feedback) and the action
// (the authority): the English sentence the learner reads and is scored against, its pt-BR translation,
// an optional recording that replaces the reference audio, and the way back to the shipped recording.
import { z } from "zod";
import { uploadFileSchema } from "~/lib/admin-forms";

export const LIMITS = { sentence: 200, translation: 300 } as const;

/**
 * What a sentence may contain: English letters, spaces and basic punctuation — what the scorers align
 * word by word (no digits: "3" could be read "three"; no accents or symbols). At least one letter.
 */
export const SENTENCE_PATTERN = /^(?=.*[A-Za-z])[A-Za-z ,.!?;:'’-]+$/;

export const MESSAGES = {
  sentenceRequired: "Informe a frase em inglês",
  sentenceMax: `Máximo ${LIMITS.sentence} caracteres`,
  sentenceFormat: "Use só letras sem acento, espaços e pontuação simples (. , ! ? ; : ' -)",
  translationRequired: "Informe a tradução",
  translationMax: `Máximo ${LIMITS.translation} caracteres`,
} as const;

export const levelSchema = z.object({
  /** Trimmed and checked (one message at a time); then runs of spaces made one. */
  sentence: z
    .string({ error: MESSAGES.sentenceRequired })
    .trim()
    .min(1, { error: MESSAGES.sentenceRequired, abort: true })
    .max(LIMITS.sentence, { error: MESSAGES.sentenceMax, abort: true })
    .regex(SENTENCE_PATTERN, MESSAGES.sentenceFormat)
    .transform((sentence) => sentence.replace(/ {2,}/g, " ")),
  translation: z
    .string({ error: MESSAGES.translationRequired })
    .trim()
    .min(1, MESSAGES.translationRequired)
    .max(LIMITS.translation, MESSAGES.translationMax),
  audio_file: uploadFileSchema("audio"),
  /** Back to the shipped recording (drops the uploaded one); only when there is a shipped one. */
  restore_audio: z.boolean().optional(),
});
export type LevelInput = z.output<typeof levelSchema>;

/** The file input of the level form: a recording (sniffed, 2 MB, as the flashcards' word recordings). */
export const LEVEL_FILES = [{ file: "audio_file", url: "audio_url", folder: "pronunciation", kind: "audio" }] as const;
