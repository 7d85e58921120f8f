// /courses/lessons/:lessonId/materials/:file/download — a lesson material as an attachment (stored
// content type, original file name). Signed-in learners; Teacher FLIX must be on.
import type { LoaderFunctionArgs } from "react-router";
import { findMaterialKey } from "~/features/courses/materials.server";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";
import { notFound, requireUuidParam } from "~/server/request.server";
import { mediaBucket, serveObject } from "~/server/storage.server";
import { redirectWithToast } from "~/server/toast.server";

export const handle: RouteHandle = { access: "user" };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const lessonId = requireUuidParam(params, "lessonId", "Aula não encontrada");
  await requireUser(request, context);
  await requireFeature(context, "feature_teacher_flix");
  const key = await findMaterialKey(context, lessonId, params.file ?? "");
  const served = key
    ? await serveObject(mediaBucket(context), key, { request, disposition: "attachment", cacheControl: "private, no-cache" })
    : null;
  if (served) return served;
  // A click on the link (no JS) comes back to the lesson with the error; scripts get a plain 404.
  if (request.headers.get("Sec-Fetch-Mode") === "navigate") {
    return redirectWithToast(context.cloudflare.env, `/courses/lessons/${lessonId}`, { type: "error", title: "Erro ao baixar arquivo" });
  }
  return notFound("Erro ao baixar arquivo");
}
