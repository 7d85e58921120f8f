// /pronunciation-game (flag feature_pronunciation): the 100 levels with the learner's best scores.
import { useLoaderData } from "react-router";
import { loadLevelsPage } from "~/features/pronunciation/page.server";
import { LevelGrid, LevelsErrorBoundary } from "~/features/pronunciation/ui/LevelGrid";
import type { RouteHandle } from "~/lib/access";
import type { Route } from "./+types/pronunciation-game._index";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Jogo de Pronúncia — Nika" }];

export const loader = (args: Route.LoaderArgs) => loadLevelsPage(args);

export default function PronunciationLevels() {
  const { levels, isAdmin } = useLoaderData<typeof loader>();
  return <LevelGrid levels={levels} isAdmin={isAdmin} />;
}

export const ErrorBoundary = LevelsErrorBoundary;
