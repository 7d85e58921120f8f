// The streaming endpoints' guard and helpers (resource routes under /resources/chat/…).
// Used with fetch() by the chat island: answers are text/event-stream, failures too, so the client
// reads one format. Not signed in → 401 "Erro de Autenticação"; blocked → 403.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { checkAccess, type SessionUser } from "~/server/auth.server";
import { MAX_AUDIO_BYTES } from "./audio/validate";
import { ChatError, formatEvent, type VoiceInput } from "./chat.server";

export const AUTH_ERROR_TITLE = "Erro de Autenticação";

export function errorEventResponse(status: number, data: { code: string; message: string; title?: string }): Response {
  return new Response(formatEvent({ event: "error", data: { ...data, status } }), {
    status,
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** The signed-in learner, or the Response to answer with. */
export async function streamUser(request: Request, context: AppLoadContext): Promise<SessionUser | Response> {
  if (request.method !== "POST") return errorEventResponse(405, { code: "method_not_allowed", message: "Use POST." });
  const { user, refusal } = await checkAccess(request, context);
  if (refusal) {
    const title = refusal.code === "UNAUTHENTICATED" ? AUTH_ERROR_TITLE : undefined;
    return errorEventResponse(refusal.status, { code: refusal.code, message: refusal.message, title });
  }
  return user;
}

/** Multipart overhead allowed on top of the 50 MB audio limit before the body is even read. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** The learner's message from the form: `text`, or an `audio` file (voice). Limits checked before and after reading. */
export async function readMessageForm(request: Request): Promise<{ text: string | null; audio: VoiceInput | null }> {
  const length = Number(request.headers.get("Content-Length") ?? "0");
  if (length > MAX_AUDIO_BYTES + FORM_OVERHEAD_BYTES) throw new ChatError("invalid_audio", 413, "Áudio muito grande (máximo 50MB)");
  const form = await request.formData().catch(() => {
    throw new ChatError("invalid_text", 400, "Envio inválido.");
  });
  const audio = form.get("audio");
  if (audio && typeof audio !== "string") {
    return { text: null, audio: { bytes: new Uint8Array(await audio.arrayBuffer()), mimeType: audio.type } };
  }
  const text = form.get("text");
  return { text: typeof text === "string" ? text : null, audio: null };
}
