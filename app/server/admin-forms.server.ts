// The admin edit forms' server side, one shape for every feature (Teacher FLIX, flashcards): read the
// multipart form within the limits, validate it with the zod schema, check the chosen pictures and
// recordings by content, store them, save, delete the objects no longer referenced, and answer with a
// redirect + flash toast (saved) or the conform reply (kept input, field errors, the refusal as form
// errors [title, description]) + a code, 4xx (refused) or 5xx (failed).
// The guard (admin + feature flag) is each feature's; the browser side is ~/components/admin.
import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type AppLoadContext } from "react-router";
import type { z } from "zod";
import { UPLOAD_MESSAGES, UPLOAD_RULES, type AdminActionData, type AdminRefusal, type UploadKind } from "~/lib/admin-forms";
import { errorMessage } from "~/lib/errors";
import { BodyTooLargeError, FORM_OVERHEAD_BYTES, refusalMessage } from "./request.server";
import {
  deleteQuietly,
  keyFromPublicUrl,
  mediaBucket,
  publicPath,
  putObject,
  uploadKey,
  type MediaBucket,
  type UploadFolder,
} from "./storage.server";
import { redirectWithToast } from "./toast.server";
import { readFormWithFiles, type BufferedFile } from "./uploads.server";

/** A file input of a form, the URL field it fills (`/media/<key>` once stored) and what it takes. */
export type UploadField = { file: string; url: string; folder: UploadFolder; kind?: UploadKind };

export type PendingUpload = { field: UploadField; bytes: Uint8Array; mime: string; ext: string; filename: string };

/** The refusal of a form's files: its code, status and form errors. */
type FileRefusal = { code: AdminRefusal; status: number; formErrors: string[] };

export type ParsedAdminForm<Output> =
  | { kind: "too_large"; refusal: FileRefusal }
  | { kind: "unreadable"; message: string }
  | { kind: "invalid"; submission: Submission<unknown, string[], Output>; fileErrors: Record<string, string[]>; refusal: FileRefusal | null }
  | { kind: "valid"; submission: Submission<unknown, string[], Output>; value: Output; uploads: PendingUpload[] };

const kindOf = (field: UploadField): UploadKind => field.kind ?? "image";

/** A refusal's form errors: the admin forms' "Erro" title and the reason. */
const errorFormErrors = (description: string) => ["Erro", description];
const uploadFailure = (kind: UploadKind, message: string) => errorFormErrors(`${UPLOAD_RULES[kind].failure}: ${message}`);

/** Problems of a file by content: over its limit (then never kept in memory) or not a type we keep (magic bytes). */
export function checkUpload(file: BufferedFile, kind: UploadKind): { ok: true; mime: string; ext: string } | { ok: false; tooLarge: boolean } {
  const rule = UPLOAD_RULES[kind];
  if (file.bytes === null || file.size > rule.maxBytes) return { ok: false, tooLarge: true };
  const sniffed = rule.sniff(file.bytes);
  return sniffed ? { ok: true, ...sniffed } : { ok: false, tooLarge: false };
}

/** The refusal of a body over the form's cap, said for the kinds of file the form takes. */
function bodyTooLarge(fields: readonly UploadField[]): FileRefusal {
  const kinds = [...new Set(fields.map(kindOf))];
  if (kinds.length === 1) {
    const rule = UPLOAD_RULES[kinds[0]!];
    return { code: rule.refusals.tooLarge, status: 413, formErrors: uploadFailure(kinds[0]!, rule.tooLargeMessage) };
  }
  return { code: "file_too_large", status: 413, formErrors: errorFormErrors(`Falha ao enviar arquivos: ${UPLOAD_MESSAGES.filesTooLarge}`) };
}

/**
 * Reads and validates an admin form. The body may carry at most one file per upload field, each
 * within its kind's limit (5 MB pictures, 2 MB recordings), plus the text fields: a larger declared
 * Content-Length is refused before reading; bytes are counted while reading; oversized files are
 * never kept in memory. `required` names the upload fields the form must carry, with their message.
 */
export async function parseAdminForm<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  fields: readonly UploadField[],
  required: Readonly<Record<string, string>> = {},
): Promise<ParsedAdminForm<z.output<Schema>>> {
  let formData: FormData;
  let files: Map<string, BufferedFile>;
  const limits = Object.fromEntries(fields.map((field) => [field.file, UPLOAD_RULES[kindOf(field)].maxBytes]));
  try {
    ({ formData, files } = await readFormWithFiles(request, {
      fields: fields.map((f) => f.file),
      maxFileBytes: limits,
      maxBodyBytes: Object.values(limits).reduce((sum, limit) => sum + limit, 0) + FORM_OVERHEAD_BYTES,
    }));
  } catch (error) {
    // The body helper refuses by status: too large (413) and broken (400) keep the form's own messages.
    if ((error instanceof Response && error.status === 413) || error instanceof BodyTooLargeError) {
      return { kind: "too_large", refusal: bodyTooLarge(fields) };
    }
    if (error instanceof Response && error.status !== 400) throw error; // not a form at all (415)
    if (error instanceof Response) return { kind: "unreadable", message: await refusalMessage(error) }; // broken, or a field sent twice
    return { kind: "unreadable", message: errorMessage(error) };
  }

  const submission = parseWithZod(formData, { schema }) as Submission<unknown, string[], z.output<Schema>>;
  const fileErrors: Record<string, string[]> = {};
  const uploads: PendingUpload[] = [];
  let refusal: FileRefusal | null = null;
  for (const field of fields) {
    const file = files.get(field.file);
    const kind = kindOf(field);
    if (!file) {
      const missing = required[field.file];
      if (missing) {
        fileErrors[field.file] = [missing];
        refusal ??= { code: "file_required", status: 400, formErrors: errorFormErrors(missing) };
      }
      continue;
    }
    const check = checkUpload(file, kind);
    if (check.ok) {
      uploads.push({ field, bytes: file.bytes!, mime: check.mime, ext: check.ext, filename: file.filename });
      continue;
    }
    const rule = UPLOAD_RULES[kind];
    const message = check.tooLarge ? rule.tooLargeMessage : rule.typeMessage;
    fileErrors[field.file] = [message];
    // The first problem names the refusal: a file over its limit is a 413, any other a 400.
    refusal ??= {
      code: check.tooLarge ? rule.refusals.tooLarge : rule.refusals.type,
      status: check.tooLarge ? 413 : 400,
      formErrors: uploadFailure(kind, message),
    };
  }
  if (submission.status !== "success" || refusal) return { kind: "invalid", submission, fileErrors, refusal };
  return { kind: "valid", submission, value: submission.value, uploads };
}

class UploadError extends Error {
  constructor(
    readonly kind: UploadKind,
    cause: unknown,
  ) {
    super(errorMessage(cause), { cause });
  }
}

/** Stores the uploads (all or none); returns the public path for each URL field. */
export async function storeUploads(bucket: MediaBucket, uploads: PendingUpload[]): Promise<Record<string, string>> {
  const stored: string[] = [];
  const urls: Record<string, string> = {};
  for (const upload of uploads) {
    const key = uploadKey(upload.field.folder, upload.ext);
    try {
      await putObject(bucket, key, upload.bytes, { contentType: upload.mime, originalName: upload.filename });
    } catch (error) {
      await deleteQuietly(bucket, stored);
      throw new UploadError(kindOf(upload.field), error);
    }
    stored.push(key);
    urls[upload.field.url] = publicPath(key);
  }
  return urls;
}

/** What a save answers: the stored URLs it replaced (old) and the ones it now points to (current). */
export type SavedUploads = { old: (string | null)[]; current: (string | null)[] };

export type SaveOutcome<Saved> =
  | { status: "ok"; saved: Saved }
  | { status: "not_found" }
  | { status: "upload_failed"; kind: UploadKind; message: string }
  | { status: "failed"; message: string };

/**
 * The save step every admin form shares: store new files, run `save` with their URLs, then delete
 * the objects that are no longer referenced (replaced or cleared files in our storage). If `save`
 * fails or finds nothing, the new objects are deleted again, so nothing is left behind.
 */
export async function saveWithUploads<Saved extends SavedUploads>(
  context: AppLoadContext,
  uploads: PendingUpload[],
  save: (urls: Record<string, string>) => Promise<Saved | null>,
): Promise<SaveOutcome<Saved>> {
  const bucket = uploads.length > 0 ? mediaBucket(context) : null;
  let urls: Record<string, string> = {};
  if (bucket) {
    try {
      urls = await storeUploads(bucket, uploads);
    } catch (error) {
      console.error("admin: upload failed", error);
      return { status: "upload_failed", kind: error instanceof UploadError ? error.kind : "image", message: errorMessage(error) };
    }
  }
  const newKeys = Object.values(urls).map((url) => keyFromPublicUrl(url));
  let saved: Saved | null;
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
  return { status: "ok", saved };
}

// ——— answers ———

/**
 * The conform reply of a refusal that has no submission (the body was refused or broken before it was
 * read): only the form errors, and no `initialValue`, so the browser keeps what was typed.
 */
export const refusalResult = (formErrors: string[]): SubmissionResult<string[]> => ({ status: "error", error: { "": formErrors } });

/** The answer of an admin action that does not redirect. */
export const adminReply = (result: SubmissionResult<string[]>, code: AdminRefusal | null, status: number) =>
  data<AdminActionData>({ result, code }, { status });

export async function handleAdminSave<Schema extends z.ZodType, Saved extends SavedUploads>(options: {
  request: Request;
  context: AppLoadContext;
  schema: Schema;
  /** The form's file inputs (pictures unless `kind: "audio"`). */
  files: readonly UploadField[];
  /** File inputs the form must carry, with the message when one is missing (a new card's picture). */
  requiredFiles?: Readonly<Record<string, string>>;
  save: (value: z.output<Schema>, urls: Record<string, string>) => Promise<Saved | null>;
  /** `Falha ao atualizar módulo: {message}` */
  failure: (message: string) => string;
  notFound: string;
  /** Where a save goes (a fixed page, or one the saved row names) and its flash toast. */
  success: { to: string | ((saved: Saved) => string); description?: string; title?: string };
}) {
  const { request, context } = options;
  const parsed = await parseAdminForm(request, options.schema, options.files, options.requiredFiles);
  if (parsed.kind === "too_large") {
    // Refused before reading the body: nothing to give back but the reason.
    return adminReply(refusalResult(parsed.refusal.formErrors), parsed.refusal.code, parsed.refusal.status);
  }
  if (parsed.kind === "unreadable") {
    return adminReply(refusalResult(errorFormErrors(options.failure(parsed.message))), "unreadable", 400);
  }
  if (parsed.kind === "invalid") {
    const { refusal } = parsed;
    return adminReply(
      parsed.submission.reply({ fieldErrors: parsed.fileErrors, formErrors: refusal?.formErrors }),
      refusal?.code ?? null,
      refusal?.status ?? 400,
    );
  }
  const value = parsed.value;
  const outcome = await saveWithUploads(context, parsed.uploads, (urls) => options.save(value, urls));
  const refuse = (code: AdminRefusal, status: number, formErrors: string[]) => adminReply(parsed.submission.reply({ formErrors }), code, status);
  switch (outcome.status) {
    case "ok": {
      const { to, title = "Sucesso", description } = options.success;
      return redirectWithToast(context.cloudflare.env, typeof to === "function" ? to(outcome.saved) : to, {
        type: "success",
        title,
        description,
      });
    }
    case "not_found":
      return refuse("not_found", 404, errorFormErrors(options.failure(options.notFound)));
    case "upload_failed":
      return refuse(UPLOAD_RULES[outcome.kind].refusals.failed, 500, uploadFailure(outcome.kind, outcome.message));
    case "failed":
      return refuse("save_failed", 500, errorFormErrors(options.failure(outcome.message)));
  }
}
