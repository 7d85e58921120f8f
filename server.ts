import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import { monthlyAllowance, refundAbandonedSpends, renewAllCredits } from "./app/server/credits.server";
import { answeringDatabaseUnavailable, createRequestDb } from "./app/server/db.server";
import { ConfigError, isProduction, loadEnv, type Env } from "./app/server/env";
import { formTargetOrigins, withSecurityHeaders } from "./app/server/security-headers.server";
// eslint-disable-next-line @typescript-eslint/ban-ts-comment -- @ts-expect-error would fail once build/ exists
// @ts-ignore - the server build exists only after `npm run build`
import * as build from "./build/server";
import { getLoadContext } from "./load-context";

// Durable Object classes must be exported by the worker entry (wrangler.toml binds LESSON_CHANNELS and LIVE_CONVERSATIONS).
export { LessonChannel } from "./app/server/lesson-channel";
export { LiveConversation } from "./app/features/live/relay.server";

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);

/** A missing or malformed setting: one plain answer naming it (logged once per isolate by loadEnv). */
const configErrorResponse = (error: ConfigError) =>
  new Response(error.message, { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/** wrangler.toml's crons: the monthly renewal (00:00 on day 1 in São Paulo); the other one (every 5 minutes) sweeps. */
const MONTHLY_RENEWAL_CRON = "0 3 1 * *";

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
      // A request that failed for want of the database answers 503 + Retry-After (db.server.ts).
      const response = await answeringDatabaseUnavailable(request, loadContext, () => handleRemixRequest(request, loadContext));
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

  /** Monthly credits: cron "0 3 1 * *" (00:00 on day 1 in America/Sao_Paulo); every 5 minutes, the abandoned-spends sweep. */
  async scheduled(controller, rawEnv, ctx) {
    const env = loadEnv(rawEnv); // a ConfigError fails the cron run, with the same message
    const requestDb = createRequestDb(env);
    const job =
      controller.cron === MONTHLY_RENEWAL_CRON
        ? renewAllCredits(requestDb.db, monthlyAllowance(env), new Date())
        : refundAbandonedSpends(requestDb.db, new Date()).then((refunded) => {
            if (refunded.chatMessages || refunded.attempts || refunded.liveMinutes) console.warn("[sweep] abandoned spends refunded", refunded);
          });
    ctx.waitUntil(job.finally(() => requestDb.close()));
  },
} satisfies ExportedHandler<Env>;
