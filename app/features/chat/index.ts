// The text and voice-message chat's public face for other features: the page's loader and action (its routes
// compose the rest, e.g. Conversa ao vivo's link). The modes, prompts and conversations are ~/features/conversation.
export { chatPageAction, loadChatPage } from "./page.server";
export { abandonedChatMessages, MESSAGE_MAX_CHARS } from "./sending.server";
