// /chat-with-nika/{mode}/ao-vivo?c=…: Conversa ao vivo in one of the four menu modes.
import { useLoaderData } from "react-router";
import { menuModeFromSlug, modeTarget } from "~/features/conversation";
import { loadLivePage } from "~/features/live/page.server";
import { LiveScreen } from "~/features/live/ui/LiveScreen";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";
import { notFound } from "~/server/request.server";
import type { Route } from "./+types/chat-with-nika.$mode_.ao-vivo";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Conversa ao vivo — Nika" }];

export async function loader(args: Route.LoaderArgs) {
  await requireUser(args.request, args.context);
  const mode = menuModeFromSlug(args.params.mode);
  if (!mode) throw notFound("Modo não encontrado");
  return loadLivePage(args, modeTarget(mode));
}

export default function LiveModePage() {
  const page = useLoaderData<typeof loader>();
  return <LiveScreen key={page.conversationId} page={page} />;
}
