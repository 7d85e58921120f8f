// /chat/lesson/{lessonKey}: practise one lesson with Nika (key M01A02 = module 1, lesson 2; not flag-gated).
import { useLoaderData } from "react-router";
import { chatPageAction, loadChatPage } from "~/features/chat";
import { ChatScreen } from "~/features/chat/ui/ChatScreen";
import { lessonTarget } from "~/features/conversation";
import { liveEntryHref } from "~/features/live";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import type { Route } from "./+types/chat.lesson.$lessonKey";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = ({ params }) => [{ title: `Praticar ${params.lessonKey ?? "a aula"} — Nika` }];

// Signed in first: an unknown key must not tell anonymous visitors which lessons exist.
export async function loader(args: Route.LoaderArgs) {
  await requireUser(args.request, args.context);
  const target = await lessonTarget(args.context, args.params.lessonKey);
  const page = await loadChatPage(args, target);
  return { ...page, liveHref: await liveEntryHref(args.context, target, page.conversationId) };
}

export async function action(args: Route.ActionArgs) {
  await requireUser(args.request, args.context);
  return chatPageAction(args, await lessonTarget(args.context, args.params.lessonKey));
}

export default function LessonChatPage() {
  const page = useLoaderData<typeof loader>();
  return <ChatScreen key={page.conversationId} page={page} />;
}
