// /flashcard-v2/offline: the offline player — the learner's downloaded flashcards, played with no
// network. Public and the same for everyone: no loader (nothing about the learner in the page), so the
// service worker keeps one copy of it, fetched without cookies, and opens it when /flashcard-v2 cannot load.
// With JavaScript, the downloads and the answer queue of the learner signed in on this browser come from
// IndexedDB after hydration.
import type { MetaFunction } from "react-router";
import { OfflinePlayer } from "~/features/flashcards/ui/OfflinePlayer";
import { offlineStorage } from "~/features/offline";
import { MAIN_ID } from "~/features/shell/types";
import type { RouteHandle } from "~/lib/access";

export const handle: RouteHandle = { access: "public" };

export const meta: MetaFunction = () => [{ title: "Flashcards offline — Nika" }];

export default function OfflinePlayerPage() {
  return (
    <main id={MAIN_ID} tabIndex={-1} className="outline-none">
      <OfflinePlayer storage={offlineStorage} />
    </main>
  );
}
