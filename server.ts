import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// @ts-ignore - the server build exists only after `npm run build`
import * as build from "./build/server";
import { getLoadContext } from "./load-context";
import { createRequestDb } from "./app/server/db.server";
import { renewAllCredits, monthlyAllowance } from "./app/server/credits.server";
import type { Env } from "./app/server/env";

// Durable Object classes must be exported by the worker entry (wrangler.toml binds LESSON_CHANNELS).
export { LessonChannel } from "./app/server/lesson-channel";

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);

export default {
  async fetch(request, env, ctx) {
    const loadContext = getLoadContext({
      request,
      context: {
        cloudflare: {
          // This object matches the return value from Wrangler's `getPlatformProxy` used during development
          cf: request.cf as never,
          ctx: { waitUntil: ctx.waitUntil.bind(ctx), passThroughOnException: ctx.passThroughOnException.bind(ctx) } as never,
          caches: caches as never,
          env,
        },
      },
    });
    try {
      return await handleRemixRequest(request, loadContext);
    } finally {
      ctx.waitUntil(loadContext.closeDb());
    }
  },

  /** Monthly credits: cron "0 3 1 * *" (00:00 on day 1 in America/Sao_Paulo). */
  async scheduled(_controller, env, ctx) {
    const requestDb = createRequestDb(env);
    ctx.waitUntil(
      renewAllCredits(requestDb.db, monthlyAllowance(env), new Date()).finally(() => requestDb.close()),
    );
  },
} satisfies ExportedHandler<Env>;
