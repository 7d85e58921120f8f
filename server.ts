import { createRequestHandler, type ServerBuild } from "react-router";
import type { Env } from "./app/server/env";
import type * as Worker from "./app/worker.server";
// eslint-disable-next-line @typescript-eslint/ban-ts-comment -- @ts-expect-error would fail once build/ exists
// @ts-ignore - the server build exists only after `npm run build`
import * as build from "./build/server";

// The app's modules come through the build (entry.server.tsx re-exports app/worker.server.ts): imported here
// directly, wrangler would bundle them twice.
const {
  answeringDatabaseUnavailable,
  ConfigError,
  createRequestDb,
  CRON_JOBS,
  formTargetOrigins,
  getLoadContext,
  isProduction,
  loadEnv,
  refuseControlCharactersInUrl,
  withSecurityHeaders,
} = (build as unknown as { entry: { module: { worker: typeof Worker } } }).entry.module.worker;

// Durable Object classes must be exported by the worker entry (wrangler.toml binds LESSON_CHANNELS and LIVE_CONVERSATIONS).
export const { LessonChannel, LiveConversation } = (build as unknown as { entry: { module: { worker: typeof Worker } } }).entry.module.worker;

const handleRouterRequest = createRequestHandler(build as unknown as ServerBuild, "production");

/** A missing or malformed setting: one plain answer naming it (logged once per isolate by loadEnv). */
const configErrorResponse = (error: InstanceType<typeof ConfigError>) =>
  new Response(error.message, { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export default {
  async fetch(request, env, ctx) {
    let loadContext: ReturnType<typeof getLoadContext>;
    try {
      loadContext = getLoadContext({
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
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return withSecurityHeaders(configErrorResponse(error), { request, production: env.APP_ENV === "production" });
    }
    try {
      // Every response the worker returns gets its security headers here (WebSocket upgrades excepted).
      // A control character in the URL is refused before any route reads it (request.server.ts).
      // A request that failed for want of the database answers 503 + Retry-After (db.server.ts).
      const response =
        refuseControlCharactersInUrl(request) ??
        (await answeringDatabaseUnavailable(request, loadContext, () => handleRouterRequest(request, loadContext)));
      const appEnv = loadContext.cloudflare.env;
      return withSecurityHeaders(response, {
        request,
        nonce: loadContext.cspNonce,
        production: isProduction(appEnv),
        formTargets: formTargetOrigins(appEnv),
      });
    } finally {
      ctx.waitUntil(loadContext.closeDb());
    }
  },

  /** The cron triggers of wrangler.toml, each run by its row of the job table (app/cron-jobs.server.ts). */
  async scheduled(controller, rawEnv, ctx) {
    const env = loadEnv(rawEnv); // a ConfigError fails the cron run, with the same message
    const job = CRON_JOBS[controller.cron];
    if (!job) {
      console.error("[cron] no job for", controller.cron);
      return;
    }
    const requestDb = createRequestDb(env);
    ctx.waitUntil(job.run(requestDb.db, env, new Date(controller.scheduledTime)).finally(() => requestDb.close()));
  },
} satisfies ExportedHandler<Env>;
