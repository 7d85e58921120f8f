// What every admin form shares between the browser and the server: the answer of an action that does
// not redirect (the conform reply + a refusal code), and the rules of its uploads — pictures and
// recordings: limits, the types they are sniffed as, the pt-BR messages, the zod part of a file input
// (declared type and size, for instant feedback) and the browser's pre-flight check by content.
// The server's check by content is app/server/admin-forms.server.ts.
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { AUDIO_MAX_BYTES, IMAGE_MAX_BYTES, INLINE_IMAGE_TYPES, sniffAudio, sniffImage, type SniffedAudio, type SniffedImage } from "./media";

// ——— answers ———

/** Why an admin action refused; the page branches on this, never on the message. */
export type AdminRefusal =
  | "image_too_large"
  | "image_type"
  | "audio_too_large"
  | "audio_type"
  | "file_required"
  | "unreadable"
  | "not_found"
  | "image_failed"
  | "audio_failed"
  | "save_failed"
  | "no_file"
  | "file_too_large"
  | "storage_failed"
  | "unknown_intent";

/**
 * What an admin action answers when it does not redirect: the conform reply (field errors, the kept
 * input, and the refusal as form errors `[title, description]`) and the refusal's code (null when the
 * fields alone are wrong).
 */
export type AdminActionData = { result: SubmissionResult<string[]>; code: AdminRefusal | null };

/** The form errors of an action's reply (`[title, description]`), for a form that is not conform's. */
export const formErrorsOf = (result: SubmissionResult<string[]> | undefined) => result?.error?.[""] ?? undefined;

// ——— uploads ———

export const UPLOAD_MESSAGES = {
  imageType: "Por favor selecione um arquivo de imagem",
  imageTooLarge: "Imagem muito grande. Máximo 5MB",
  audioType: "Por favor selecione um arquivo de áudio (MP3, WAV, OGG, M4A ou WebM)",
  audioTooLarge: "Áudio muito grande. Máximo 2MB",
  /** A body over the cap of a form with both kinds of file (refused before it is read). */
  filesTooLarge: "Arquivos muito grandes. Imagem até 5MB, áudio até 2MB",
} as const;

export type UploadKind = "image" | "audio";

export type UploadRule = {
  maxBytes: number;
  /** The type by content (magic bytes), or null when the file is not one we keep. */
  sniff: (bytes: Uint8Array) => SniffedImage | SniffedAudio | null;
  /** Whether a browser's declared type may be this kind (the server decides by content). */
  declared: (type: string) => boolean;
  typeMessage: string;
  tooLargeMessage: string;
  /** The start of a refusal's description: `Falha ao enviar imagem: …`. */
  failure: string;
  refusals: { type: AdminRefusal; tooLarge: AdminRefusal; failed: AdminRefusal };
};

export const UPLOAD_RULES: Record<UploadKind, UploadRule> = {
  image: {
    maxBytes: IMAGE_MAX_BYTES,
    sniff: sniffImage,
    declared: (type) => INLINE_IMAGE_TYPES.has(type),
    typeMessage: UPLOAD_MESSAGES.imageType,
    tooLargeMessage: UPLOAD_MESSAGES.imageTooLarge,
    failure: "Falha ao enviar imagem",
    refusals: { type: "image_type", tooLarge: "image_too_large", failed: "image_failed" },
  },
  audio: {
    maxBytes: AUDIO_MAX_BYTES,
    sniff: sniffAudio,
    // Browsers name recordings loosely (audio/x-m4a, audio/x-wav, video/webm, or nothing at all).
    declared: (type) => type === "" || type.startsWith("audio/") || type === "video/webm",
    typeMessage: UPLOAD_MESSAGES.audioType,
    tooLargeMessage: UPLOAD_MESSAGES.audioTooLarge,
    failure: "Falha ao enviar áudio",
    refusals: { type: "audio_type", tooLarge: "audio_too_large", failed: "audio_failed" },
  },
};

/** The `accept` of a file input of this kind. */
export const UPLOAD_ACCEPT: Record<UploadKind, string> = {
  image: "image/*",
  audio: "audio/*,.mp3,.wav,.ogg,.m4a,.webm",
};

const isFile = (value: unknown): value is File => typeof File !== "undefined" && value instanceof File;

/** A file input's value that is a chosen file (an empty input sends a nameless empty file). */
export const isChosenFile = (value: unknown): value is File => isFile(value) && !(value.size === 0 && value.name === "");

/**
 * A file input of a schema. In the browser this mirrors the server's checks (size first — an
 * oversized file is dropped unread — then the declared type); the server reads the file itself and
 * checks it by content (magic bytes). Empty inputs are "no file".
 */
export function uploadFileSchema(kind: UploadKind) {
  const rule = UPLOAD_RULES[kind];
  return z
    .any()
    .optional()
    .superRefine((value, ctx) => {
      if (!isChosenFile(value)) return;
      if (value.size > rule.maxBytes) ctx.addIssue({ code: "custom", message: rule.tooLargeMessage });
      else if (!rule.declared(value.type)) ctx.addIssue({ code: "custom", message: rule.typeMessage });
    });
}

/**
 * What is wrong with a file chosen in the browser, checked as the server checks it: over the limit
 * first (the server drops such a file unread), then its first bytes.
 */
export function chosenFileError(kind: UploadKind, size: number, head: Uint8Array): string | null {
  const rule = UPLOAD_RULES[kind];
  if (size > rule.maxBytes) return rule.tooLargeMessage;
  return rule.sniff(head) ? null : rule.typeMessage;
}
