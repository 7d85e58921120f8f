// /flashcard-v2/<gameId>: one game, the learner's own (another's or a malformed id is a 404). GET
// `?q=<n>` shows question n, without it where the learner is (or the result). POST answers a question
// (redirect back to `?q=<n>` with the feedback; the page's script asks for data instead) or restarts.
import { type ShouldRevalidateFunction, useActionData, useLoaderData } from "react-router";
import { gameAction, loadGamePage } from "~/features/flashcards/page.server";
import { GameScreen } from "~/features/flashcards/ui/GameScreen";
import { FlashcardsErrorBoundary } from "~/features/flashcards/ui/LoadError";
import type { RouteHandle } from "~/lib/access";
import type { Route } from "./+types/flashcard-v2.$gameId";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.game.kind === "review" ? "Revisão" : (data?.game.category?.name ?? "Jogo")} — Flashcards — Nika` },
];

export const loader = (args: Route.LoaderArgs) => loadGamePage(args);

export const action = (args: Route.ActionArgs) => gameAction(args);

/** An answer sent by the page's script updates the page itself: no reload of the game. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("via") === "fetch" ? false : defaultShouldRevalidate;

export default function FlashcardGame() {
  const actionData = useActionData<typeof action>();
  // Only a form sent without the page's script gets here (the script's answers go through a fetcher).
  return <GameScreen page={useLoaderData<typeof loader>()} actionData={actionData && "code" in actionData ? actionData : undefined} />;
}

/** 404 and a disabled feature as everywhere; anything else is the flashcards' error screen (spec §8). */
export const ErrorBoundary = FlashcardsErrorBoundary;
