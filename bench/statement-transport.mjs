#!/usr/bin/env node
// What one statement costs a worker by transport (issue 13, decision 0019 fourteenth pass): the page's way —
// node-postgres over TCP on a fresh connection (createRequestDb, the app's own code) to the embedded database's server —
// against the one alternative a Worker has without Hyperdrive, SQL over HTTP (Neon's `neon()` shape: one POST of
// { query, params } answered with { fields, rows }), served here by a small Node server in front of its own PGlite.
// A hello-world worker on `wrangler dev` answers /tcp, /http and / (the floor); they are loaded alternately with
// keep-alive connections and each row prints req/s, p50, its ratio to the floor and CPU per request per process.
// Two more rows ask whether the driver is a lever: "TCP (bare protocol)" speaks the protocol's minimum by hand on
// workerd's socket (start-up, one simple query, its rows decoded to strings, Terminate) — what any driver must at
// least cost the worker — and, with --postgres-js-dir, the same statement through postgres.js (e.g.
// `npm install --prefix .cache/pgjs postgres@3`, then --postgres-js-dir .cache/pgjs/node_modules).
//   node bench/statement-transport.mjs [--seconds 6] [--connections 8] [--rounds 3] [--postgres-js-dir DIR]
// Loopback only; own ports and a throwaway data folder.
import { fork, spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { wranglerDevArgs, wranglerDevEnv } from "../scripts/lib/wrangler-dev.mjs";
import { cpuSnapshot, cpuSpent, percentile, requestLoop, requireFreePorts } from "./lib.mjs";

// The same 20-row statement both ways.
const QUERY = "select i, md5(i::text) as h, i % 3 = 0 as b, 'lição ' || i as s from generate_series(1, $1::int) as i";
const workerPort = "8783";
const pgPort = "25396";
const httpPort = "25395";

if (process.argv.includes("--serve-http-sql")) {
  // The child: SQL over HTTP in front of its own in-memory PGlite, compiled like the embedded database's (no Liftoff).
  (await import("node:v8")).setFlagsFromString("--no-liftoff");
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create();
  http
    .createServer(async (request, response) => {
      const chunks = [];
      for await (const chunk of request) chunks.push(chunk);
      const { query, params } = JSON.parse(Buffer.concat(chunks).toString());
      const result = await db.query(query, params, { rowMode: "array" });
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ fields: result.fields, rows: result.rows }));
    })
    .listen(Number(httpPort), "127.0.0.1");
  await new Promise(() => {}); // until killed
}

const { values: opts } = parseArgs({
  options: {
    seconds: { type: "string", default: "6" },
    connections: { type: "string", default: "8" },
    rounds: { type: "string", default: "3" },
    "postgres-js-dir": { type: "string" },
  },
});
const SECONDS = Math.max(2, Math.min(60, Number(opts.seconds)));
const CONNECTIONS = Math.max(1, Math.min(64, Number(opts.connections)));
const ROUNDS = Math.max(1, Math.min(10, Number(opts.rounds)));
await requireFreePorts([workerPort, pgPort, httpPort]);

rmSync(".cache/bench-transport", { recursive: true, force: true });
mkdirSync(".cache/bench-transport/worker", { recursive: true });
const database = fork("scripts/db-server.mjs", ["--data", ".cache/bench-transport/pglite", "--pg-port", pgPort], { stdio: "ignore" });

const sqlServer = fork(new URL(import.meta.url).pathname, ["--serve-http-sql"], { stdio: "inherit" });

const postgresJs = opts["postgres-js-dir"] ? resolve(opts["postgres-js-dir"], "postgres/cf/src/index.js") : undefined;
if (postgresJs && !existsSync(postgresJs)) throw new Error(`no postgres.js at ${postgresJs}`);
const inlinedQuery = QUERY.replace("$1", "20");
writeFileSync(
  ".cache/bench-transport/worker/worker.js",
  `import { sql } from "drizzle-orm";
import { connect } from "cloudflare:sockets";
import { createRequestDb } from "../../../app/server/db.server.ts";
${postgresJs ? `import postgres from ${JSON.stringify(postgresJs)};` : ""}
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** A Postgres message: type byte, length, body. */
function message(type, body) {
  const bytes = new Uint8Array(5 + body.length);
  bytes[0] = type;
  new DataView(bytes.buffer).setInt32(1, 4 + body.length);
  bytes.set(body, 5);
  return bytes;
}
/** The protocol's minimum on a fresh socket: start-up (no password: the embedded database asks none), one simple
 * query, each row's fields decoded to strings, Terminate. Returns the rows. */
async function bareStatement(port, text) {
  const socket = connect({ hostname: "127.0.0.1", port });
  const writer = socket.writable.getWriter();
  const reader = socket.readable.getReader();
  const parameters = encoder.encode("user\0postgres\0database\0postgres\0\0");
  const startup = new Uint8Array(8 + parameters.length);
  new DataView(startup.buffer).setInt32(0, startup.length);
  new DataView(startup.buffer).setInt32(4, 196608);
  startup.set(parameters, 8);
  let pending = new Uint8Array(0);
  /** Reads messages until ReadyForQuery; returns the DataRows' fields. */
  async function untilReady() {
    const rows = [];
    for (;;) {
      while (pending.length >= 5) {
        const view = new DataView(pending.buffer, pending.byteOffset, pending.length);
        const length = view.getInt32(1);
        if (pending.length < 1 + length) break;
        const type = pending[0];
        if (type === 0x44) {
          const fields = [];
          let at = 7;
          for (let i = view.getInt16(5); i > 0; i--) {
            const size = view.getInt32(at);
            at += 4;
            fields.push(size < 0 ? null : decoder.decode(pending.subarray(at, at + size)));
            if (size > 0) at += size;
          }
          rows.push(fields);
        } else if (type === 0x45 || (type === 0x52 && view.getInt32(5) !== 0)) throw new Error("refused");
        pending = pending.subarray(1 + length);
        if (type === 0x5a) return rows;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("closed");
      const joined = new Uint8Array(pending.length + value.length);
      joined.set(pending);
      joined.set(value, pending.length);
      pending = joined;
    }
  }
  await writer.write(startup);
  await untilReady();
  await writer.write(message(0x51, encoder.encode(text + "\0")));
  const rows = await untilReady();
  await writer.write(message(0x58, new Uint8Array(0)));
  await socket.close();
  return rows;
}
export default {
  async fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    if (path === "/bare") {
      const rows = await bareStatement(${pgPort}, ${JSON.stringify(inlinedQuery)});
      return new Response(String(rows.length), { status: rows.length === 20 ? 200 : 500 });
    }
${
  postgresJs
    ? `    if (path === "/postgres-js") {
      const client = postgres("postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres", { max: 1, fetch_types: false, prepare: false });
      const rows = await client.unsafe(${JSON.stringify(inlinedQuery)}).simple();
      ctx.waitUntil(client.end());
      return new Response(String(rows.length), { status: rows.length === 20 ? 200 : 500 });
    }
`
    : ""
}    if (path === "/tcp") {
      const requestDb = createRequestDb({ DATABASE_URL: "postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres" });
      const { rows } = await requestDb.db.execute(sql.raw(${JSON.stringify(inlinedQuery)}));
      ctx.waitUntil(requestDb.close());
      return new Response(String(rows.length), { status: rows.length === 20 ? 200 : 500 });
    }
    if (path === "/http") {
      const answer = await fetch("http://127.0.0.1:${httpPort}/sql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: ${JSON.stringify(QUERY)}, params: [20] }),
      });
      const { rows } = await answer.json();
      return new Response(String(rows.length), { status: rows.length === 20 ? 200 : 500 });
    }
    return new Response("hello world");
  },
};
`,
);
writeFileSync(
  ".cache/bench-transport/worker/wrangler.toml",
  'name = "bench-transport"\nmain = "worker.js"\ncompatibility_date = "2025-09-01"\ncompatibility_flags = ["nodejs_compat"]\n',
);
const worker = spawn(
  "npx",
  [
    ...["wrangler", "dev", "--config", ".cache/bench-transport/worker/wrangler.toml", "--port", workerPort, "--ip", "127.0.0.1"],
    ...wranglerDevArgs(),
  ],
  { stdio: "ignore", env: wranglerDevEnv(), detached: true },
);
const stop = () => {
  database.kill();
  sqlServer.kill();
  try {
    process.kill(-worker.pid, "SIGTERM");
  } catch {
    // already gone
  }
};
process.on("SIGINT", () => (stop(), process.exit(130)));

const base = `http://127.0.0.1:${workerPort}`;
const rows = [
  ["TCP (node-postgres)", "/tcp"],
  ["HTTP (SQL over fetch)", "/http"],
  ["TCP (bare protocol)", "/bare"],
  ...(postgresJs ? [["TCP (postgres.js)", "/postgres-js"]] : []),
];
/** Polls `url` every 200 ms until it answers 200 (60 s at most). */
async function answering(url, failure) {
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(failure);
}
try {
  await answering(`${base}/tcp`, "the worker or the database did not start");
  await answering(`${base}/http`, "the HTTP SQL server did not start");
  for (const path of rows.slice(2).map(([, path]) => path)) await answering(base + path, `${path} did not answer`);
  const groupOf = (cmdline) =>
    cmdline.includes("workerd")
      ? "workerd"
      : cmdline.includes("db-server.mjs")
        ? "pg-server"
        : cmdline.includes("--serve-http-sql")
          ? "http-sql"
          : cmdline.includes("statement-transport.mjs")
            ? "load"
            : undefined;
  const load = async (path) => {
    const before = cpuSnapshot();
    const { latencies, statuses } = await requestLoop(base + path, { seconds: SECONDS, connections: CONNECTIONS });
    const cpu = cpuSpent(before, cpuSnapshot(), groupOf);
    const perRequest = Object.entries(cpu)
      .filter(([, ms]) => ms > 0)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([group, ms]) => `${group} ${(ms / latencies.length).toFixed(2)}`)
      .join(" · ");
    return {
      rps: latencies.length / SECONDS,
      p50: percentile(latencies, 0.5),
      failures: latencies.length - (statuses.get(200) ?? 0),
      perRequest,
    };
  };
  // Warm-up (both databases' WebAssembly compiled, the connections open), discarded.
  for (const path of ["/", ...rows.map(([, path]) => path)]) await requestLoop(base + path, { seconds: 3, connections: CONNECTIONS });

  console.log(`${CONNECTIONS} connections, ${SECONDS} s per row, the floor (/) right before each transport; CPU in ms per request`);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [label, path] of rows) {
      const floor = await load("/");
      const run = await load(path);
      console.log(
        `${label.padEnd(24)} ${run.rps.toFixed(0).padStart(5)} req/s  p50 ${run.p50.toFixed(1).padStart(5)} ms  ratio ${(run.rps / floor.rps).toFixed(2)}` +
          `  | ${run.perRequest}  (floor ${floor.rps.toFixed(0)} req/s: ${floor.perRequest})` +
          (run.failures ? `  ${run.failures} non-200!` : ""),
      );
      if (run.failures) process.exitCode = 1;
    }
  }
} finally {
  stop();
}
setTimeout(() => process.exit(process.exitCode ?? 0), 500);
