import { Pool, neonConfig } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import type { PgDatabase } from "drizzle-orm/pg-core";
import type { Env } from "./env";
import * as schema from "./schema";

/** Any drizzle Postgres database over our schema: Neon in the worker, PGlite in tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Database = PgDatabase<any, typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type DbOrTx = Database | Transaction;

export type RequestDb = {
  /** Created on first use, so requests that never touch the database open no connection. */
  readonly db: Database;
  /** Number of SQL statements this request sent (for query-count checks and benchmarks). */
  readonly queryCount: () => number;
  close: () => Promise<void>;
};

/**
 * A database client for one request. Workers forbid sharing I/O objects across requests, so the
 * pool is created per request and must be closed (server.ts does it in ctx.waitUntil).
 */
export function createRequestDb(env: Pick<Env, "DATABASE_URL" | "DB_WS_PROXY">): RequestDb {
  let pool: Pool | undefined;
  let db: Database | undefined;
  let queries = 0;
  return {
    get db() {
      if (!db) {
        if (env.DB_WS_PROXY) {
          // The local bridge speaks plain ws:// and plain Postgres (no TLS inside the socket).
          neonConfig.wsProxy = () => env.DB_WS_PROXY!;
          neonConfig.useSecureWebSocket = false;
          neonConfig.pipelineTLS = false;
          neonConfig.pipelineConnect = false;
        }
        pool = new Pool({ connectionString: env.DATABASE_URL, max: 4 });
        db = drizzle(pool, {
          schema,
          logger: { logQuery: () => void queries++ },
        }) as unknown as Database;
      }
      return db;
    },
    queryCount: () => queries,
    async close() {
      if (pool) await pool.end().catch(() => {});
    },
  };
}

/**
 * The rows of a raw `db.execute(sql…)` result: the Neon driver answers `{ rows }`, PGlite an array
 * (or `{ rows }` too). Typed by the caller, since raw SQL has no column types.
 */
export function rowsOf<Row = Record<string, unknown>>(result: unknown): Row[] {
  if (Array.isArray(result)) return result as Row[];
  return (result as { rows?: Row[] } | null)?.rows ?? [];
}
