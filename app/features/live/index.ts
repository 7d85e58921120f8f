// Conversa ao vivo's public face for other features, the chat page's routes (which add its entry) and the app's jobs.
export { LIVE_MODES, liveEntryAvailable, liveEntryHref } from "./config.server";
export { abandonedLiveMinutes } from "./live.server";
export { closeLiveSession } from "./connect.server";
