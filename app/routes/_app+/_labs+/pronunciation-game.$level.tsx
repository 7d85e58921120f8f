// /pronunciation-game/<level> (1–100, anything else is a 404): one level. GET `?attempt=<id>` shows that
// attempt's result; POST (multipart, `audio`) scores an attempt for 1 credit and redirects to its result.
import { useActionData, useLoaderData } from "react-router";
import { levelAction, loadLevelPage } from "~/features/pronunciation/page.server";
import { LevelErrorBoundary, LevelScreen } from "~/features/pronunciation/ui/LevelScreen";
import type { RouteHandle } from "~/lib/access";
import type { Route } from "./+types/pronunciation-game.$level";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Nível ${data.level.level} — Jogo de Pronúncia — Nika` : "Nível não encontrado — Nika" },
];

export const loader = (args: Route.LoaderArgs) => loadLevelPage(args);

export const action = (args: Route.ActionArgs) => levelAction(args);

export default function PronunciationLevel() {
  const actionData = useActionData<typeof action>();
  return <LevelScreen page={useLoaderData<typeof loader>()} actionData={actionData && "code" in actionData ? actionData : undefined} />;
}

/** Nível não encontrado (404), a disabled feature, or the level that failed to load. */
export const ErrorBoundary = LevelErrorBoundary;
