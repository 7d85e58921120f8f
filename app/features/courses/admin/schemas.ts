// Admin forms of spec §5 (module, lesson, courses banner), shared by the browser (conform, instant
// feedback) and the actions (the authority). Exact pt-BR messages where the spec gives them; generic
// English ones (zod 3 wording, as the spec quotes) elsewhere.
import { z } from "zod";
import { UPLOAD_MESSAGES, uploadFileSchema } from "~/lib/admin-forms";
import { checkEmbedCode, videoFromUrl, VIDEO_URL_NOT_SUPPORTED } from "~/lib/video-embed";

export const MESSAGES = {
  titleMin: "Mínimo 3 caracteres",
  titleMax: "Máximo 200 caracteres",
  lessonDescriptionMax: "Máximo 1000 caracteres",
  videoRequired: "Forneça uma URL de vídeo ou código iframe",
  imageType: UPLOAD_MESSAGES.imageType,
  imageTooLarge: UPLOAD_MESSAGES.imageTooLarge,
  materialTooLarge: "Arquivo muito grande (máximo 50MB)",
  removeConfirm: "Tem certeza que deseja remover este arquivo? Esta ação não pode ser desfeita.",
  gradient: "Gradiente inválido: use linear-gradient(…), radial-gradient(…) ou conic-gradient(…) com cores.",
} as const;

// ——— generic (English) messages ———
export const GENERIC = {
  required: "Required",
  max: (n: number) => `String must contain at most ${n} character(s)`,
  integer: "Expected integer, received float",
  number: "Expected number, received nan",
  nonNegative: "Number must be greater than or equal to 0",
  url: "Invalid url",
  yesNo: "Invalid enum value. Expected 'yes' | 'no'",
} as const;

export const LIMITS = {
  title: 200,
  moduleDescription: 500,
  bannerTitle: 200,
  bannerSubtitle: 500,
  lessonDescription: 1000,
  url: 2000,
  iframe: 5000,
  gradient: 300,
} as const;

const title = z.string({ error: MESSAGES.titleMin }).trim().min(3, MESSAGES.titleMin).max(LIMITS.title, MESSAGES.titleMax);

const optionalText = (max: number, message: string = GENERIC.max(max)) => z.string().trim().max(max, message).optional();

/** An image address: one of ours (`/media/…`) or an http(s) URL. */
const imageUrl = z
  .string()
  .trim()
  .max(LIMITS.url, GENERIC.max(LIMITS.url))
  .refine((value) => value === "" || isImageUrl(value), GENERIC.url)
  .optional();

export function isImageUrl(value: string): boolean {
  if (value.startsWith("/media/")) return true;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

const count = z
  .number({ error: (issue) => (issue.input === undefined ? GENERIC.required : GENERIC.number) })
  .int(GENERIC.integer)
  .min(0, GENERIC.nonNegative)
  .max(2_147_483_647, "Number must be less than or equal to 2147483647");

/** A chosen image file (checked by content on the server). Empty inputs are "no file". */
const imageFile = uploadFileSchema("image");

export const moduleSchema = z.object({
  title,
  description: optionalText(LIMITS.moduleDescription),
  image_url: imageUrl,
  image_file: imageFile,
  banner_url: imageUrl,
  banner_file: imageFile,
  banner_title: optionalText(LIMITS.bannerTitle),
  banner_subtitle: optionalText(LIMITS.bannerSubtitle),
  available: z.enum(["yes", "no"], { error: GENERIC.yesNo }),
  order_index: count,
});
export type ModuleInput = z.output<typeof moduleSchema>;
export const MODULE_IMAGE_FIELDS = { image_file: "image_url", banner_file: "banner_url" } as const;

export const lessonSchema = z
  .object({
    title,
    description: optionalText(LIMITS.lessonDescription, MESSAGES.lessonDescriptionMax),
    video_url: z
      .string()
      .trim()
      .max(LIMITS.url, GENERIC.max(LIMITS.url))
      .refine((value) => value === "" || videoFromUrl(value) !== null, VIDEO_URL_NOT_SUPPORTED)
      .optional(),
    iframe: z
      .string()
      .trim()
      .max(LIMITS.iframe, GENERIC.max(LIMITS.iframe))
      .superRefine((value, ctx) => {
        if (value === "") return;
        const check = checkEmbedCode(value);
        if (!check.ok) ctx.addIssue({ code: "custom", message: check.message });
      })
      .optional(),
    thumbnail_url: imageUrl,
    thumbnail_file: imageFile,
    duration_seconds: count,
    order_index: count,
  })
  .refine((lesson) => Boolean(lesson.video_url?.trim() || lesson.iframe?.trim()), {
    message: MESSAGES.videoRequired,
    path: ["video_url"],
    when: () => true, // also while other fields are invalid
  });
export type LessonInput = z.output<typeof lessonSchema>;
export const LESSON_IMAGE_FIELDS = { thumbnail_file: "thumbnail_url" } as const;

/** A CSS gradient made of colours and numbers only (no url(), no other declarations). */
export function isSafeGradient(value: string): boolean {
  return /^(repeating-)?(linear|radial|conic)-gradient\(\s*[#a-z0-9%.,()\s-]+\)$/i.test(value) && !/url|expression|var\(/i.test(value);
}

export const bannerSchema = z.object({
  title: optionalText(LIMITS.bannerTitle),
  subtitle: optionalText(LIMITS.bannerSubtitle),
  background_image_url: imageUrl,
  background_image_file: imageFile,
  background_gradient: z
    .string()
    .trim()
    .max(LIMITS.gradient, GENERIC.max(LIMITS.gradient))
    .refine((value) => value === "" || isSafeGradient(value), MESSAGES.gradient)
    .optional(),
  is_active: z.boolean().optional(),
});
export type BannerInput = z.output<typeof bannerSchema>;
export const BANNER_IMAGE_FIELDS = { background_image_file: "background_image_url" } as const;

/** "" and undefined become null for the database. */
export const orNull = (value: string | undefined | null) => (value && value.length > 0 ? value : null);
