// POST → Nika's greeting (the free `start` turn) of a conversation that has no message yet, as text/event-stream.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { assertModeEnabled, ChatError, findOwnedConversation, greetStream, toEventStream } from "~/features/chat/chat.server";
import { errorEventResponse, streamRequest } from "~/features/chat/stream.server";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "user" };

export async function action({ request, context, params }: ActionFunctionArgs) {
  const checked = await streamRequest(request, context, params);
  if (checked instanceof Response) return checked;
  const { user, conversationId } = checked;
  try {
    const conversation = await findOwnedConversation(context, user, conversationId);
    await assertModeEnabled(context, conversation.mode);
    return toEventStream(greetStream(context, conversation), { waitUntil: (p) => context.cloudflare.ctx.waitUntil(p) });
  } catch (error) {
    if (error instanceof ChatError) return errorEventResponse(error.status, { code: error.code, message: error.message });
    throw error;
  }
}

export const loader = () => errorEventResponse(405, { code: "method_not_allowed", message: "Use POST." });
