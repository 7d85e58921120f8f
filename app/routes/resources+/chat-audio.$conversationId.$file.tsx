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
  const range = parseRange(request.headers.get("Range"));
  const object = await mediaBucket(context).get(key, range ? { range } : undefined);
  if (!object || !("body" in object)) return plain(404, "Áudio não encontrado");

  const headers = new Headers({
    "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
    "Cache-Control": "private, max-age=31536000, immutable",
    ETag: object.httpEtag,
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  });
  const served = object.range as { offset?: number; length?: number; suffix?: number } | undefined;
  if (range && served) {
    const offset = served.offset ?? (served.suffix !== undefined ? Math.max(0, object.size - served.suffix) : 0);
    const length = Math.min(served.length ?? object.size - offset, object.size - offset);
    headers.set("Content-Range", `bytes ${offset}-${offset + length - 1}/${object.size}`);
    headers.set("Content-Length", String(length));
    return new Response(object.body, { status: 206, headers });
  }
  headers.set("Content-Length", String(object.size));
  return new Response(object.body, { headers });
}

/** A single `bytes=` range (`a-b`, `a-`, `-n`) as R2 takes it; anything else → the whole object. */
function parseRange(header: string | null): R2Range | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") return { suffix: Number(match[2]) };
  const offset = Number(match[1]);
  if (match[2] === "") return { offset };
  const end = Number(match[2]);
  return end >= offset ? { offset, length: end - offset + 1 } : null;
}
