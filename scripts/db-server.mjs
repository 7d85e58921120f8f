// The embedded database: PGlite (real Postgres in WASM) persisted on disk, served over the Postgres
// wire protocol by pglite-socket, fronted by a WebSocket→TCP bridge so the worker in workerd uses
// the same Neon serverless driver it uses in production (neonConfig.wsProxy).
//
//   node scripts/db-server.mjs [--data .data/pglite] [--pg-port 25320] [--ws-port 5488]
//   PG_TARGET=host:port node scripts/db-server.mjs   → bridge only, in front of a real Postgres
import { mkdirSync } from "node:fs";
import net from "node:net";
import { parseArgs } from "node:util";
import { WebSocketServer } from "ws";

const { values: args } = parseArgs({
  options: {
    data: { type: "string", default: process.env.PGLITE_DIR ?? ".data/pglite" },
    "pg-port": { type: "string", default: process.env.PG_PORT ?? "25320" },
    "ws-port": { type: "string", default: process.env.DB_WS_PORT ?? "5488" },
  },
});

const pgPort = Number(args["pg-port"]);
const wsPort = Number(args["ws-port"]);
let target = { host: "127.0.0.1", port: pgPort };
let stopDatabase = async () => {};

if (process.env.PG_TARGET) {
  const [host, port] = process.env.PG_TARGET.split(":");
  target = { host, port: Number(port ?? 5432) };
} else {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  mkdirSync(args.data, { recursive: true });
  const db = await PGlite.create(args.data);
  const server = new PGLiteSocketServer({ db, port: pgPort, host: "127.0.0.1", maxConnections: 64 });
  await server.start();
  stopDatabase = async () => {
    await server.stop();
    await db.close();
  };
}

const SSL_REQUEST = 80877103;
const TERMINATE = 0x58; // 'X'
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I' — ReadyForQuery status outside a transaction
/** Client messages after which the client waits for the server: a request is complete. */
const REQUEST_END = new Set([0x53 /* Sync */, 0x51 /* Query */, 0x70 /* Password */, 0x46 /* FunctionCall */, 0x48 /* Flush */]);

/** Splits the client→server byte stream into whole messages (the first ones are untyped). */
function clientFramer() {
  let buffer = Buffer.alloc(0);
  let startupDone = false;
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    const messages = [];
    for (;;) {
      if (!startupDone) {
        if (buffer.length < 8) break;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) break;
        const ssl = buffer.readInt32BE(4) === SSL_REQUEST;
        if (!ssl) startupDone = true;
        messages.push({ type: ssl ? "ssl" : "startup", bytes: buffer.subarray(0, length) });
        buffer = buffer.subarray(length);
        continue;
      }
      if (buffer.length < 5) break;
      const length = buffer.readInt32BE(1);
      if (buffer.length < length + 1) break;
      messages.push({ type: buffer[0], bytes: buffer.subarray(0, length + 1) });
      buffer = buffer.subarray(length + 1);
    }
    return messages;
  };
}

/** Finds ReadyForQuery messages (and their transaction status) in the server→client stream. */
function serverFramer() {
  let buffer = Buffer.alloc(0);
  let rawBytes = 0; // the one-byte answer to an SSLRequest is not a framed message
  return {
    expectRawByte: () => void rawBytes++,
    push(chunk) {
      buffer = Buffer.concat([buffer, chunk]);
      const statuses = [];
      for (;;) {
        if (rawBytes > 0 && buffer.length > 0) {
          buffer = buffer.subarray(1);
          rawBytes--;
          continue;
        }
        if (buffer.length < 5) break;
        const length = buffer.readInt32BE(1);
        if (buffer.length < length + 1) break;
        if (buffer[0] === READY_FOR_QUERY) statuses.push(buffer[5]);
        buffer = buffer.subarray(length + 1);
      }
      return statuses;
    },
  };
}

// PGlite is one session: pglite-socket multiplexes connections message by message, so two clients'
// extended-query sequences (Parse/Bind/Execute/Sync) or transactions could interleave and corrupt
// each other ("bind message supplies 2 parameters…"). The bridge therefore lets one connection talk
// at a time, from a complete request until the server is idle again (ReadyForQuery 'I').
const lock = { holder: null, queue: [] };
const QUEUE_PATIENCE_MS = 10_000; // a request waiting longer is let through (avoids deadlocks)

function submit(conn, bytes) {
  if (lock.holder === null || lock.holder === conn) {
    lock.holder = conn;
    conn.write(bytes);
  } else {
    lock.queue.push({ conn, bytes, since: Date.now() });
  }
}
function release(conn) {
  if (lock.holder !== conn) return;
  lock.holder = null;
  lock.queue = lock.queue.filter((item) => item.conn.alive);
  const next = lock.queue.shift();
  if (!next) return;
  lock.holder = next.conn;
  next.conn.write(next.bytes);
  // Further queued requests of the same connection follow it straight away.
  for (const item of lock.queue.filter((queued) => queued.conn === next.conn)) item.conn.write(item.bytes);
  lock.queue = lock.queue.filter((queued) => queued.conn !== next.conn);
}
setInterval(() => {
  const now = Date.now();
  for (const item of lock.queue.filter((queued) => now - queued.since > QUEUE_PATIENCE_MS)) {
    console.warn("[db] a request waited over 10 s for the database lock; letting it through");
    item.conn.write(item.bytes);
  }
  lock.queue = lock.queue.filter((queued) => now - queued.since <= QUEUE_PATIENCE_MS);
}, 1000).unref();

const wss = new WebSocketServer({ host: "127.0.0.1", port: wsPort });
wss.on("connection", (ws) => {
  const tcp = net.connect(target);
  const pendingWrites = [];
  let connected = false;
  let batch = [];
  const fromClient = clientFramer();
  const fromServer = serverFramer();
  const conn = {
    alive: true,
    write(bytes) {
      if (connected) tcp.write(bytes);
      else pendingWrites.push(bytes);
    },
  };
  const hangUp = () => {
    if (!conn.alive) return;
    conn.alive = false;
    release(conn);
    tcp.destroy();
    if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.terminate();
  };
  tcp.on("connect", () => {
    connected = true;
    for (const bytes of pendingWrites) tcp.write(bytes);
    pendingWrites.length = 0;
  });
  ws.on("message", (data) => {
    for (const message of fromClient(Buffer.isBuffer(data) ? data : Buffer.from(data))) {
      // pglite-socket ignores Terminate and workerd sends no close frame after pool.end(): hang up here.
      if (message.type === TERMINATE) return hangUp();
      batch.push(message.bytes);
      if (message.type === "ssl") fromServer.expectRawByte();
      if (message.type === "ssl" || message.type === "startup" || REQUEST_END.has(message.type)) {
        submit(conn, Buffer.concat(batch));
        batch = [];
      }
    }
  });
  tcp.on("data", (chunk) => {
    if (ws.readyState === ws.OPEN) ws.send(chunk);
    for (const status of fromServer.push(chunk)) if (status === IDLE) release(conn);
  });
  tcp.on("close", hangUp);
  tcp.on("error", hangUp);
  ws.on("close", hangUp);
  ws.on("error", hangUp);
});

await new Promise((resolve) => wss.on("listening", resolve));
console.log(`[db] Postgres on 127.0.0.1:${target.port}, WebSocket bridge on 127.0.0.1:${wsPort}`);
process.send?.({ ready: true });

async function shutdown() {
  wss.close();
  await stopDatabase();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
