// The flashcard admin's forms, shared by the browser (conform, instant feedback) and the actions (the
// authority): a card (add and edit) and the list's per-card controls (move, hide/show, delete).
import { z } from "zod";
import { isChosenFile, uploadFileSchema } from "~/lib/admin-forms";

export const LIMITS = { word: 60, translation: 80, group: 60 } as const;

export const MESSAGES = {
  wordRequired: "Informe a palavra em inglês",
  wordMax: `Máximo ${LIMITS.word} caracteres`,
  translationRequired: "Informe a tradução",
  translationMax: `Máximo ${LIMITS.translation} caracteres`,
  groupFormat: "Use só letras minúsculas sem acento, números e hífens (ex.: animais-dog)",
  groupMax: `Máximo ${LIMITS.group} caracteres`,
  imageRequired: "Envie uma imagem para o novo cartão",
  deleteConfirm: "Tem certeza que deseja excluir este cartão? Ele deixa de aparecer nos jogos; jogos antigos continuam com ele.",
} as const;

const text = (max: number, required: string, tooLong: string) => z.string({ error: required }).trim().min(1, required).max(max, tooLong);

/** A checkbox: present ("on") or absent. */
const checkbox = z.boolean().optional();

export const cardSchema = z.object({
  word: text(LIMITS.word, MESSAGES.wordRequired, MESSAGES.wordMax),
  translation: text(LIMITS.translation, MESSAGES.translationRequired, MESSAGES.translationMax),
  /** Empty: a group of the card's own (no other card is kept out of its questions). */
  distractor_group: z
    .string()
    .trim()
    .toLowerCase()
    .max(LIMITS.group, MESSAGES.groupMax)
    .regex(/^[a-z0-9-]*$/, MESSAGES.groupFormat)
    .optional(),
  image_file: uploadFileSchema("image"),
  audio_file: uploadFileSchema("audio"),
  /** Back to the shipped picture (drops the uploaded one). */
  restore_image: checkbox,
  /** Drops the uploaded recording (the shipped one plays again while the word is unchanged). */
  restore_audio: checkbox,
});
export type CardInput = z.output<typeof cardSchema>;

/**
 * The add form in the browser: a new card needs a picture (the server checks the same with the file
 * it reads, see `requiredFiles`).
 */
export const newCardSchema = cardSchema.superRefine((card, ctx) => {
  if (!isChosenFile(card.image_file)) ctx.addIssue({ code: "custom", path: ["image_file"], message: MESSAGES.imageRequired });
});

/** The file inputs of the card form. */
export const CARD_FILES = [
  { file: "image_file", url: "image_url", folder: "flashcards", kind: "image" },
  { file: "audio_file", url: "audio_url", folder: "flashcards", kind: "audio" },
] as const;

const cardId = z.uuid({ error: "Cartão inválido" });

/** The list's controls, one small form per card and button (url-encoded, no files). */
export const cardActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("move"), card_id: cardId, direction: z.enum(["up", "down"]) }),
  z.object({ intent: z.literal("hide"), card_id: cardId }),
  z.object({ intent: z.literal("show"), card_id: cardId }),
  /** Without `confirmed=yes` (no JavaScript) the page asks first. */
  z.object({ intent: z.literal("delete"), card_id: cardId, confirmed: z.literal("yes").optional() }),
]);
export type CardAction = z.output<typeof cardActionSchema>;
