import { createHash } from "node:crypto";
import { drizzle } from "drizzle-orm/node-postgres";
import type { PgDatabase } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Env } from "./env";

/**
 * Any drizzle Postgres database over our tables: node-postgres in the worker, PGlite in tests. No schema type: the
 * app uses no relational queries (db.query.*), and the tables live in app/server/schema.ts and each feature's tables.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Database = PgDatabase<any>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type DbOrTx = Database | Transaction;

export type RequestDb = {
  /** Created on first use, so requests that never touch the database open no connection. */
  readonly db: Database;
  /** Number of SQL statements this request sent (for query-count checks and benchmarks). */
  readonly queryCount: () => number;
  /**
   * Starts opening the connection now, so that its TCP handshake and Postgres start-up overlap what the request does
   * before its first statement (reading a form). A failure here is left to that statement, which meets it again.
   */
  connectEarly: () => void;
  close: () => Promise<void>;
};

/**
 * A database client for one request: node-postgres over a TCP socket (workerd's `connect()`, through pg-cloudflare),
 * to the Hyperdrive binding's pooled connection when there is one, else straight to DATABASE_URL (the embedded
 * database locally). Workers forbid sharing I/O objects across requests, so the pool is created per request and must
 * be closed (server.ts does it in ctx.waitUntil). TCP rather than the Neon driver's WebSocket: it skips the HTTP upgrade
 * and a timer per write, so a statement costs the worker less (decision 0019).
 */
export function createRequestDb(env: Pick<Env, "DATABASE_URL" | "HYPERDRIVE">): RequestDb {
  let pool: pg.Pool | undefined;
  let db: Database | undefined;
  let queries = 0;
  return {
    connectEarly() {
      void this.db;
      // max: 1, so the connection released here is the one the first statement takes.
      pool!.connect().then(
        (client) => client.release(),
        () => {},
      );
    },
    get db() {
      if (!db) {
        pool = new pg.Pool({
          connectionString: env.HYPERDRIVE?.connectionString ?? env.DATABASE_URL,
          // One connection per request: what a page reads in parallel (nested loaders, Promise.all) waits its turn on
          // it, which costs far less than a second connection and Postgres start-up (decision 0019). A transaction must
          // therefore only use its `tx`, never `context.db`, or it would wait for itself.
          max: 1,
          connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS,
          query_timeout: DB_QUERY_TIMEOUT_MS,
        });
        // An idle connection that dies (the database went away) is reported here; without a listener
        // the EventEmitter would throw it out of nowhere. The next query fails (and is classified) instead.
        pool.on("error", () => {});
        // So is a connection the database drops after its request is done with it: pg reports it on the client, and
        // throws it (an uncaught error in the worker's log) when nobody listens. A query in flight is rejected anyway.
        pool.on("connect", (client) => client.on("error", () => {}));
        tagUnavailableErrors(pool);
        // No `schema`: the app uses no relational queries (db.query.*), and drizzle would rebuild the relational
        // config of every table on each request.
        db = drizzle(pool, { logger: { logQuery: () => void queries++ } }) as unknown as Database;
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
 * How long a request waits for a database connection (a slot in its pool, the WebSocket, Postgres'
 * start-up) before giving up, and for the answer to one statement. Past either, the statement fails
 * with an error `isDatabaseUnavailable` recognises and the request answers 503 (server.ts,
 * entry.server.tsx): a request never waits on a database that is gone for longer than
 * DB_CONNECT_TIMEOUT_MS + DB_QUERY_TIMEOUT_MS per statement it sends (decision 0019).
 */
export const DB_CONNECT_TIMEOUT_MS = 5_000;
export const DB_QUERY_TIMEOUT_MS = 10_000;
/** The `Retry-After` (seconds) of the 503 answered while the database cannot be reached. */
export const DB_RETRY_AFTER_SECONDS = 10;

/** What a learner reads while the database cannot be reached (page, JSON `error`, SSE error event). */
export const DATABASE_UNAVAILABLE = {
  title: "Serviço temporariamente indisponível",
  message: "Não conseguimos acessar os dados agora. Tente novamente em alguns segundos.",
} as const;

/**
 * A connection-level failure of the database (refused, reset or closed socket/WebSocket, connect or
 * statement timeout, server shutting down), tagged where the driver raises it so that nothing else
 * (an AI provider's or the mail API's ECONNREFUSED) is ever mistaken for it. Drizzle wraps it in a
 * DrizzleQueryError (as `cause`).
 */
export class DatabaseUnavailableError extends Error {
  override name = "DatabaseUnavailableError";
  constructor(cause: unknown) {
    super(`Banco de dados indisponível: ${describe(cause)}`, { cause });
  }
}

const describe = (error: unknown) =>
  error && typeof error === "object" && "message" in error && typeof error.message === "string" && error.message ? error.message : String(error);

/** Node/undici socket codes and Postgres SQLSTATEs (class 08 connection exception, 57P01–57P03 shutdown). */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "57P01",
  "57P02",
  "57P03",
]);
/** The messages of node-postgres (over Node's or workerd's sockets: "proxy request failed…" is workerd refused) when the server is gone. */
const CONNECTION_MESSAGES =
  /ECONNREFUSED|proxy request failed|cannot connect to the specified address|ECONNRESET|ETIMEDOUT|EPIPE|Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Connection ended|Client has encountered a connection error|Client was closed|WebSocket|socket hang up|network connection was lost|Network connection lost|terminating connection due to administrator command|the database system is (?:starting up|shutting down)/i;

/** Whether an error raised by the driver itself is a connection failure (not a constraint, not a bug). */
function isConnectionFailure(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { code, message, type } = error as { code?: unknown; message?: unknown; type?: unknown };
  if (typeof code === "string" && CONNECTION_CODES.has(code)) return true;
  if (typeof message === "string" && CONNECTION_MESSAGES.test(message)) return true;
  // A WebSocket "error" event (ErrorEvent/Event) thrown as is by the driver's socket shim.
  return type === "error" && !(error instanceof Error);
}

function tagged(error: unknown): unknown {
  return isDatabaseUnavailable(error) || !isConnectionFailure(error) ? error : new DatabaseUnavailableError(error);
}

type Queryable = { query: (...args: unknown[]) => unknown };
const wrapped = new WeakSet<object>();
/**
 * Makes `target.query` (promise form) turn connection failures into DatabaseUnavailableError, and send every statement
 * with parameters as a named prepared statement (see `statementName`).
 */
function tagQueries(target: Queryable) {
  if (wrapped.has(target)) return;
  wrapped.add(target);
  const query = target.query.bind(target);
  target.query = (...args: unknown[]) => {
    const [config, values] = args;
    if (Array.isArray(values) && values.length && isUnnamedStatement(config)) args[0] = { ...config, name: statementName(config.text) };
    const result = query(...args);
    return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(tagged(error))) : result;
  };
}

const isUnnamedStatement = (config: unknown): config is { text: string } =>
  typeof config === "object" &&
  config !== null &&
  typeof (config as { text?: unknown }).text === "string" &&
  !(config as { name?: unknown }).name;

/** Names handed out by this isolate, per statement text (bounded: drizzle's texts vary only with the shape of a query). */
const statementNames = new Map<string, string>();
const MAX_STATEMENT_NAMES = 2_000;

/**
 * The name a statement is prepared under: a hash of its text, so the same statement has the same name in every isolate
 * and request. Named statements let the database keep their parse and plan: Hyperdrive and Neon's pooler
 * (PgBouncer ≥ 1.22) track them across pooled connections, and the embedded database's server does the same
 * (scripts/db-server.mjs), where planning was most of a page's statement's time (decision 0019).
 * Statements without parameters stay simple queries (BEGIN, COMMIT, reads with nothing to bind).
 */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name) return name;
  name = `s${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
  if (statementNames.size >= MAX_STATEMENT_NAMES) statementNames.clear();
  statementNames.set(text, name);
  return name;
}

/** Tags the failures of the pool's queries, of its connect() (transactions) and of the clients it hands out. */
function tagUnavailableErrors(pool: pg.Pool) {
  tagQueries(pool as unknown as Queryable);
  const connect = pool.connect.bind(pool) as (callback?: unknown) => unknown;
  (pool as unknown as { connect: typeof connect }).connect = (callback?: unknown) => {
    if (callback) return connect(callback); // pg-pool's own query() path: its errors reach pool.query above
    return (connect() as Promise<Queryable>).then(
      (client) => (tagQueries(client), client),
      (error: unknown) => Promise.reject(tagged(error)),
    );
  };
}

/**
 * Whether `error` (or anything in its `cause` chain: DrizzleQueryError, a transaction's rollback)
 * means the database cannot be reached right now — the one test behind every 503 "temporarily
 * unavailable" answer. Constraint violations, bad SQL and every non-database failure are not.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    // By name too: server.ts and the server build each bundle their own copy of this module in the worker.
    if (current instanceof DatabaseUnavailableError || (current as Error).name === "DatabaseUnavailableError") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The constraint a statement broke when it failed on a unique index (SQLSTATE 23505), or null for any other failure.
 * Drizzle wraps the driver's error (as `cause`).
 */
export function uniqueViolation(error: unknown): string | null {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === "23505") return typeof constraint === "string" ? constraint : "";
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

const UNAVAILABLE_MARK = "database-unavailable";
/** Notes on the request's context that it failed for want of the database (handleError does it). */
export function markDatabaseUnavailable(context: { memo: Map<string, unknown> }) {
  context.memo.set(UNAVAILABLE_MARK, true);
}
export function wasDatabaseUnavailable(context: { memo: Map<string, unknown> }) {
  return context.memo.get(UNAVAILABLE_MARK) === true;
}

/**
 * The 503 answered while the database cannot be reached, with `Retry-After`: an SSE `error` event
 * for clients reading an event stream (the chat's resource routes), JSON `{ error, title }` otherwise.
 * Pages get the same status and header with the root error boundary's screen (entry.server.tsx).
 */
export function databaseUnavailableResponse(request?: Request): Response {
  const headers = { "Retry-After": String(DB_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" };
  const page = request ? pageOfDataRequest(request) : null;
  if (page) return reloadDocumentResponse(page, headers);
  const body = { code: "database_unavailable", title: DATABASE_UNAVAILABLE.title, error: DATABASE_UNAVAILABLE.message };
  if (request?.headers.get("Accept")?.includes("text/event-stream")) {
    const data = { code: body.code, title: body.title, message: body.error, status: 503 };
    return new Response(`event: error\ndata: ${JSON.stringify(data)}\n\n`, {
      status: 503,
      headers: { ...headers, "Content-Type": "text/event-stream; charset=utf-8" },
    });
  }
  return Response.json(body, { status: 503, headers });
}

/**
 * The page a single-fetch data request (`/courses.data?_routes=…`: a client navigation, or a form submitted with
 * JavaScript) is for, or null for any other request.
 */
function pageOfDataRequest(request: Request): string | null {
  const url = new URL(request.url);
  if (!url.pathname.endsWith(".data")) return null;
  const path = url.pathname === "/_root.data" ? "/" : url.pathname.slice(0, -".data".length);
  url.searchParams.delete("_routes");
  url.searchParams.delete("index");
  return path + url.search;
}

/**
 * A data request's answer during an outage: the redirect React Router's client follows for responses the router
 * did not render (204 + `X-Remix-Redirect`; `X-Remix-Reload-Document` makes it a document load), to the same page —
 * whose document request then shows the pt-BR 503 screen (or the page, if the database is back). JSON here would
 * fail to decode and show the generic error screen instead. `Retry-After` goes with it.
 */
function reloadDocumentResponse(page: string, headers: Record<string, string>): Response {
  return new Response(null, {
    status: 204,
    headers: { ...headers, "X-Remix-Redirect": page, "X-Remix-Status": "302", "X-Remix-Reload-Document": "true" },
  });
}

/**
 * Runs `handle` (React Router's request handler; server.ts) and makes a request that failed for want of the
 * database answer 503: one that threw such an error, and a resource route or data request (single
 * fetch) that answered ≥ 500 after handleError (entry.server.tsx) marked the context — JSON or the SSE
 * error event. Pages already answer 503 with the root error boundary's screen (entry.server.tsx).
 */
export async function answeringDatabaseUnavailable(
  request: Request,
  context: { memo: Map<string, unknown> },
  handle: () => Promise<Response>,
): Promise<Response> {
  let response: Response;
  try {
    response = await handle();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    return databaseUnavailableResponse(request);
  }
  if (response.status < 500 || response.status === 503 || !wasDatabaseUnavailable(context)) return response;
  await response.body?.cancel().catch(() => {});
  return databaseUnavailableResponse(request);
}

/**
 * The rows of a raw `db.execute(sql…)` result: the Neon driver answers `{ rows }`, PGlite an array
 * (or `{ rows }` too). Typed by the caller, since raw SQL has no column types.
 */
export function rowsOf<Row = Record<string, unknown>>(result: unknown): Row[] {
  if (Array.isArray(result)) return result as Row[];
  return (result as { rows?: Row[] } | null)?.rows ?? [];
}

/** A json/jsonb value of a raw result: the Neon driver parses it, PGlite may hand over the text. */
export function jsonValue<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}
