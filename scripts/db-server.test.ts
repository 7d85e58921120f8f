// The embedded database server (scripts/db-server.mjs) as its clients meet it over TCP: node-postgres (the
// driver of the worker and of the Node scripts) and a raw Postgres client. PGlite is one session, so the
// server must give one connection the database at a time — a transaction keeps it until its end — and
// clean up after a client that dies in the middle of one.
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../tests/integration/fake-upstream";

let server: ChildProcess;
let dataDir: string;
let pgPort: number;

/** A node-postgres connection over TCP, to the URL scripts/lib/node-db.ts would be given. */
async function pgClient() {
  const client = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres` });
  client.on("error", () => {});
  await client.connect();
  return client;
}

/** Wire-protocol helpers for the raw TCP client. */
const startupPacket = () => {
  const body = Buffer.from("user\0postgres\0database\0postgres\0\0");
  const packet = Buffer.alloc(8 + body.length);
  packet.writeInt32BE(packet.length, 0);
  packet.writeInt32BE(196608, 4);
  body.copy(packet, 8);
  return packet;
};
const queryMessage = (text: string) => {
  const body = Buffer.from(`${text}\0`);
  const header = Buffer.alloc(5);
  header[0] = 0x51;
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
};

/** Reads from `socket` until `done(bytes so far)` holds. */
function readUntil(socket: net.Socket, done: (bytes: Buffer) => boolean) {
  return new Promise<Buffer>((resolve, reject) => {
    let bytes = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      if (done(bytes)) {
        socket.off("data", onData);
        resolve(bytes);
      }
    };
    socket.on("data", onData);
    socket.once("error", reject);
  });
}
const endsWithReadyForQuery = (bytes: Buffer) => bytes.length >= 6 && bytes[bytes.length - 6] === 0x5a;
const readyForQueryCount = (bytes: Buffer) => bytes.toString("latin1").split("Z\0\0\0\x05").length - 1;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "nika-db-server-"));
  pgPort = await freePort();
  server = fork("scripts/db-server.mjs", ["--data", dataDir, "--pg-port", String(pgPort)], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    server.once("message", () => resolve());
    server.once("exit", (code) => reject(new Error(`db-server exited ${code}`)));
  });
  const setup = await pgClient();
  await setup.query("create table marks (value int not null)");
  await setup.end();
}, 60_000);

afterAll(async () => {
  server?.kill("SIGTERM");
  await new Promise((resolve) => server?.once("exit", resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the embedded database server", () => {
  it("answers node-postgres over TCP, parameters and all", async () => {
    const client = await pgClient();
    const { rows } = await client.query("select $1::int + $2::int as sum, $3::text as word", [40, 2, "olá"]);
    expect(rows).toEqual([{ sum: 42, word: "olá" }]);
    await client.end();
  });

  it("lets another connection in only after a transaction ends, never inside it", async () => {
    const [a, b] = [await pgClient(), await pgClient()];
    await a.query("begin");
    await a.query("insert into marks values (1)");
    const order: string[] = [];
    const counted = b.query("select count(*)::int as n from marks").then((result) => {
      order.push("b counted");
      return result.rows[0].n as number;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    order.push("a rolls back");
    await a.query("rollback");
    // b waited for the rollback and did not see the uncommitted row (it did not run inside a's transaction).
    expect(await counted).toBe(0);
    expect(order).toEqual(["a rolls back", "b counted"]);
    await Promise.all([a.end(), b.end()]);
  });

  it("rolls back what a connection that vanished in the middle of a transaction left open", async () => {
    const [dying, waiting] = [await pgClient(), await pgClient()];
    await dying.query("begin");
    await dying.query("insert into marks values (2)");
    const counted = waiting.query("select count(*)::int as n from marks");
    // The socket drops without Terminate (a killed worker request).
    (dying as unknown as { connection: { stream: net.Socket } }).connection.stream.destroy();
    expect((await counted).rows[0].n).toBe(0);
    // The database is out of the transaction: a later write is committed and seen by everyone.
    await waiting.query("insert into marks values (3)");
    const other = await pgClient();
    expect((await other.query("select array_agg(value)::int[] as values from marks")).rows[0].values).toEqual([3]);
    await Promise.all([waiting.end(), other.end()]);
  });

  it("serves a raw TCP client: no TLS, start-up, a simple query", async () => {
    const socket = net.connect(pgPort, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const sslAnswer = readUntil(socket, (bytes) => bytes.length >= 1);
    const sslRequest = Buffer.alloc(8);
    sslRequest.writeInt32BE(8, 0);
    sslRequest.writeInt32BE(80877103, 4);
    socket.write(sslRequest);
    expect((await sslAnswer).toString()).toBe("N");
    const ready = readUntil(socket, endsWithReadyForQuery);
    socket.write(startupPacket());
    expect((await ready)[0]).toBe(0x52); // AuthenticationOk first
    // Two queries in one write: each answered, each with its ReadyForQuery.
    const answer = readUntil(socket, (bytes) => readyForQueryCount(bytes) === 2 && endsWithReadyForQuery(bytes));
    socket.write(Buffer.concat([queryMessage("select 6 * 7 as answer"), queryMessage("select 'two'")]));
    const bytes = await answer;
    const text = bytes.toString("latin1");
    expect(text).toContain("42");
    expect(text).toContain("two");
    expect(bytes[bytes.length - 1]).toBe(0x49); // idle
    socket.destroy();
  });

  describe("named prepared statements (the worker names every statement with parameters)", () => {
    const named = (client: pg.Client, name: string, text: string, values: unknown[]) => client.query({ name, text, values });
    /** Runs one named statement on a connection of its own (as each worker request has), and closes it. */
    const onItsOwnConnection = async (name: string, text: string, values: unknown[]) => {
      const client = await pgClient();
      try {
        return (await named(client, name, text, values)).rows;
      } finally {
        await client.end();
      }
    };
    const preparedCount = async (client: pg.Client, name: string) =>
      (await client.query("select count(*)::int as n from pg_prepared_statements where name = $1", [name])).rows[0].n as number;

    it("runs a statement another connection prepared under the same name, on the plan the session kept", async () => {
      // PGlite is one session: without the server's help the second Parse would fail ("already exists", 42P05).
      for (let run = 0; run < 3; run++) {
        const client = await pgClient();
        expect((await named(client, "s_sum", "select $1::int + 1 as n", [run])).rows).toEqual([{ n: run + 1 }]);
        expect((await named(client, "s_sum", "select $1::int + 1 as n", [run + 10])).rows).toEqual([{ n: run + 11 }]);
        expect(await preparedCount(client, "s_sum")).toBe(1);
        await client.end();
      }
    });

    it("runs the new text when a name comes back with another one", async () => {
      expect(await onItsOwnConnection("s_reused", "select $1::int * 2 as n", [4])).toEqual([{ n: 8 }]);
      expect(await onItsOwnConnection("s_reused", "select $1::int * 100 as n", [4])).toEqual([{ n: 400 }]);
      expect(await onItsOwnConnection("s_reused", "select $1::int * 2 as n", [5])).toEqual([{ n: 10 }]);
    });

    it("prepares again after a client deallocates everything, and after a Parse that failed", async () => {
      const client = await pgClient();
      await named(client, "s_gone", "select $1::int - 1 as n", [1]);
      await client.query("deallocate all");
      await client.end();
      const next = await pgClient();
      expect((await named(next, "s_gone", "select $1::int - 1 as n", [10])).rows).toEqual([{ n: 9 }]);
      await expect(named(next, "s_broken", "select $1::int +", [1])).rejects.toThrow(/syntax error/);
      expect((await named(next, "s_broken", "select $1::int + 2 as n", [1])).rows).toEqual([{ n: 3 }]);
      await next.end();
    });

    it("answers a prepared statement inside a failed transaction as Postgres would, and runs it after the rollback", async () => {
      await onItsOwnConnection("s_tx", "select $1::int as n", [1]);
      const client = await pgClient();
      await client.query("begin");
      await expect(client.query("select 1 / 0")).rejects.toThrow(/division by zero/);
      await expect(named(client, "s_tx", "select $1::int as n", [2])).rejects.toThrow(/current transaction is aborted/);
      await client.query("rollback");
      expect((await named(client, "s_tx", "select $1::int as n", [3])).rows).toEqual([{ n: 3 }]);
      await client.end();
    });
  });

  it("survives a client that sends garbage, and keeps serving the others", async () => {
    const socket = net.connect(pgPort, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const ready = readUntil(socket, endsWithReadyForQuery);
    socket.write(startupPacket());
    await ready;
    const answer = readUntil(socket, (bytes) => bytes.length > 5);
    const closed = new Promise((resolve) => socket.once("close", resolve));
    // An unknown message type with a plausible length, then a Sync (PGlite itself would loop forever on it).
    socket.write(Buffer.from([0x7a, 0, 0, 0, 8, 1, 2, 3, 4, 0x53, 0, 0, 0, 4]));
    const error = (await answer).toString("latin1");
    expect(error[0]).toBe("E");
    expect(error).toContain("08P01");
    await closed;
    const client = await pgClient();
    expect((await client.query("select 'still here' as state")).rows[0].state).toBe("still here");
    await client.end();
  });
});
