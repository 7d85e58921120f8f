// Chat audio (a learner's recording, Nika's spoken reply) from R2, only to the conversation's owner.
// Honours Range requests: media elements seek and Safari insists on them.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { ChatError, findOwnedConversation } from "~/features/chat/chat.server";
import { getSessionUser } from "~/server/auth.server";
import { CHAT_AUDIO_FOLDER, mediaBucket } from "~/server/storage.server";

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await getSessionUser(request, context);
  if (!user || user.accountType === "blocked") return plain(401, "Não autenticado");
  const file = params.file ?? "";
  if (!/^[0-9a-f-]{36}\.[a-z0-9]{2,5}$/.test(file)) return plain(404, "Áudio não encontrado");
  try {
    await findOwnedConversation(context, user, params.conversationId ?? "");
  } catch (error) {
    if (error instanceof ChatError) return plain(404, "Áudio não encontrado");
    throw error;
  }
  const key = `${CHAT_AUDIO_FOLDER}/${params.conversationId}/${file}`;
  const rangeHeader = request.headers.get("Range");
  const object = await mediaBucket(context).get(key, rangeHeader ? { range: request.headers } : undefined);
  if (!object || !("body" in object)) return plain(404, "Áudio não encontrado");

  const headers = new Headers({
    "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
    "Cache-Control": "private, max-age=31536000, immutable",
    ETag: object.httpEtag,
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  });
  const range = object.range as { offset?: number; length?: number } | undefined;
  if (rangeHeader && range && range.offset !== undefined) {
    const length = range.length ?? object.size - range.offset;
    headers.set("Content-Range", `bytes ${range.offset}-${range.offset + length - 1}/${object.size}`);
    headers.set("Content-Length", String(length));
    return new Response(object.body, { status: 206, headers });
  }
  headers.set("Content-Length", String(object.size));
  return new Response(object.body, { headers });
}
