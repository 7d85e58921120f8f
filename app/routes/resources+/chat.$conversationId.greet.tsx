// POST → Nika's greeting (the free `start` turn) of a conversation that has no message yet, as text/event-stream.
import type { ActionFunctionArgs } from "react-router";
import { errorEventResponse, toEventStream } from "~/features/chat/events.server";
import { greetConversationStream } from "~/features/chat/greeting.server";
import { streamRequest } from "~/features/chat/stream.server";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "user" };

export async function action({ request, context, params }: ActionFunctionArgs) {
  const checked = await streamRequest(request, context, params, { sessionInStatement: true });
  if (checked instanceof Response) return checked;
  const { user, conversationId, session } = checked;
  return toEventStream(greetConversationStream(context, user, conversationId, { session }), {
    waitUntil: (p) => context.cloudflare.ctx.waitUntil(p),
  });
}

export const loader = () => errorEventResponse(405, { code: "method_not_allowed", message: "Use POST." });
