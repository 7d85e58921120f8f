// The conversation core: what the text chat and Conversa ao vivo share — the conversations and messages tables, the
// modes, Nika's prompts, a learner's conversations and their pages' guard. Both import it; neither imports the other.
export { chatConversations, chatMessages, type ConversationFocusItem } from "./tables";
export {
  assertModeEnabled,
  AUTH_ERROR_TITLE,
  ChatError,
  findOwnedConversation,
  GREETING_CLAIM_TTL_SECONDS,
  loadConversation,
  SessionRefusedError,
  startConversation,
  type ChatErrorCode,
  type FoundConversation,
  type OwnedConversation,
  type SessionRecheck,
  type UserRef,
} from "./conversations.server";
export { CHAT_MODE_INFO, CHAT_MODES, isChatMode, MENU_MODES, menuModeFromSlug, parseLessonKey, type ChatModeId } from "./modes";
export {
  buildChatMessages,
  HISTORY_TURNS,
  markerHider,
  parseLevelMarker,
  systemPrompt,
  type CefrLevel,
  type HistoryTurn,
  type LessonContext,
} from "./prompts";
export { conversationPath, conversationReportPath, guard, lessonTarget, modeTarget, type ChatTarget } from "./targets.server";
