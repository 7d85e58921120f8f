// Stored objects by key: `/media/<key>`. Images (unique keys, never rewritten) are public with a
// year-long immutable cache and revalidate by ETag; materials never load inline here — they go
// through the lesson's download route (signed-in learners, served as an attachment).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { CHAT_AUDIO_FOLDER, INLINE_IMAGE_TYPES, isValidKey, MATERIALS_FOLDER, mediaBucket } from "~/server/storage.server";

const notFound = () =>
  new Response("Arquivo não encontrado", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/** The entity tag of `If-None-Match` (one value; `*` and lists fall back to a full response). */
function ifNoneMatch(header: string | null): string | null {
  const value = header?.trim().replace(/^W\//, "");
  if (!value || value === "*" || value.includes(",")) return null;
  return value.replace(/^"(.*)"$/, "$1");
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const key = params["*"] ?? "";
  // Chat audio is private: only /resources/chat-audio/* serves it, to the conversation's owner.
  if (!isValidKey(key) || key.startsWith(`${CHAT_AUDIO_FOLDER}/`)) return notFound();
  if (key.startsWith(`${MATERIALS_FOLDER}/`)) {
    const [, lessonId, file] = key.split("/");
    if (!lessonId || !file) return notFound();
    return redirect(`/courses/lessons/${encodeURIComponent(lessonId)}/materials/${encodeURIComponent(file)}/download`);
  }

  const etag = ifNoneMatch(request.headers.get("If-None-Match"));
  const object = await mediaBucket(context).get(key, etag ? { onlyIf: { etagDoesNotMatch: etag } } : undefined);
  if (!object) return notFound();

  const contentType = object.httpMetadata?.contentType ?? "";
  const inline = INLINE_IMAGE_TYPES.has(contentType);
  const headers = new Headers({
    ETag: object.httpEtag,
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cross-Origin-Resource-Policy": "same-site",
  });
  if (inline) headers.set("Content-Type", contentType);
  else {
    headers.set("Content-Type", "application/octet-stream");
    headers.set("Content-Disposition", "attachment");
  }
  if (!("body" in object) || !object.body) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(object.size));
  return new Response(object.body, { headers });
}
