// The paths the service worker answers offline (app/features/pwa/sw.ts) and precaches (scripts/vite-sw.ts, so no
// `~/` imports here: the Vite config loads it). The offline player's own address is the offline feature's
// (app/features/offline/paths.ts).

/** Every navigation outside the flashcards falls back to this static page when the network fails. */
export const OFFLINE_PAGE = "/offline.html";
/** The flashcards' section: offline, a navigation to it or below it opens the offline player instead. */
export const FLASHCARDS_PATH = "/flashcard-v2";

/** Is `pathname` the flashcards' section (`/flashcard-v2` or anything below it)? */
export function inFlashcards(pathname: string): boolean {
  return pathname === FLASHCARDS_PATH || pathname.startsWith(`${FLASHCARDS_PATH}/`);
}
