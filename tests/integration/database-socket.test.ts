// The worker's database connection in workerd itself (Miniflare, the runtime `wrangler dev` uses): the app's
// createRequestDb bundled from its sources, node-postgres on workerd's TCP sockets (pg-cloudflare), against a
// Postgres server in this test that answers the start-up and then answers a statement, or drops the connection when
// it arrives — what scripts/db-server.mjs does to its clients when the database stops. A dropped connection and a
// refused one must fail at once and be recognised as "unavailable" (→ 503), never wait out the 10 s query_timeout.
import net from "node:net";
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_QUERY_TIMEOUT_MS } from "~/server/db.server";
import { startTestWorker } from "./workerd";

const TEST_WORKER = `
import { sql } from "drizzle-orm";
import { createRequestDb, isDatabaseUnavailable } from "./app/server/db.server";
export default {
  async fetch(request) {
    const port = new URL(request.url).searchParams.get("port");
    const requestDb = createRequestDb({ DATABASE_URL: "postgres://postgres:postgres@127.0.0.1:" + port + "/postgres" });
    const started = Date.now();
    try {
      const url = new URL(request.url);
      const result = url.searchParams.has("other")
        ? await requestDb.db.execute(sql\`select \${1}::int + 0 as one\`)
        : url.searchParams.has("extended")
          ? await requestDb.db.execute(sql\`select \${1}::int as one\`)
          : await requestDb.db.execute(sql\`select 1 as one\`);
      return Response.json({ ok: true, rows: result.rows, ms: Date.now() - started });
    } catch (error) {
      return Response.json({ ok: false, unavailable: isDatabaseUnavailable(error), message: String(error?.cause?.message ?? error), ms: Date.now() - started });
    } finally {
      await requestDb.close();
    }
  },
};
`;

/** AuthenticationOk and ReadyForQuery (idle): enough for node-postgres to count the connection as open. */
const STARTUP_ANSWER = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0, 0x5a, 0, 0, 0, 5, 0x49]);
/** RowDescription (one int4 column "one"), DataRow ("1"), CommandComplete ("SELECT 1"), ReadyForQuery. */
const SELECT_ONE_ANSWER = Buffer.concat([
  Buffer.from([0x54, 0, 0, 0, 0x1c, 0, 1]),
  Buffer.from("one\0"),
  Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0x17, 0, 4, 0xff, 0xff, 0xff, 0xff, 0, 0]),
  Buffer.from([0x44, 0, 0, 0, 0x0b, 0, 1, 0, 0, 0, 1, 0x31]),
  Buffer.from([0x43, 0, 0, 0, 0x0d]),
  Buffer.from("SELECT 1\0"),
  Buffer.from([0x5a, 0, 0, 0, 5, 0x49]),
]);

/** ParseComplete and BindComplete: what comes before the rows of an extended query (one with parameters). */
const PARSE_BIND_COMPLETE = Buffer.from([0x31, 0, 0, 0, 4, 0x32, 0, 0, 0, 4]);
const SIMPLE_QUERY = 0x51; // 'Q'
const SYNC = 0x53; // 'S'

/** The type letters of the whole messages in `bytes` (client → server, after start-up). */
function messageTypes(bytes: Buffer): string {
  let types = "";
  for (let at = 0; at + 5 <= bytes.length; at += 1 + bytes.readInt32BE(at + 1)) types += String.fromCharCode(bytes[at]!);
  return types;
}

/**
 * A Postgres server that answers the start-up, then answers the first statement (simple, or extended once its Sync
 * has arrived) or drops the connection. `statementChunks` keeps the chunks each statement arrived in.
 */
async function postgresServer(onStatement: "answer" | "hang up") {
  const sockets = new Set<net.Socket>();
  const statementChunks: Buffer[][] = [];
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let started = false;
    let chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => {
      if (!started) {
        started = true;
        socket.write(STARTUP_ANSWER);
        return;
      }
      if (onStatement === "hang up") return socket.destroy();
      chunks.push(chunk);
      const statement = Buffer.concat(chunks);
      if (statement[0] === SIMPLE_QUERY) socket.write(SELECT_ONE_ANSWER);
      else if (messageTypes(statement).endsWith(String.fromCharCode(SYNC)))
        socket.write(Buffer.concat([PARSE_BIND_COMPLETE, SELECT_ONE_ANSWER]));
      else return; // the rest of the extended query is still to come
      statementChunks.push(chunks);
      chunks = [];
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    statementChunks,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

let mf: Miniflare;
beforeAll(async () => {
  mf = await startTestWorker(TEST_WORKER);
}, 60_000);
afterAll(async () => {
  await mf?.dispose();
});

type Outcome = { ok: boolean; unavailable?: boolean; message?: string; rows?: unknown[]; ms: number };
async function queryThroughWorker(port: number, { extended = false, other = false } = {}): Promise<Outcome> {
  const query = `${extended ? "&extended" : ""}${other ? "&other" : ""}`;
  return (await (await mf.dispatchFetch(`http://test/?port=${port}${query}`)).json()) as Outcome;
}

/** The statement name and text of the Parse message at the start of `bytes`. */
function parseMessage(bytes: Buffer): { name: string; text: string } {
  expect(String.fromCharCode(bytes[0]!)).toBe("P");
  const nameEnd = bytes.indexOf(0, 5);
  return { name: bytes.toString("utf8", 5, nameEnd), text: bytes.toString("utf8", nameEnd + 1, bytes.indexOf(0, nameEnd + 1)) };
}

describe("the worker's database connection in workerd (node-postgres over TCP)", () => {
  it("runs a statement over workerd's socket", async () => {
    const server = await postgresServer("answer");
    const outcome = await queryThroughWorker(server.port);
    await server.close();
    expect(outcome).toMatchObject({ ok: true, rows: [{ one: 1 }] });
  });

  it("sends a statement with parameters as an extended query (Parse, Bind, Describe, Execute, Sync)", async () => {
    const server = await postgresServer("answer");
    const outcome = await queryThroughWorker(server.port, { extended: true });
    await server.close();
    expect(outcome).toMatchObject({ ok: true, rows: [{ one: 1 }] });
    expect(server.statementChunks).toHaveLength(1);
    expect(messageTypes(Buffer.concat(server.statementChunks[0]!))).toBe("PBDES");
  });

  it("prepares a statement with parameters under a name its text decides (the same in every request)", async () => {
    // Named statements keep their plan in the database: Hyperdrive and Neon's pooler track them across pooled
    // connections, scripts/db-server.mjs across the embedded database's connections.
    const server = await postgresServer("answer");
    await queryThroughWorker(server.port, { extended: true });
    await queryThroughWorker(server.port, { extended: true });
    await queryThroughWorker(server.port, { extended: true, other: true });
    await queryThroughWorker(server.port);
    await server.close();
    const [first, second, other] = server.statementChunks.slice(0, 3).map((chunks) => parseMessage(Buffer.concat(chunks)));
    expect(first!.name).toMatch(/^s[0-9a-f]{32}$/);
    expect(first!.text).toBe("select $1::int as one");
    expect(second).toEqual(first);
    expect(other!.text).toBe("select $1::int + 0 as one");
    expect(other!.name).toMatch(/^s[0-9a-f]{32}$/);
    expect(other!.name).not.toBe(first!.name);
    // Without parameters a statement stays a simple query: nothing to bind, and BEGIN/COMMIT are such statements.
    expect(String.fromCharCode(server.statementChunks[3]![0]![0]!)).toBe("Q");
  });

  it("fails a statement at once, as unavailable, when the database closes the connection", async () => {
    const server = await postgresServer("hang up");
    const outcome = await queryThroughWorker(server.port);
    await server.close();
    expect(outcome.ok).toBe(false);
    expect(outcome.unavailable).toBe(true);
    expect(outcome.message).toMatch(/Connection terminated/);
    expect(outcome.ms).toBeLessThan(DB_QUERY_TIMEOUT_MS / 2);
  }, 20_000);

  it("fails as unavailable when nothing listens (workerd's own refusal)", async () => {
    const server = await postgresServer("answer");
    const { port } = server;
    await server.close();
    const outcome = await queryThroughWorker(port);
    expect(outcome).toMatchObject({ ok: false, unavailable: true });
  });
});
