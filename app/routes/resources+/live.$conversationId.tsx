import type { LoaderFunctionArgs } from "react-router";
import { connectLiveSession } from "~/features/live/connect.server";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "user" };

/** WebSocket endpoint of a conversation's live spoken session (the upgrade is answered by the learner's LiveConversation object). */
export const loader = ({ request, context, params }: LoaderFunctionArgs) => connectLiveSession(request, context, params.conversationId ?? "");
