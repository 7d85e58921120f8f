// The offline player's address: the service worker sends a /flashcard-v2 navigation there when the
// network fails, and precaches its page.
export const OFFLINE_PLAYER_PATH = "/flashcard-v2/offline";
