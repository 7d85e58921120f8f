// POST → Nika's greeting (the free `start` turn) of a conversation that has no message yet, as text/event-stream.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { assertModeEnabled, ChatError, findOwnedConversation, greetStream, toEventStream } from "~/features/chat/chat.server";
import { errorEventResponse, streamUser } from "~/features/chat/stream.server";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await streamUser(request, context);
  if (user instanceof Response) return user;
  try {
    const conversation = await findOwnedConversation(context, user, params.conversationId ?? "");
    await assertModeEnabled(context, conversation.mode);
    return toEventStream(greetStream(context, conversation), { waitUntil: (p) => context.cloudflare.ctx.waitUntil(p) });
  } catch (error) {
    if (error instanceof ChatError) return errorEventResponse(error.status, { code: error.code, message: error.message });
    throw error;
  }
}

export const loader = () => errorEventResponse(405, { code: "method_not_allowed", message: "Use POST." });
