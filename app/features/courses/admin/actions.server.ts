// The admin edit actions share one shape: guard, read + validate, store images, save, answer with a
// redirect + flash toast (saved) or the form state + a notice (kept input, 4xx/5xx).
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { Notice } from "~/components/notice";
import { requireAdmin } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";
import { redirectWithToast } from "~/server/toast.server";
import type { AdminActionData } from "./form-state";
import { parseAdminForm, saveWithImages, type ImageField } from "./forms.server";
import { MESSAGES } from "./schemas";

/** Every admin loader and action: admins only (GET → redirect, POST → 403), Teacher FLIX enabled. */
export async function requireCourseAdmin(request: Request, context: AppLoadContext) {
  const user = await requireAdmin(request, context);
  await requireFeature(context, "feature_teacher_flix");
  return user;
}

const errorNotice = (description: string): Notice => ({ tone: "error", title: "Erro", description });
export const imageFailure = (message: string) => errorNotice(`Falha ao enviar imagem: ${message}`);

const reply = (value: AdminActionData, status: number) => data(value, { status });

export async function handleAdminSave<Schema extends z.ZodType>(options: {
  request: Request;
  context: AppLoadContext;
  schema: Schema;
  imageFields: readonly ImageField[];
  save: (value: z.output<Schema>, urls: Record<string, string>) => Promise<{ old: (string | null)[]; current: (string | null)[] } | null>;
  /** `Falha ao atualizar módulo: {message}` */
  failure: (message: string) => string;
  notFound: string;
  success: { to: string; description: string; title?: string };
}) {
  const { request, context } = options;
  const parsed = await parseAdminForm(request, options.schema, options.imageFields);
  if (parsed.kind === "too_large") {
    // Refused before reading the body: nothing to give back but the reason.
    return reply({ result: { status: "error", error: { "": [MESSAGES.imageTooLarge] } }, notice: imageFailure(MESSAGES.imageTooLarge) }, 413);
  }
  if (parsed.kind === "unreadable") {
    return reply({ result: null, notice: errorNotice(options.failure(parsed.message)) }, 400);
  }
  if (parsed.kind === "invalid") {
    const imageMessage = Object.values(parsed.imageErrors)[0]?.[0];
    const tooLarge = imageMessage === MESSAGES.imageTooLarge;
    return reply(
      {
        result: parsed.submission.reply({ fieldErrors: parsed.imageErrors }),
        notice: imageMessage ? imageFailure(imageMessage) : null,
      },
      tooLarge ? 413 : 400,
    );
  }
  const value = parsed.value;
  const outcome = await saveWithImages(context, parsed.images, (urls) => options.save(value, urls));
  switch (outcome.status) {
    case "ok":
      return redirectWithToast(options.success.to, {
        type: "success",
        title: options.success.title ?? "Sucesso",
        description: options.success.description,
      });
    case "not_found":
      return reply({ result: parsed.submission.reply(), notice: errorNotice(options.failure(options.notFound)) }, 404);
    case "image_failed":
      return reply({ result: parsed.submission.reply(), notice: imageFailure(outcome.message) }, 500);
    case "failed":
      return reply({ result: parsed.submission.reply(), notice: errorNotice(options.failure(outcome.message)) }, 500);
  }
}
