// /progresso: the learner's points per day for the last 4 weeks, the streak calendar and the totals per activity kind.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { loadProgressPage } from "~/features/progress/progress.server";
import { ProgressPage } from "~/features/progress/ProgressPage";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "user" };

export const meta: MetaFunction = () => [{ title: "Progresso — Nika" }];

export const loader = (args: LoaderFunctionArgs) => loadProgressPage(args);

export default function Progresso() {
  return <ProgressPage data={useLoaderData<typeof loader>()} />;
}
