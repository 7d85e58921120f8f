// Shared by the lesson's channel (lesson-channel.server.ts, a Durable Object on workerd's own module) and the worker
// side that opens it (lesson-live.server.ts), which so does not load the Durable Object's module: the courses index
// (and its tables, which drizzle-kit reads under Node) stay loadable outside workerd.

/** The header by which the worker tells the channel whose socket it is opening. */
export const USER_HEADER = "X-Nika-User";
