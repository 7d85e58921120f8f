// /flashcard-v2 (flag feature_flashcards): the category picker. POST starts a game (1 credit) and
// redirects to it; a refusal (no credits, unknown category, too few cards, nothing to review) answers 4xx.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FlashcardsErrorBoundary } from "~/features/flashcards/LoadError";
import { loadPickerPage, pickerAction } from "~/features/flashcards/page.server";
import { Picker } from "~/features/flashcards/Picker";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "user" };

export const meta: MetaFunction = () => [{ title: "Flashcards — Nika" }];

export const loader = (args: LoaderFunctionArgs) => loadPickerPage(args);

export const action = (args: ActionFunctionArgs) => pickerAction(args);

export default function FlashcardsPicker() {
  return <Picker data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}

/** A start that failed on the way (no connection): the flashcards' error screen and toast (spec §8). */
export const ErrorBoundary = FlashcardsErrorBoundary;
