// /progresso: the learner's points per day for the last 4 weeks, the streak calendar and the totals per activity kind.
import { useLoaderData } from "react-router";
import { loadProgressPage } from "~/features/progress";
import { ProgressPage } from "~/features/progress/ui/ProgressPage";
import type { RouteHandle } from "~/lib/access";
import type { Route } from "./+types/progresso";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Progresso — Nika" }];

export const loader = (args: Route.LoaderArgs) => loadProgressPage(args);

export default function Progresso() {
  return <ProgressPage data={useLoaderData<typeof loader>()} />;
}
