// /pronunciation-game (flag feature_pronunciation): the 100 levels with the learner's best scores.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { LevelGrid, LevelsErrorBoundary } from "~/features/pronunciation/LevelGrid";
import { loadLevelsPage } from "~/features/pronunciation/page.server";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "user" };

export const meta: MetaFunction = () => [{ title: "Jogo de Pronúncia — Nika" }];

export const loader = (args: LoaderFunctionArgs) => loadLevelsPage(args);

export default function PronunciationLevels() {
  const { levels, isAdmin } = useLoaderData<typeof loader>();
  return <LevelGrid levels={levels} isAdmin={isAdmin} />;
}

export const ErrorBoundary = LevelsErrorBoundary;
