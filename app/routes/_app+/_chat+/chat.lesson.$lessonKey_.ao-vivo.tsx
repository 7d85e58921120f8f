// /chat/lesson/{lessonKey}/ao-vivo?c=…: Conversa ao vivo practising one lesson.
import { useLoaderData } from "react-router";
import { lessonTarget } from "~/features/conversation";
import { loadLivePage } from "~/features/live/page.server";
import { LiveScreen } from "~/features/live/ui/LiveScreen";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import type { Route } from "./+types/chat.lesson.$lessonKey_.ao-vivo";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Conversa ao vivo — Nika" }];

// Signed in first: an unknown key must not tell anonymous visitors which lessons exist.
export async function loader(args: Route.LoaderArgs) {
  await requireUser(args.request, args.context);
  return loadLivePage(args, await lessonTarget(args.context, args.params.lessonKey));
}

export default function LiveLessonPage() {
  const page = useLoaderData<typeof loader>();
  return <LiveScreen key={page.conversationId} page={page} />;
}
