// Node-side database access for scripts (migrate, seed): the same Neon driver as the worker, over
// WebSocket — to Neon in production, to the local bridge (DB_WS_PROXY) for the embedded database.
import { readFileSync, existsSync } from "node:fs";
import { parseEnv } from "node:util";
import { Pool, neonConfig } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import ws from "ws";
import * as schema from "../../app/server/schema";

/** process.env, completed by an env file (.dev.vars by default) for keys not already set. */
export function loadEnv(file = process.env.ENV_FILE ?? ".dev.vars"): Record<string, string | undefined> {
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, "utf8")) : {};
  return { ...fromFile, ...process.env };
}

export function connect(env: Record<string, string | undefined>) {
  if (!env.DATABASE_URL) throw new Error("DATABASE_URL is not set (see .dev.vars.example)");
  neonConfig.webSocketConstructor = ws;
  if (env.DB_WS_PROXY) {
    neonConfig.wsProxy = () => env.DB_WS_PROXY!;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 2 });
  return { pool, db: drizzle(pool, { schema }) };
}
