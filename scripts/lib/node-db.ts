// Node-side database access for scripts (migrate, seed), tests and benches: the worker's driver, node-postgres, with
// drizzle's node-postgres adapter, over TCP to DATABASE_URL — Neon in production, the embedded database's Postgres
// port (scripts/db-server.mjs) locally, or any real Postgres.
import { readFileSync, existsSync } from "node:fs";
import { parseEnv } from "node:util";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";

/** process.env, completed by an env file (.dev.vars by default) for keys not already set. */
export function loadEnv(file = process.env.ENV_FILE ?? ".dev.vars"): Record<string, string | undefined> {
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, "utf8")) : {};
  return { ...fromFile, ...process.env };
}

export function connect(env: Record<string, string | undefined>) {
  if (!env.DATABASE_URL) throw new Error("DATABASE_URL is not set (see .dev.vars.example)");
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });
  return { pool, db: drizzle(pool) };
}
