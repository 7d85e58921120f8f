// The streaming endpoints' guard and helpers (resource routes under /resources/chat/…).
// Used with fetch() by the chat island: answers are text/event-stream, failures too, so the client
// reads one format. Not signed in → 401 "Erro de Autenticação"; blocked → 403.
import type { AppLoadContext } from "react-router";
import { z } from "zod";
import { AUTH_ERROR_TITLE, ChatError, type SessionRecheck } from "~/features/conversation";
import { MAX_AUDIO_BYTES } from "~/lib/audio/validate";
import { isUuid } from "~/lib/ids";
import { checkAccess, recheckSession, sessionUserForStatement, type AccessRefusal, type SessionUser } from "~/server/auth.server";
import { BODY_MESSAGES, parseForm } from "~/server/request.server";
import { errorEventResponse } from "./events.server";
import { MESSAGE_MAX_CHARS, type VoiceInput } from "./sending.server";

/**
 * The endpoint's checks before any work, in order: the conversation id's shape (404), the method (405),
 * the signed-in, non-blocked learner (401/403). The learner and the id, or the Response to answer with.
 * `sessionInStatement` (a chat message, a greeting): a learner this isolate already knows is checked again by the
 * request's first statement (the spend; finding the conversation to greet) instead of a read now — `session` is then
 * what sendMessageStream / greetConversationStream pass to it.
 */
export async function streamRequest(
  request: Request,
  context: AppLoadContext,
  params: { conversationId?: string },
  options: { sessionInStatement?: boolean } = {},
): Promise<{ user: SessionUser; conversationId: string; session?: SessionRecheck } | Response> {
  const conversationId = params.conversationId ?? "";
  if (!isUuid(conversationId)) return errorEventResponse(404, { code: "not_found", message: "Conversa não encontrada" });
  if (request.method !== "POST") return errorEventResponse(405, { code: "method_not_allowed", message: "Use POST." });
  // The first token waits on the gate statement: its connection opens while the cookie and the form are read.
  context.connectDbEarly();
  const refused = ({ code, message, status }: AccessRefusal) =>
    errorEventResponse(status, { code, message, title: code === "UNAUTHENTICATED" ? AUTH_ERROR_TITLE : undefined });
  if (!options.sessionInStatement) {
    const { user, refusal } = await checkAccess(request, context);
    return refusal ? refused(refusal) : { user, conversationId };
  }
  const access = await sessionUserForStatement(request, context);
  if (access.refusal) return refused(access.refusal);
  const { user, recheck: sessionId } = access;
  const session = sessionId ? { sessionId, recheck: () => recheckSession(request, context, sessionId) } : undefined;
  return { user, conversationId, session };
}

/** Multipart overhead allowed on top of the 50 MB audio limit. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** sendMessage's message for a text that is too long (its own limit, after trimming, is MESSAGE_MAX_CHARS). */
const TOO_LONG = `Mensagem muito longa (máximo ${MESSAGE_MAX_CHARS} caracteres).`;

/** The learner's message: `text`, or an `audio` file (voice). Empty fields (and an empty file) count as absent. */
const messageFormSchema = z.object({
  text: z
    .string({ error: BODY_MESSAGES.invalid })
    .max(MESSAGE_MAX_CHARS * 4, TOO_LONG)
    .optional(),
  audio: z.instanceof(File, { error: BODY_MESSAGES.invalid }).optional(),
});

/** The learner's message from the form, read and checked through the body helper and the schema above. */
export async function readMessageForm(request: Request): Promise<{ text: string | null; audio: VoiceInput | null }> {
  let submission;
  try {
    submission = await parseForm(request, messageFormSchema, { maxBytes: MAX_AUDIO_BYTES + FORM_OVERHEAD_BYTES });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    if (thrown.status === 413) throw new ChatError("invalid_audio", 413, "Áudio muito grande (máximo 50MB)");
    const { error } = (await thrown.json()) as { error: string };
    throw new ChatError("invalid_text", thrown.status === 415 ? 415 : 400, error);
  }
  if (submission.status !== "success") {
    const [field, messages] = Object.entries(submission.error ?? {}).find(([, errors]) => errors?.length) ?? [];
    throw new ChatError(field === "audio" ? "invalid_audio" : "invalid_text", 400, messages?.[0] ?? BODY_MESSAGES.invalid);
  }
  const { text, audio } = submission.value;
  if (audio) return { text: null, audio: { bytes: new Uint8Array(await audio.arrayBuffer()), mimeType: audio.type } };
  return { text: text ?? null, audio: null };
}
