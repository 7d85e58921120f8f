// /chat/lesson/{lessonKey}/ao-vivo?c=…: Conversa ao vivo practising one lesson.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { lessonTarget } from "~/features/chat/page.server";
import { LiveScreen } from "~/features/live/LiveScreen";
import { loadLivePage } from "~/features/live/page.server";
import type { RouteHandle } from "~/lib/access";
import { requireUser } from "~/server/auth.server";

export const handle: RouteHandle = { access: "user" };

export const meta: MetaFunction = () => [{ title: "Conversa ao vivo — Nika" }];

// Signed in first: an unknown key must not tell anonymous visitors which lessons exist.
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args.request, args.context);
  return loadLivePage(args, await lessonTarget(args.context, args.params.lessonKey));
}

export default function LiveLessonPage() {
  const page = useLoaderData<typeof loader>();
  return <LiveScreen key={page.conversationId} page={page} />;
}
