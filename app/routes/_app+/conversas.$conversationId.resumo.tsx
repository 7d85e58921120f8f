// /conversas/:conversationId/resumo, "Resumo da conversa": what one of the learner's conversations was (turns, live
// minutes, corrections, the mistakes it brought back). Where a chat ends; a plain page, without JavaScript too.
import { useLoaderData } from "react-router";
import { loadConversationReport } from "~/features/notebook/report.server";
import { ConversationReport } from "~/features/notebook/ui/ConversationReport";
import type { RouteHandle } from "~/lib/access";
import type { Route } from "./+types/conversas.$conversationId.resumo";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Resumo da conversa — Nika" }];

export const loader = (args: Route.LoaderArgs) => loadConversationReport(args);

export default function ConversationReportPage() {
  return <ConversationReport report={useLoaderData<typeof loader>()} />;
}
