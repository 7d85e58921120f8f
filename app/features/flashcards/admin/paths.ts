// The flashcard admin's URLs (decision 0012). The picker links admins to `categoryAdminPath(slug)`.
export const FLASHCARDS_PATH = "/flashcard-v2";
export const categoryAdminPath = (slug: string) => `${FLASHCARDS_PATH}/admin/${encodeURIComponent(slug)}`;
export const newCardPath = (slug: string) => `${categoryAdminPath(slug)}/new`;
export const editCardPath = (cardId: string) => `${FLASHCARDS_PATH}/admin/cards/${cardId}`;
/** Without JavaScript, deleting asks first on the list: `?excluir={cardId}#confirmar-exclusao`. */
export const DELETE_PARAM = "excluir";
export const CONFIRM_DELETE_ID = "confirmar-exclusao";
/** Each card's element id on the list (redirects come back scrolled to it). */
export const cardAnchor = (cardId: string) => `cartao-${cardId}`;
