// What the worker entry (server.ts) needs from the app. entry.server.tsx re-exports it, so server.ts reaches it
// through the React Router server build: importing these modules from server.ts directly made wrangler bundle a second
// copy of each (and of everything they import) next to the build's own.
export { getLoadContext } from "../load-context";
export { CRON_JOBS } from "./cron-jobs.server";
export { LessonChannel } from "./features/courses/lesson-channel.server";
export { LiveConversation } from "./features/live/relay.server";
export { answeringDatabaseUnavailable, createRequestDb } from "./server/db.server";
export { ConfigError, isProduction, loadEnv } from "./server/env";
export { formTargetOrigins, withSecurityHeaders } from "./server/security-headers.server";
export { refuseControlCharactersInUrl } from "./server/request.server";
