// The embedded database: PGlite (real Postgres in WASM) persisted on disk, whose wire protocol this process serves
// itself over TCP to every client — the worker (node-postgres on workerd's sockets, as in production) and Node's
// clients (migrations, seed, tests, benches, psql), all node-postgres — one request at a time, straight into PGlite.
// To use a real Postgres instead, point DATABASE_URL at it and do not start this server.
//
//   node scripts/db-server.mjs [--data .data/pglite] [--pg-port 25320]
import { mkdirSync } from "node:fs";
import net from "node:net";
import { parseArgs } from "node:util";
import v8 from "node:v8";
import { preparedStatements } from "./lib/prepared-statements.mjs";

const { values: args } = parseArgs({
  options: {
    data: { type: "string", default: process.env.PGLITE_DIR ?? ".data/pglite" },
    "pg-port": { type: "string", default: process.env.PG_PORT ?? "25320" },
  },
});
const pgPort = Number(args["pg-port"]);

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const TERMINATE = 0x58; // 'X'
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I' — ReadyForQuery status outside a transaction
/** Client messages after which the client waits for the server: a request is complete. */
const REQUEST_END = new Set([0x53 /* Sync */, 0x51 /* Query */, 0x70 /* Password */, 0x46 /* FunctionCall */, 0x48 /* Flush */]);
const NO_ENCRYPTION = Buffer.from("N");
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
const ROLLBACK = Buffer.concat([Buffer.from([0x51, 0, 0, 0, 13]), Buffer.from("ROLLBACK\0")]);

/** What a client may send after start-up; PGlite loops forever on any other message type, so those never reach it. */
const FRONTEND_TYPES = new Set("BCcdDEfFHPpQSX".split("").map((letter) => letter.charCodeAt(0)));

/**
 * Splits the client→server byte stream into whole messages (the first ones are untyped: start-up, SSL, cancel).
 * A length or type no client sends comes out as { type: "invalid" }, after which the connection is done.
 */
function clientFramer() {
  let buffer = Buffer.alloc(0);
  let startupDone = false;
  return (chunk) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    const messages = [];
    for (;;) {
      if (!startupDone) {
        if (buffer.length < 8) break;
        const length = buffer.readInt32BE(0);
        if (length < 8 || length > 10_000) return [...messages, { type: "invalid" }];
        if (buffer.length < length) break;
        const code = buffer.readInt32BE(4);
        const type = code === SSL_REQUEST || code === GSSENC_REQUEST ? "encryption" : code === CANCEL_REQUEST ? "cancel" : "startup";
        if (type === "startup") startupDone = true;
        messages.push({ type, bytes: buffer.subarray(0, length) });
        buffer = buffer.subarray(length);
        continue;
      }
      if (buffer.length < 5) break;
      const length = buffer.readInt32BE(1);
      if (length < 4 || !FRONTEND_TYPES.has(buffer[0])) return [...messages, { type: "invalid" }];
      if (buffer.length < length + 1) break;
      messages.push({ type: buffer[0], bytes: buffer.subarray(0, length + 1) });
      buffer = buffer.subarray(length + 1);
    }
    return messages;
  };
}

/** A FATAL ErrorResponse, what Postgres answers a protocol violation before it hangs up. */
function fatalError(message) {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C08P01\0M${message}\0\0`);
  const header = Buffer.alloc(5);
  header[0] = 0x45; // 'E'
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

/** The ReadyForQuery statuses in a complete server answer (whole messages only: PGlite answers a request at once). */
function readyStatuses(answer) {
  const statuses = [];
  for (let at = 0; at + 5 <= answer.length; at += 1 + answer.readInt32BE(at + 1)) {
    if (answer[at] === READY_FOR_QUERY) statuses.push(answer[at + 5]);
  }
  return statuses;
}

/**
 * A client connection, whatever carries it: `receive` takes its bytes, `send` and `close` answer it.
 * Requests (whole messages up to one the client then waits on) go to `backend.submit`.
 */
function connection(backend, { send, close }) {
  const frame = clientFramer();
  const pending = []; // messages of a request not complete yet
  const conn = {
    alive: true,
    send,
    hangUp() {
      if (!conn.alive) return;
      conn.alive = false;
      backend.forget(conn);
      close();
    },
    receive(chunk) {
      // The complete requests of one chunk go to the database as one (the driver writes Parse…Flush and Sync together).
      const requests = [];
      for (const message of frame(chunk)) {
        if (message.type === "encryption") {
          send(NO_ENCRYPTION); // no TLS inside the socket
          continue;
        }
        // A cancel request is not supported (the statement runs to its end); Terminate is the end, whether or not
        // the client closes its socket after it.
        if (message.type === "cancel" || message.type === TERMINATE) return conn.hangUp();
        if (message.type === "invalid") {
          send(fatalError("invalid frontend message"));
          return conn.hangUp();
        }
        if (message.type === "startup") {
          backend.submit(conn, message.bytes); // PGlite takes the start-up packet on its own
          continue;
        }
        pending.push(message.bytes);
        if (REQUEST_END.has(message.type)) requests.push(...pending.splice(0));
      }
      if (requests.length) backend.submit(conn, requests.length === 1 ? requests[0] : Buffer.concat(requests));
    },
  };
  return conn;
}

/**
 * PGlite is ONE Postgres session, so connections must not interleave: two clients' extended-query sequences
 * (Parse/Bind/Execute/Sync) or transactions would corrupt each other ("bind message supplies 2 parameters…").
 * One connection talks at a time, from a request until the database is idle again (ReadyForQuery 'I'): a
 * transaction keeps the turn until its COMMIT/ROLLBACK. Each request runs as one call into PGlite.
 */
function pgliteBackend(db) {
  const queue = []; // { conn, bytes, since }
  let holder = null;
  let running = false;
  const PATIENCE_MS = 10_000; // a request waiting longer is let through (avoids deadlocks)
  const statements = preparedStatements();

  function runRaw(bytes) {
    const chunks = [];
    return db
      .runExclusive(() => db.execProtocolRawStream(bytes, { onRawData: (chunk) => void chunks.push(Buffer.from(chunk)) }))
      .then(() => (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
  }

  /** One request into PGlite; a Parse of a statement the session already holds is answered here (prepared-statements.mjs). */
  async function run(bytes) {
    if (bytes[0] === 0) return runRaw(bytes); // the start-up packet (untyped)
    const { bytes: sent, answer } = statements.rewrite(bytes);
    return answer(sent.length ? await runRaw(sent) : Buffer.alloc(0));
  }

  function next() {
    if (holder) {
      const index = queue.findIndex((item) => item.conn === holder);
      if (index >= 0) return queue.splice(index, 1)[0];
      const index2 = queue.findIndex((item) => Date.now() - item.since > PATIENCE_MS);
      if (index2 < 0) return undefined;
      console.warn("[db] a request waited over 10 s for the database; letting it through");
      return queue.splice(index2, 1)[0];
    }
    return queue.shift();
  }

  async function pump() {
    if (running) return;
    running = true;
    try {
      for (let item = next(); item; item = next()) {
        if (!item.conn.alive) continue;
        holder = item.conn;
        let answer;
        try {
          answer = await run(item.bytes);
        } catch (error) {
          console.error("[db] PGlite failed on a request:", error);
          item.conn.hangUp();
          continue;
        }
        if (item.conn.alive) item.conn.send(answer);
        if (readyStatuses(answer).at(-1) === IDLE) holder = null;
      }
    } finally {
      running = false;
    }
  }
  // The patience above needs a tick when nothing else arrives.
  setInterval(() => queue.length && void pump(), 1000).unref();

  return {
    submit(conn, bytes) {
      queue.push({ conn, bytes, since: Date.now() });
      void pump();
    },
    /** A connection went away: drop its requests; if it had the turn, end what it left open. */
    forget(conn) {
      for (let i = queue.length - 1; i >= 0; i--) if (queue[i].conn === conn) queue.splice(i, 1);
      if (holder !== conn) return;
      const cleanUp = { alive: true, send() {}, hangUp() {} };
      queue.unshift({ conn: cleanUp, bytes: SYNC, since: Date.now() });
      queue.splice(1, 0, { conn: cleanUp, bytes: ROLLBACK, since: Date.now() });
      holder = null;
      void pump();
    },
  };
}

/** Serves `socket` (a TCP client) through `backend`. */
function serveTcp(backend, socket) {
  socket.setNoDelay(true);
  const conn = connection(backend, {
    send: (bytes) => void (socket.writable && socket.write(bytes)),
    close: () => socket.end(), // after what was written (a FATAL error) is sent
  });
  socket.on("data", (chunk) => conn.receive(chunk));
  socket.on("close", () => conn.hangUp());
  socket.on("error", () => conn.hangUp());
}

const listening = (server, port) =>
  new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });

// PGlite's WebAssembly compiled by TurboFan as each function is first called, never by Liftoff (V8's baseline
// tier): otherwise a statement runs Liftoff code, several times slower, until V8 has tiered it up after about a
// hundred runs, and the worker's first requests and every bench measured that ramp. Costs about a second more to
// start (decision 0019). Read by V8 when the module is compiled, in create().
v8.setFlagsFromString("--no-liftoff");
const { PGlite } = await import("@electric-sql/pglite");
mkdirSync(args.data, { recursive: true });
const db = await PGlite.create(args.data);
const backend = pgliteBackend(db);
const sockets = new Set();
const tcpServer = net.createServer((socket) => {
  sockets.add(socket);
  socket.on("close", () => sockets.delete(socket));
  serveTcp(backend, socket);
});
await listening(tcpServer, pgPort);
console.log(`[db] Postgres on 127.0.0.1:${pgPort}`);
process.send?.({ ready: true });

async function shutdown() {
  tcpServer.close();
  for (const socket of sockets) socket.destroy();
  await db.close();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
