// Shared steps of the admin edit actions: read the multipart form within the limits, validate it with
// the zod schema, check chosen images by content, store them, and clean up objects afterwards.
import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { z } from "zod";
import { errorMessage } from "~/lib/errors";
import { BODY_MESSAGES, BodyTooLargeError, FORM_OVERHEAD_BYTES } from "~/server/request.server";
import {
  deleteQuietly,
  IMAGE_MAX_BYTES,
  imageKey,
  keyFromPublicUrl,
  mediaBucket,
  publicPath,
  putObject,
  sniffImage,
  type ImageFolder,
  type MediaBucket,
} from "~/server/storage.server";
import { MESSAGES } from "./schemas";
import { readFormWithFiles, type BufferedFile } from "./uploads.server";

/** A file input of a form and the URL field it fills. */
export type ImageField = { file: string; url: string; folder: ImageFolder };

export type PendingImage = { field: ImageField; bytes: Uint8Array; mime: string; ext: string; filename: string };

export type ParsedAdminForm<Output> =
  | { kind: "too_large" }
  | { kind: "unreadable"; message: string }
  | { kind: "invalid"; submission: Submission<unknown, string[], Output>; imageErrors: Record<string, string[]> }
  | { kind: "valid"; submission: Submission<unknown, string[], Output>; value: Output; images: PendingImage[] };

/** Image problems by content: not an image we display (magic bytes) or over 5 MB. */
export function checkImage(file: BufferedFile): { ok: true; mime: string; ext: string } | { ok: false; message: string } {
  if (file.bytes === null || file.size > IMAGE_MAX_BYTES) return { ok: false, message: MESSAGES.imageTooLarge };
  const sniffed = sniffImage(file.bytes);
  return sniffed ? { ok: true, ...sniffed } : { ok: false, message: MESSAGES.imageType };
}

/**
 * Reads and validates an admin form. The body may carry at most one 5 MB image per image field (plus
 * the text fields): a larger declared Content-Length is refused before reading; bytes are counted
 * while reading; oversized files are never kept in memory.
 */
export async function parseAdminForm<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  imageFields: readonly ImageField[],
): Promise<ParsedAdminForm<z.output<Schema>>> {
  let formData: FormData;
  let files: Map<string, BufferedFile>;
  try {
    ({ formData, files } = await readFormWithFiles(request, {
      fields: imageFields.map((f) => f.file),
      maxFileBytes: IMAGE_MAX_BYTES,
      maxBodyBytes: imageFields.length * IMAGE_MAX_BYTES + FORM_OVERHEAD_BYTES,
    }));
  } catch (error) {
    // The body helper refuses by status: too large (413) and broken (400) keep the form's own messages.
    if ((error instanceof Response && error.status === 413) || error instanceof BodyTooLargeError) return { kind: "too_large" };
    if (error instanceof Response && error.status !== 400) throw error; // not a form at all (415)
    if (error instanceof Response) return { kind: "unreadable", message: BODY_MESSAGES.unreadable };
    return { kind: "unreadable", message: errorMessage(error) };
  }

  const submission = parseWithZod(formData, { schema }) as Submission<unknown, string[], z.output<Schema>>;
  const imageErrors: Record<string, string[]> = {};
  const images: PendingImage[] = [];
  for (const field of imageFields) {
    const file = files.get(field.file);
    if (!file) continue;
    const check = checkImage(file);
    if (!check.ok) imageErrors[field.file] = [check.message];
    else images.push({ field, bytes: file.bytes!, mime: check.mime, ext: check.ext, filename: file.filename });
  }
  if (submission.status !== "success" || Object.keys(imageErrors).length > 0) {
    return { kind: "invalid", submission, imageErrors };
  }
  return { kind: "valid", submission, value: submission.value, images };
}

/** Stores the images (all or none); returns the public path for each URL field. */
export async function storeImages(bucket: MediaBucket, images: PendingImage[]): Promise<Record<string, string>> {
  const stored: string[] = [];
  const urls: Record<string, string> = {};
  try {
    for (const image of images) {
      const key = imageKey(image.field.folder, image.ext);
      await putObject(bucket, key, image.bytes, { contentType: image.mime, originalName: image.filename });
      stored.push(key);
      urls[image.field.url] = publicPath(key);
    }
  } catch (error) {
    await deleteQuietly(bucket, stored);
    throw error;
  }
  return urls;
}

export type SaveOutcome =
  | { status: "ok"; imagesUploaded: number }
  | { status: "not_found" }
  | { status: "image_failed"; message: string }
  | { status: "failed"; message: string };

/**
 * The save step every admin form shares: store new images, run `save` with their URLs, then delete
 * the objects that are no longer referenced (replaced or cleared images in our storage). If `save`
 * fails or finds nothing, the new objects are deleted again, so nothing is left behind.
 */
export async function saveWithImages(
  context: AppLoadContext,
  images: PendingImage[],
  save: (urls: Record<string, string>) => Promise<{ old: (string | null)[]; current: (string | null)[] } | null>,
): Promise<SaveOutcome> {
  const bucket = images.length > 0 ? mediaBucket(context) : null;
  let urls: Record<string, string> = {};
  if (bucket) {
    try {
      urls = await storeImages(bucket, images);
    } catch (error) {
      console.error("admin: image upload failed", error);
      return { status: "image_failed", message: errorMessage(error) };
    }
  }
  const newKeys = Object.values(urls).map((url) => keyFromPublicUrl(url));
  let saved: Awaited<ReturnType<typeof save>>;
  try {
    saved = await save(urls);
  } catch (error) {
    if (bucket) await deleteQuietly(bucket, newKeys);
    console.error("admin: save failed", error);
    return { status: "failed", message: errorMessage(error) };
  }
  if (!saved) {
    if (bucket) await deleteQuietly(bucket, newKeys);
    return { status: "not_found" };
  }
  const appUrl = context.cloudflare.env.APP_URL;
  const still = new Set(saved.current.map((url) => keyFromPublicUrl(url, appUrl)).filter(Boolean));
  const unused = saved.old.map((url) => keyFromPublicUrl(url, appUrl)).filter((key) => key && !still.has(key));
  if (unused.length > 0) await deleteQuietly(mediaBucket(context), unused);
  return { status: "ok", imagesUploaded: images.length };
}
