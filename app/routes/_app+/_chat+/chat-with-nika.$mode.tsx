// /chat-with-nika/{portuguese|english|game|roleplay}: the chat screen in one mode (flag enforced on the server).
import { useLoaderData } from "react-router";
import { CHAT_MODE_INFO, menuModeFromSlug } from "~/features/chat/modes";
import { chatPageAction, loadChatPage, modeTarget } from "~/features/chat/page.server";
import { ChatScreen } from "~/features/chat/ui/ChatScreen";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { notFound } from "~/server/request.server";
import type { Route } from "./+types/chat-with-nika.$mode";

export const handle: RouteHandle = { access: "user" };

function target(slug: string | undefined) {
  const mode = menuModeFromSlug(slug);
  if (!mode) throw notFound("Modo não encontrado");
  return modeTarget(mode);
}

export const meta: Route.MetaFunction = ({ params }) => {
  const mode = menuModeFromSlug(params.mode);
  return [{ title: `${mode ? CHAT_MODE_INFO[mode].title : "Chat"} — Nika` }];
};

export async function loader(args: Route.LoaderArgs) {
  await requireUser(args.request, args.context);
  return loadChatPage(args, target(args.params.mode));
}

export async function action(args: Route.ActionArgs) {
  await requireUser(args.request, args.context);
  return chatPageAction(args, target(args.params.mode));
}

export default function ChatModePage() {
  const page = useLoaderData<typeof loader>();
  return <ChatScreen key={page.conversationId} page={page} />;
}
