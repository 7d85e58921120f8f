import type { PlatformProxy } from "wrangler";
import { createRequestDb, type Database } from "./app/server/db.server";
import { loadEnv, type Env } from "./app/server/env";
import { createNonce } from "./app/server/security-headers.server";

type Cloudflare = Omit<PlatformProxy<Env>, "dispose" | "env"> & { env: Env };

declare module "react-router" {
  interface AppLoadContext {
    cloudflare: Cloudflare;
    /** Per-request database (lazy). */
    readonly db: Database;
    queryCount: () => number;
    /** Opens the database connection now, ahead of the first statement (db.server.ts). */
    connectDbEarly: () => void;
    closeDb: () => Promise<void>;
    /** Memo for values computed once per request (session user, flags). */
    memo: Map<string, unknown>;
    /** Names this request in server error reports. */
    requestId: string;
    /** This request's Content-Security-Policy nonce (entry.server.tsx puts it on the page's scripts). */
    cspNonce?: string;
  }
}

/** Throws a ConfigError (app/server/env.ts) when a setting is missing or malformed. */
export function getLoadContext({ context }: { request: Request; context: { cloudflare: Cloudflare } }) {
  // Checked once per env object (cached): bindings pass through, blank optional settings become unset.
  const env = loadEnv(context.cloudflare.env);
  const requestDb = createRequestDb(env);
  // Work handed to waitUntil (a chat reply still streaming when the response is returned) may use
  // the database: the pool closes only after it has settled.
  const background: Promise<unknown>[] = [];
  const platformCtx = context.cloudflare.ctx;
  const ctx = {
    waitUntil(promise: Promise<unknown>) {
      background.push(promise);
      platformCtx.waitUntil(promise);
    },
    passThroughOnException: () => platformCtx.passThroughOnException(),
  } as Cloudflare["ctx"];
  return {
    cloudflare: { ...context.cloudflare, env, ctx },
    get db() {
      return requestDb.db;
    },
    queryCount: requestDb.queryCount,
    connectDbEarly: () => requestDb.connectEarly(),
    async closeDb() {
      // Background work may hand over more (a reply's stream starts the review of the learner's turn): wait for all.
      for (let settled = 0; settled < background.length;) {
        const batch = background.slice(settled);
        await Promise.allSettled(batch);
        settled += batch.length;
      }
      await requestDb.close();
    },
    memo: new Map<string, unknown>(),
    requestId: crypto.randomUUID(),
    cspNonce: createNonce(),
  };
}
