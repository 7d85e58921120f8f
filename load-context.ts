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
  return {
    cloudflare: context.cloudflare,
    get db() {
      return requestDb.db;
    },
    queryCount: requestDb.queryCount,
    closeDb: requestDb.close,
    memo: new Map<string, unknown>(),
  };
}
