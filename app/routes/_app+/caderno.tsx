// /caderno, "Meu caderno": the learner's mistakes from every conversation, and the forms that dismiss or master one.
import { useLoaderData } from "react-router";
import { loadNotebookPage, notebookAction } from "~/features/notebook";
import { NotebookPage } from "~/features/notebook/ui/NotebookPage";
import type { RouteHandle } from "~/lib/access";
import type { Route } from "./+types/caderno";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Meu caderno — Nika" }];

export const loader = (args: Route.LoaderArgs) => loadNotebookPage(args);

export const action = (args: Route.ActionArgs) => notebookAction(args);

export default function Caderno() {
  return <NotebookPage data={useLoaderData<typeof loader>()} />;
}
