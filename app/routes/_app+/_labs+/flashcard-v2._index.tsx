// /flashcard-v2 (flag feature_flashcards): the category picker. POST starts a game (1 credit) and
// redirects to it; a refusal (no credits, unknown category, too few cards, nothing to review) answers 4xx.
import { lazy } from "react";
import { useActionData, useLoaderData } from "react-router";
import { loadPickerPage, pickerAction } from "~/features/flashcards/page.server";
import { FlashcardsErrorBoundary } from "~/features/flashcards/ui/LoadError";
import { Picker } from "~/features/flashcards/ui/Picker";
import type { RouteHandle } from "~/lib/access";
import type { Route } from "./+types/flashcard-v2._index";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Flashcards — Nika" }];

export const loader = (args: Route.LoaderArgs) => loadPickerPage(args);

export const action = (args: Route.ActionArgs) => pickerAction(args);

/** Offline practice's download panel, in its own chunk (the picker shows it once the page has settled). */
const OfflineDownloads = lazy(() => import("~/features/offline").then((offline) => ({ default: offline.DownloadPanel })));

export default function FlashcardsPicker() {
  return <Picker data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} Downloads={OfflineDownloads} />;
}

/** A start that failed on the way (no connection): the flashcards' error screen and toast (spec §8). */
export const ErrorBoundary = FlashcardsErrorBoundary;
