// /chat-with-nika/{portuguese|english|game|roleplay}: the chat screen in one mode (flag enforced on the server).
import { useLoaderData } from "react-router";
import { chatPageAction, loadChatPage } from "~/features/chat";
import { ChatScreen } from "~/features/chat/ui/ChatScreen";
import { modeTarget } from "~/features/conversation";
// Read by the page's meta too (client code): the modes module, not the core's server index.
import { CHAT_MODE_INFO, menuModeFromSlug } from "~/features/conversation/modes";
import { liveEntryHref } from "~/features/live";
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
  const chatTarget = target(args.params.mode);
  const page = await loadChatPage(args, chatTarget);
  return { ...page, liveHref: await liveEntryHref(args.context, chatTarget, page.conversationId) };
}

export async function action(args: Route.ActionArgs) {
  await requireUser(args.request, args.context);
  return chatPageAction(args, target(args.params.mode));
}

export default function ChatModePage() {
  const page = useLoaderData<typeof loader>();
  return <ChatScreen key={page.conversationId} page={page} />;
}
