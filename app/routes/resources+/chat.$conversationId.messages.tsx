// POST a learner message (form field `text`, or an `audio` WAV file) → Nika's reply as text/event-stream.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { ChatError, sendMessageStream, toEventStream } from "~/features/chat/chat.server";
import { errorEventResponse, readMessageForm, streamUser } from "~/features/chat/stream.server";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await streamUser(request, context);
  if (user instanceof Response) return user;
  let input;
  try {
    input = await readMessageForm(request);
  } catch (error) {
    if (error instanceof ChatError) return errorEventResponse(error.status, { code: error.code, message: error.message });
    throw error;
  }
  const stream = sendMessageStream(context, user, params.conversationId ?? "", input);
  return toEventStream(stream, { waitUntil: (p) => context.cloudflare.ctx.waitUntil(p) });
}

export const loader = () => errorEventResponse(405, { code: "method_not_allowed", message: "Use POST." });
