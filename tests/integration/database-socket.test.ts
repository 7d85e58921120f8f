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
      const result = await requestDb.db.execute(sql\`select 1 as one\`);
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

/** A Postgres server that answers the start-up, then answers the first statement or drops the connection. */
async function postgresServer(onStatement: "answer" | "hang up") {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let started = false;
    socket.on("data", () => {
      if (!started) {
        started = true;
        socket.write(STARTUP_ANSWER);
      } else if (onStatement === "answer") socket.write(SELECT_ONE_ANSWER);
      else socket.destroy();
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
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
async function queryThroughWorker(port: number): Promise<Outcome> {
  return (await (await mf.dispatchFetch(`http://test/?port=${port}`)).json()) as Outcome;
}

describe("the worker's database connection in workerd (node-postgres over TCP)", () => {
  it("runs a statement over workerd's socket", async () => {
    const server = await postgresServer("answer");
    const outcome = await queryThroughWorker(server.port);
    await server.close();
    expect(outcome).toMatchObject({ ok: true, rows: [{ one: 1 }] });
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
