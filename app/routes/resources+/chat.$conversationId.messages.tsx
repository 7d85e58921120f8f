// POST a learner message (form field `text`, or an `audio` WAV file) → Nika's reply as text/event-stream.
import type { ActionFunctionArgs } from "react-router";
import { errorEventResponse, toEventStream } from "~/features/chat/events.server";
import { sendMessageStream } from "~/features/chat/sending.server";
import { readMessageForm, streamRequest } from "~/features/chat/stream.server";
import { ChatError } from "~/features/conversation";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "user" };

export async function action({ request, context, params }: ActionFunctionArgs) {
  const checked = await streamRequest(request, context, params, { sessionInStatement: true });
  if (checked instanceof Response) return checked;
  const { user, conversationId, session } = checked;
  let input;
  try {
    input = await readMessageForm(request);
  } catch (error) {
    if (error instanceof ChatError) return errorEventResponse(error.status, { code: error.code, message: error.message });
    throw error;
  }
  const stream = sendMessageStream(context, user, conversationId, input, { session });
  return toEventStream(stream, { waitUntil: (p) => context.cloudflare.ctx.waitUntil(p) });
}

export const loader = () => errorEventResponse(405, { code: "method_not_allowed", message: "Use POST." });
