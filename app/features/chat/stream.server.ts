// The streaming endpoints' guard and helpers (resource routes under /resources/chat/…).
// Used with fetch() by the chat island: answers are text/event-stream, failures too, so the client
// reads one format. Not signed in → 401 "Erro de Autenticação"; blocked → 403.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { isUuid } from "~/lib/ids";
import { checkAccess, type SessionUser } from "~/server/auth.server";
import { readFormData } from "~/server/request.server";
import { MAX_AUDIO_BYTES } from "./audio/validate";
import { ChatError, formatEvent, type VoiceInput } from "./chat.server";

export const AUTH_ERROR_TITLE = "Erro de Autenticação";

export function errorEventResponse(status: number, data: { code: string; message: string; title?: string }): Response {
  return new Response(formatEvent({ event: "error", data: { ...data, status } }), {
    status,
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * The endpoint's checks before any work, in order: the conversation id's shape (404), the method (405),
 * the signed-in, non-blocked learner (401/403). The learner and the id, or the Response to answer with.
 */
export async function streamRequest(
  request: Request,
  context: AppLoadContext,
  params: { conversationId?: string },
): Promise<{ user: SessionUser; conversationId: string } | Response> {
  const conversationId = params.conversationId ?? "";
  if (!isUuid(conversationId)) return errorEventResponse(404, { code: "not_found", message: "Conversa não encontrada" });
  if (request.method !== "POST") return errorEventResponse(405, { code: "method_not_allowed", message: "Use POST." });
  const { user, refusal } = await checkAccess(request, context);
  if (refusal) {
    const title = refusal.code === "UNAUTHENTICATED" ? AUTH_ERROR_TITLE : undefined;
    return errorEventResponse(refusal.status, { code: refusal.code, message: refusal.message, title });
  }
  return { user, conversationId };
}

/** Multipart overhead allowed on top of the 50 MB audio limit. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** The learner's message from the form: `text`, or an `audio` file (voice). Read through the body helper. */
export async function readMessageForm(request: Request): Promise<{ text: string | null; audio: VoiceInput | null }> {
  let form: FormData;
  try {
    form = await readFormData(request, { maxBytes: MAX_AUDIO_BYTES + FORM_OVERHEAD_BYTES });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    if (thrown.status === 413) throw new ChatError("invalid_audio", 413, "Áudio muito grande (máximo 50MB)");
    const { error } = (await thrown.json()) as { error: string };
    throw new ChatError("invalid_text", thrown.status === 415 ? 415 : 400, error);
  }
  const audio = form.get("audio");
  if (audio && typeof audio !== "string") {
    return { text: null, audio: { bytes: new Uint8Array(await audio.arrayBuffer()), mimeType: audio.type } };
  }
  const text = form.get("text");
  return { text: typeof text === "string" ? text : null, audio: null };
}
