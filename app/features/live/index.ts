// Conversa ao vivo's public face for other features (the chat page shows its entry).
export { LIVE_MODES, liveEntryAvailable } from "./config.server";
