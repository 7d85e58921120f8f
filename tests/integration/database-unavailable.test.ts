// The database going away (issue 13, item 5): the driver's real failures — a refused connection, a
// server that hangs up, one that never answers — are recognised by isDatabaseUnavailable and nothing
// else is; a page whose loaders need the database answers 503 + Retry-After with the pt-BR screen
// (through React Router's real request handler, entry.server.tsx and the root error boundary), a resource
// route 503 JSON, an event-stream client its SSE error event; and the same context recovers when
// the database is back. No process is killed here (bench/load.mjs --fault does that).
import net from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { sql } from "drizzle-orm";
import { createRequestHandler, type ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as entryServer from "~/entry.server";
import * as root from "~/root";
import {
  answeringDatabaseUnavailable,
  createRequestDb,
  DATABASE_UNAVAILABLE,
  DB_CONNECT_TIMEOUT_MS,
  DB_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  rowsOf,
} from "~/server/db.server";
import { getLoadContext } from "../../load-context";
import { freePort } from "./fake-upstream";
import { createTestDb, TEST_ENV } from "./harness";

// workerd's react-dom/server (renderToReadableStream) is the browser build; Node's has none.
vi.mock("react-dom/server", async () => await vi.importActual("react-dom/server.browser"));

/** A loopback port nobody listens on (a free one, probed and released). */
const closedPort = freePort;

const dbEnv = (pgPort: number) => ({ DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres` });

/** A TCP server on a free loopback port that does `onSocket` with each connection (e.g. hangs up, or stays silent). */
async function tcpServer(onSocket: (socket: net.Socket) => void) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  };
  return { port: (server.address() as net.AddressInfo).port, close };
}

/** What a query through a fresh request pool throws (and how long it took). */
async function failureOf(env: ReturnType<typeof dbEnv>) {
  const requestDb = createRequestDb(env);
  const started = Date.now();
  try {
    await requestDb.db.execute(sql`select 1`);
    return { error: undefined, ms: Date.now() - started };
  } catch (error) {
    return { error, ms: Date.now() - started };
  } finally {
    await requestDb.close();
  }
}

describe("isDatabaseUnavailable on the driver's real failures", () => {
  it("recognises a refused connection (the database is down)", async () => {
    const { error, ms } = await failureOf(dbEnv(await closedPort()));
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(ms).toBeLessThan(DB_CONNECT_TIMEOUT_MS);
  });

  it("recognises a server that hangs up at once", async () => {
    const server = await tcpServer((socket) => socket.destroy());
    const { error } = await failureOf(dbEnv(server.port));
    await server.close();
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("gives up on a server that never answers after the connect timeout, and recognises it", async () => {
    const server = await tcpServer(() => {});
    const { error, ms } = await failureOf(dbEnv(server.port));
    await server.close();
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(DB_CONNECT_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(DB_CONNECT_TIMEOUT_MS + 2_000);
  });

  it("does not take a constraint violation, bad SQL or another service's ECONNREFUSED for it", async () => {
    const { db } = await createTestDb();
    const duplicate = await db.execute(sql`insert into users (id) values (null)`).catch((e: unknown) => e);
    const badSql = await db.execute(sql`select * from no_such_table`).catch((e: unknown) => e);
    const mailDown = await fetch(`http://127.0.0.1:${await closedPort()}/emails`).catch((e: unknown) => e);
    for (const error of [duplicate, badSql, mailDown, new Error("Connection terminated unexpectedly"), null, "x"]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
    // mailDown is the same ECONNREFUSED, raised by fetch: only the database driver's own is tagged.
    expect(String((mailDown as Error & { cause?: Error }).cause?.message ?? "")).toMatch(/ECONNREFUSED/);
  });
});

// A database that can come and go: PGlite served over the Postgres protocol on TCP (what scripts/db-server.mjs
// does, without its one-at-a-time lock: these requests are serial), stopped and started again on the same port.
let pglite: PGlite;
let pgServer: PGLiteSocketServer | undefined;
let pgPort: number;

async function startDatabase() {
  pgServer = new PGLiteSocketServer({ db: pglite, port: pgPort, host: "127.0.0.1", maxConnections: 16 });
  await pgServer.start();
}
async function stopDatabase() {
  await pgServer?.stop();
  pgServer = undefined;
}

/** The worker's build reduced to the real root route (loader: flags + session; the boundary), a
 * page under it that reads the database, and a resource route that does. */
function buildWith(): ServerBuild {
  const pageModule = {
    loader: async ({ context }: { context: { db: { execute: (q: unknown) => Promise<unknown> } } }) =>
      rowsOf(await context.db.execute(sql`select 1 as one`)),
    default: () => null,
  };
  const resourceModule = {
    loader: async ({ context }: { context: { db: { execute: (q: unknown) => Promise<unknown> } } }) =>
      Response.json(rowsOf(await context.db.execute(sql`select 1 as one`))),
  };
  const manifestRoute = (id: string, parentId: string | undefined, path: string, hasErrorBoundary: boolean, hasDefault = true) => ({
    id,
    parentId,
    path,
    module: `/${id}.js`,
    imports: [],
    hasAction: false,
    hasLoader: true,
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasErrorBoundary,
    clientActionModule: undefined,
    clientLoaderModule: undefined,
    clientMiddlewareModule: undefined,
    hydrateFallbackModule: undefined,
    ...(hasDefault ? {} : { hasDefault: false }),
  });
  return {
    entry: { module: entryServer },
    routes: {
      root: { id: "root", path: "", module: root as never },
      "routes/page": { id: "routes/page", parentId: "root", path: "page", module: pageModule as never },
      "routes/resource": { id: "routes/resource", parentId: "root", path: "resource", module: resourceModule as never },
    },
    assets: {
      entry: { module: "/entry.client.js", imports: [] },
      routes: {
        root: manifestRoute("root", undefined, "", true),
        "routes/page": manifestRoute("routes/page", "root", "page", false),
        "routes/resource": manifestRoute("routes/resource", "root", "resource", false, false),
      },
      url: "/manifest.js",
      version: "test",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: { v8_middleware: false, v8_passThroughRequests: false, v8_trailingSlashAwareDataRequests: false },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
    basename: undefined,
  } satisfies ServerBuild;
}

const handler = createRequestHandler(buildWith(), "production");

/** One request the way server.ts serves it: a fresh load context (the real per-request pool), React Router, the 503 wrapper. */
async function serve(path: string, headers: Record<string, string> = {}) {
  const request = new Request(`http://nika.test${path}`, { headers });
  const waits: Promise<unknown>[] = [];
  const context = getLoadContext({
    request,
    context: {
      cloudflare: {
        env: { ...TEST_ENV, ...dbEnv(pgPort) },
        ctx: { waitUntil: (p: Promise<unknown>) => void waits.push(p), passThroughOnException: () => {} },
        cf: {},
        caches: undefined,
      } as never,
    },
  });
  const started = Date.now();
  try {
    const response = await answeringDatabaseUnavailable(request, context, () => handler(request, context));
    return { response, body: await response.text(), ms: Date.now() - started };
  } finally {
    await context.closeDb();
    await Promise.allSettled(waits);
  }
}

beforeAll(async () => {
  pglite = await PGlite.create();
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const { drizzle } = await import("drizzle-orm/pglite");
  await migrate(drizzle(pglite) as never, { migrationsFolder: "migrations" });
  pgPort = await closedPort();
  await startDatabase();
});

afterAll(async () => {
  await stopDatabase();
  await pglite?.close();
});

describe("requests while the database is away, and after it is back (React Router's request handler)", () => {
  it("serves the page while the database is up", async () => {
    const { response, body } = await serve("/page");
    expect(response.status).toBe(200);
    expect(body).toContain("<html");
  });

  it("answers a page 503 with Retry-After and the pt-BR screen when the database is down", async () => {
    await stopDatabase();
    const { response, body, ms } = await serve("/page");
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe(String(DB_RETRY_AFTER_SECONDS));
    expect(response.headers.get("Content-Type")).toMatch(/text\/html/);
    expect(body).toContain(DATABASE_UNAVAILABLE.title);
    expect(body).toContain(DATABASE_UNAVAILABLE.message);
    expect(body).toMatch(new RegExp(`<h1[^>]*>${DATABASE_UNAVAILABLE.title}</h1>`));
    expect(ms).toBeLessThan(DB_CONNECT_TIMEOUT_MS);
  });

  it("answers a resource route 503 JSON, and an event-stream client its SSE error event", async () => {
    const json = await serve("/resource");
    expect(json.response.status).toBe(503);
    expect(json.response.headers.get("Retry-After")).toBe(String(DB_RETRY_AFTER_SECONDS));
    expect(JSON.parse(json.body)).toMatchObject({ code: "database_unavailable", error: DATABASE_UNAVAILABLE.message });
    const sse = await serve("/resource", { Accept: "text/event-stream" });
    expect(sse.response.status).toBe(503);
    expect(sse.response.headers.get("Content-Type")).toMatch(/text\/event-stream/);
    expect(sse.body).toMatch(/^event: error\ndata: \{.*"status":503.*\}\n\n$/);
    expect(sse.body).toContain(DATABASE_UNAVAILABLE.message);
  });

  it("answers a client navigation's data request with a document reload of its page (where the 503 screen shows)", async () => {
    const { response, body } = await serve("/page.data?_routes=root%2Croutes%2Fpage&tab=2");
    // React Router's client follows a 204 with X-Remix-Redirect as a redirect, X-Remix-Reload-Document as a document load.
    expect(response.status).toBe(204);
    expect(body).toBe("");
    expect(response.headers.get("Retry-After")).toBe(String(DB_RETRY_AFTER_SECONDS));
    expect(Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("x-remix-")))).toEqual({
      "x-remix-redirect": "/page?tab=2",
      "x-remix-status": "302",
      "x-remix-reload-document": "true",
    });
    expect((await serve("/_root.data")).response.headers.get("X-Remix-Redirect")).toBe("/");
  });

  it("answers 503 too when the server accepts but hangs up (Postgres shutting down)", async () => {
    const hangingUp = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => hangingUp.listen(pgPort, "127.0.0.1", resolve));
    const { response, body } = await serve("/page");
    await new Promise((resolve) => hangingUp.close(resolve));
    expect(response.status).toBe(503);
    expect(body).toContain(DATABASE_UNAVAILABLE.title);
  });

  it("serves the page again once the database is back, without a restart", async () => {
    await startDatabase();
    const { response, body } = await serve("/page");
    expect(response.status).toBe(200);
    expect(body).not.toContain(DATABASE_UNAVAILABLE.title);
  });
});
