// The chat's public face for other features (Conversa ao vivo speaks in the same modes, with the same prompts,
// into the same conversations, and its pages sit on the chat's own paths).
export { ChatError, findOwnedConversation } from "./chat.server";
export { CHAT_MODE_INFO, type ChatModeId } from "./modes";
export { guard, type ChatTarget } from "./page.server";
export { HISTORY_TURNS, systemPrompt, type LessonContext } from "./prompts";
