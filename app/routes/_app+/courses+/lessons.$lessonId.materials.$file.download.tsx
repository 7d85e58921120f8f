// /courses/lessons/:lessonId/materials/:file/download — a lesson material as an attachment (stored
// content type, original file name). Signed-in learners; Teacher FLIX must be on.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { attachmentDisposition, openMaterial } from "~/features/courses/materials.server";
import { requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  await requireFeature(context, "feature_teacher_flix");
  const lessonId = params.lessonId!;
  const opened = await openMaterial(context, lessonId, params.file!);
  if (!opened) {
    // A click on the link (no JS) comes back to the lesson with the error; scripts get a plain 404.
    if (request.headers.get("Sec-Fetch-Mode") === "navigate") {
      return redirectWithToast(`/courses/lessons/${lessonId}`, { type: "error", title: "Erro ao baixar arquivo" });
    }
    return new Response("Erro ao baixar arquivo", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const { object, fileName } = opened;
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType || "application/octet-stream",
      "Content-Length": String(object.size),
      "Content-Disposition": attachmentDisposition(fileName),
      ETag: object.httpEtag,
      "Cache-Control": "private, no-cache",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
