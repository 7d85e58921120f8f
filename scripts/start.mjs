#!/usr/bin/env node
// `npm start`: one command from a fresh clone to the app served by the production worker in workerd
// against the embedded Postgres. Installs what is missing, starts PGlite (served over TCP),
// migrates, seeds once, builds, runs `wrangler dev`, and prints the URL and the dev credentials.
//
// Options: --env-file F (default .dev.vars) · --port N (8787) · --data DIR (.data) · --fresh (wipe DIR first)
//          --no-build (reuse ./build) · --quiet-wrangler · --test-scheduled (exposes /__scheduled)
//          --inspector-port N (workerd's DevTools port, for bench/profile.mjs) · --no-minify (readable profiles)
// Uses only Node built-ins until the install step has run.
import { spawn, spawnSync, fork } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { parseArgs, parseEnv } from "node:util";
import { wranglerDevArgs, wranglerDevEnv } from "./lib/wrangler-dev.mjs";

const started = Date.now();
const { values: opts } = parseArgs({
  options: {
    "env-file": { type: "string", default: ".dev.vars" },
    port: { type: "string", default: process.env.PORT ?? "8787" },
    data: { type: "string", default: ".data" },
    fresh: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    "quiet-wrangler": { type: "boolean", default: false },
    // Exposes /__scheduled to fire the cron trigger by hand (tests only).
    "test-scheduled": { type: "boolean", default: false },
    "inspector-port": { type: "string" },
    "no-minify": { type: "boolean", default: false },
  },
});
const log = (message) => console.log(`\x1b[36m[nika]\x1b[0m ${message}`);
const children = [];

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`[nika] failed: ${command} ${args.join(" ")}`);
    shutdown(1);
  }
}

/** Every process below `pid` (npx → wrangler → workerd …), deepest first. */
function descendants(pid) {
  const direct = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
    .stdout.split("\n")
    .filter(Boolean)
    .map(Number);
  return direct.flatMap((child) => [...descendants(child), child]);
}

let stopping = false;
function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  // Killing npx alone would leave wrangler and workerd holding the port: end the whole tree.
  for (const child of children) {
    for (const pid of [...descendants(child.pid), child.pid]) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }
  setTimeout(() => process.exit(code), 500);
}
process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));

// 1. dependencies
const lock = "package-lock.json";
const installed = "node_modules/.package-lock.json";
if (!existsSync(installed) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs)) {
  log("instalando dependências (npm install)...");
  run("npm", ["install", "--no-audit", "--no-fund"]);
}

// 2. local settings
const envFile = opts["env-file"];
if (!existsSync(envFile)) {
  if (envFile !== ".dev.vars") throw new Error(`${envFile} not found`);
  copyFileSync(".dev.vars.example", ".dev.vars");
  log("criado .dev.vars a partir de .dev.vars.example");
}
const vars = parseEnv(readFileSync(envFile, "utf8"));
const pgPort = new URL(vars.DATABASE_URL).port || "5432";
if (opts.fresh) rmSync(opts.data, { recursive: true, force: true });

// 3. embedded Postgres
const db = fork("scripts/db-server.mjs", ["--data", `${opts.data}/pglite`, "--pg-port", pgPort], { stdio: "inherit" });
children.push(db);
db.on("exit", (code) => {
  if (stopping) return;
  console.error(`[nika] database process ended (${code})`);
  shutdown(1);
});
await new Promise((resolve) => db.on("message", (m) => m?.ready && resolve()));

// 4. schema and seed (the seed runs once per database)
const scriptEnv = { ENV_FILE: envFile };
run("npx", ["tsx", "scripts/migrate.ts"], scriptEnv);
run("npx", ["tsx", "scripts/seed.ts"], scriptEnv);

// 5. production build, then workerd — never rebuild while wrangler serves ./build
if (!opts["no-build"] || !existsSync("build/server/index.js")) {
  log("build de produção...");
  run("node", ["scripts/content/content-assets.mjs"]);
  run("npx", ["react-router", "build"]);
}
const portTaken = await fetch(`http://127.0.0.1:${opts.port}/`).then(
  () => true,
  () => false,
);
if (portTaken) {
  console.error(`[nika] port ${opts.port} is already in use (another \`npm start\`?). Use --port N.`);
  shutdown(1);
  await new Promise(() => {});
}
const wrangler = spawn(
  "npx",
  [
    "wrangler",
    "dev",
    "--port",
    opts.port,
    "--ip",
    "127.0.0.1",
    "--persist-to",
    `${opts.data}/wrangler`,
    "--env-file",
    envFile,
    ...wranglerDevArgs(opts["quiet-wrangler"] ? "warn" : "info"),
    ...(opts["test-scheduled"] ? ["--test-scheduled"] : []),
    ...(opts["inspector-port"] ? ["--inspector-port", opts["inspector-port"]] : []),
    ...(opts["no-minify"] ? ["--minify=false"] : []),
  ],
  {
    stdio: "inherit",
    env: wranglerDevEnv(),
  },
);
children.push(wrangler);
wrangler.on("exit", (code) => shutdown(code ?? 1));

// 6. ready
const url = `http://localhost:${opts.port}`;
const deadline = Date.now() + 120_000;
for (;;) {
  if (Date.now() > deadline) {
    console.error("[nika] the worker did not become ready in 120 s");
    shutdown(1);
    await new Promise(() => {});
  }
  try {
    const response = await fetch(`http://127.0.0.1:${opts.port}/signin`);
    if (response.status < 500) break;
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, 250));
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`
\x1b[32m✔ Nika está pronto em ${url}\x1b[0m  (${seconds} s)

  Admin:  admin@nika.local / NikaAdmin123
  Aluno:  aluno@nika.local / NikaAluno123
  Conta bloqueada (mostra /blocked): bloqueado@nika.local / NikaBloqueado123
  Emails: ${url}/dev/mailbox   (confirmação de cadastro e redefinição de senha)

  Ctrl+C para parar. Os dados ficam em ${opts.data}/ e sobrevivem a reinícios.
`);
process.send?.({ ready: true, url });
