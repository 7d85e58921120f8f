import type { PlatformProxy } from "wrangler";
import { createRequestDb, type Database } from "./app/server/db.server";
import type { Env } from "./app/server/env";

type Cloudflare = Omit<PlatformProxy<Env>, "dispose" | "env"> & { env: Env };

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: Cloudflare;
    /** Per-request database (lazy). */
    readonly db: Database;
    queryCount: () => number;
    closeDb: () => Promise<void>;
    /** Memo for values computed once per request (session user, flags). */
    memo: Map<string, unknown>;
  }
}

export function getLoadContext({ context }: { request: Request; context: { cloudflare: Cloudflare } }) {
  const requestDb = createRequestDb(context.cloudflare.env);
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
    cloudflare: { ...context.cloudflare, ctx },
    get db() {
      return requestDb.db;
    },
    queryCount: requestDb.queryCount,
    async closeDb() {
      await Promise.allSettled(background);
      await requestDb.close();
    },
    memo: new Map<string, unknown>(),
  };
}
