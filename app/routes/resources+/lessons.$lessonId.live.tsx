import type { LoaderFunctionArgs } from "react-router";
import type { RouteHandle } from "~/lib/access";
import { connectLessonChannel } from "~/server/realtime.server";

export const handle: RouteHandle = { access: "user" };

/** WebSocket endpoint of a lesson's live channel (the upgrade is answered by its Durable Object). */
export const loader = ({ request, context, params }: LoaderFunctionArgs) => connectLessonChannel(request, context, params.lessonId ?? "");
