// The addresses the app answers offline: the service worker (app/features/pwa/sw.ts) serves them when the network
// fails and precaches them (scripts/vite-sw.ts — so no `~/` imports here: the Vite config loads it); the offline
// banner and the offline feature link to the player.

/** Every navigation outside the flashcards falls back to this static page when the network fails. */
export const OFFLINE_PAGE = "/offline.html";
/** The flashcards' section: offline, a navigation to it or below it opens the offline player instead. */
export const FLASHCARDS_PATH = "/flashcard-v2";

/** Is `pathname` the flashcards' section (`/flashcard-v2` or anything below it)? */
export function inFlashcards(pathname: string): boolean {
  return pathname === FLASHCARDS_PATH || pathname.startsWith(`${FLASHCARDS_PATH}/`);
}

/** The offline player: a /flashcard-v2 navigation that fails goes there; its page is precached. */
export const OFFLINE_PLAYER_PATH = "/flashcard-v2/offline";
