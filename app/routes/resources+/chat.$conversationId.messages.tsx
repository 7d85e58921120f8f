// POST a learner message (form field `text`, or an `audio` WAV file) → Nika's reply as text/event-stream.
import type { RouteHandle } from "~/lib/access";
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { isUuid } from "~/lib/ids";
import { ChatError, sendMessageStream, toEventStream } from "~/features/chat/chat.server";
import { errorEventResponse, readMessageForm, streamUser } from "~/features/chat/stream.server";

export const handle: RouteHandle = { access: "user" };

export async function action({ request, context, params }: ActionFunctionArgs) {
  const conversationId = params.conversationId ?? "";
  if (!isUuid(conversationId)) return errorEventResponse(404, { code: "not_found", message: "Conversa não encontrada" });
  const user = await streamUser(request, context);
  if (user instanceof Response) return user;
  let input;
  try {
    input = await readMessageForm(request);
  } catch (error) {
    if (error instanceof ChatError) return errorEventResponse(error.status, { code: error.code, message: error.message });
    throw error;
  }
  const stream = sendMessageStream(context, user, conversationId, input);
  return toEventStream(stream, { waitUntil: (p) => context.cloudflare.ctx.waitUntil(p) });
}

export const loader = () => errorEventResponse(405, { code: "method_not_allowed", message: "Use POST." });
