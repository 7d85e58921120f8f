// Chat audio (a learner's recording, Nika's spoken reply) from R2, only to the conversation's owner.
// Honours Range requests: media elements seek and Safari insists on them.
import type { LoaderFunctionArgs } from "react-router";
import { ChatError, findOwnedConversation } from "~/features/conversation";
import type { RouteHandle } from "~/lib/access";
import { isUuid } from "~/lib/ids";
import { checkAccess } from "~/server/auth.server";
import { notFound, refusal } from "~/server/request.server";
import { CHAT_AUDIO_FOLDER, mediaBucket, serveObject } from "~/server/storage.server";

export const handle: RouteHandle = { access: "user" };

const audioNotFound = () => notFound("Áudio não encontrado");

const AUDIO_FILE = /^[0-9a-f-]{36}\.[a-z0-9]{2,5}$/;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const conversationId = params.conversationId ?? "";
  const file = params.file ?? "";
  if (!isUuid(conversationId) || !AUDIO_FILE.test(file)) return audioNotFound();
  const access = await checkAccess(request, context);
  if (access.refusal) return refusal(access.refusal.status, access.refusal.message, access.refusal.code);
  try {
    await findOwnedConversation(context, access.user, conversationId);
  } catch (error) {
    if (error instanceof ChatError) return audioNotFound();
    throw error;
  }
  const served = await serveObject(mediaBucket(context), `${CHAT_AUDIO_FOLDER}/${conversationId}/${file}`, {
    request,
    disposition: "inline",
    cacheControl: "private, max-age=31536000, immutable",
    ranges: true,
  });
  return served ?? audioNotFound();
}
