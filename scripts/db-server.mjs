// The embedded database: PGlite (real Postgres in WASM) persisted on disk, served over the Postgres
// wire protocol by pglite-socket, fronted by a WebSocket→TCP bridge so the worker in workerd uses
// the same Neon serverless driver it uses in production (neonConfig.wsProxy).
//
//   node scripts/db-server.mjs [--data .data/pglite] [--pg-port 54320] [--ws-port 5488]
//   PG_TARGET=host:port node scripts/db-server.mjs   → bridge only, in front of a real Postgres
import net from "node:net";
import { mkdirSync } from "node:fs";
import { parseArgs } from "node:util";
import { WebSocketServer } from "ws";

const { values: args } = parseArgs({
  options: {
    data: { type: "string", default: process.env.PGLITE_DIR ?? ".data/pglite" },
    "pg-port": { type: "string", default: process.env.PG_PORT ?? "54320" },
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

const TERMINATE = 0x58; // 'X'
const SSL_REQUEST = 80877103;

/** Follows the client→server message framing so the bridge can see Terminate ('X'). */
function createTerminateWatcher(onTerminate) {
  let buffer = Buffer.alloc(0);
  let startupDone = false;
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (!startupDone) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const code = buffer.readInt32BE(4);
        if (code !== SSL_REQUEST) startupDone = true;
        buffer = buffer.subarray(length);
        continue;
      }
      if (buffer.length < 5) return;
      const type = buffer[0];
      const length = buffer.readInt32BE(1);
      if (type === TERMINATE) return onTerminate();
      if (buffer.length < length + 1) return;
      buffer = buffer.subarray(length + 1);
    }
  };
}

const wss = new WebSocketServer({ host: "127.0.0.1", port: wsPort });
wss.on("connection", (ws) => {
  const tcp = net.connect(target);
  const pending = [];
  let connected = false;
  const hangUp = () => {
    tcp.destroy();
    if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.terminate();
  };
  // pglite-socket ignores Terminate and workerd sends no close frame after pool.end(): hang up here.
  const watch = createTerminateWatcher(() => {
    if (connected) tcp.end();
    setTimeout(hangUp, 10);
  });
  tcp.on("connect", () => {
    connected = true;
    for (const chunk of pending) tcp.write(chunk);
    pending.length = 0;
  });
  ws.on("message", (data) => {
    const chunk = Buffer.isBuffer(data) ? data : Buffer.from(data);
    watch(chunk);
    if (connected) tcp.write(chunk);
    else pending.push(chunk);
  });
  tcp.on("data", (chunk) => ws.readyState === ws.OPEN && ws.send(chunk));
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
