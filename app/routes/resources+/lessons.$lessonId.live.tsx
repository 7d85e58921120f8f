import type { LoaderFunctionArgs } from "react-router";
import { connectLessonChannel } from "~/features/courses/lesson-live.server";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "user" };

/** WebSocket endpoint of a lesson's live channel (the upgrade is answered by its Durable Object). */
export const loader = ({ request, context, params }: LoaderFunctionArgs) => connectLessonChannel(request, context, params.lessonId ?? "");
