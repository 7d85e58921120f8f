#!/usr/bin/env node
// Is another React a cheaper server renderer than the project's? (issue 13, decision 0019 sixteenth pass). Two
// hello-world-sized workers under `wrangler dev` (the project's settings), each rendering the same shell-sized tree
// (≈ 200 elements, 16 KB: a header, a 12-link side nav and a 5-link bottom nav with SVG icons, 14 cards, an inline
// data script) with renderToReadableStream and reading the stream to its end, N times per request. One uses the
// project's React (react-dom 18.3.1 with patches/react-dom+18.3.1.patch, "react-dom/server.browser" as the app's
// bundle resolves it); the other the React installed in --react-dir ("react-dom/server.edge" from 19 on, what React
// Router uses on Workers). Measured alternately; prints workerd's CPU per render from /proc and checks both wrote
// the same HTML.
//   npm install --prefix .cache/react-candidate react@19 react-dom@19
//   npm run bench:renderer -- --react-dir .cache/react-candidate/node_modules [--renders 200] [--rounds 3]
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { wranglerDevArgs, wranglerDevEnv } from "../scripts/lib/wrangler-dev.mjs";
import { cpuSnapshot, cpuSpent, requireFreePorts } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: { "react-dir": { type: "string" }, renders: { type: "string", default: "200" }, rounds: { type: "string", default: "3" } },
});
if (!opts["react-dir"] || !existsSync(path.join(opts["react-dir"], "react-dom/package.json"))) {
  console.error("--react-dir must name a node_modules folder holding react, react-dom and scheduler (see the header of this file).");
  process.exit(1);
}
const RENDERS = Math.max(10, Math.min(1000, Number(opts.renders) || 200));
const ROUNDS = Math.max(1, Math.min(10, Number(opts.rounds) || 3));
const REQUESTS_PER_ROW = 20;

const versionOf = (modules) => JSON.parse(readFileSync(path.join(modules, "react-dom/package.json"), "utf8")).version;
const workers = [
  { label: "project", modules: path.resolve("node_modules"), port: "8781", inspector: "9281" },
  { label: "candidate", modules: path.resolve(opts["react-dir"]), port: "8782", inspector: "9282" },
].map((w) => ({ ...w, version: versionOf(w.modules) }));
await requireFreePorts(workers.flatMap((w) => [w.port, w.inspector]));

/** The worker: renders the tree `n` times (?n=, at most 1000) and answers the last render's HTML. */
function workerSource(serverModule) {
  return `import React from "react";
import { renderToReadableStream } from "${serverModule}";
const h = React.createElement;
const Icon = ({ d }) => h("svg", { viewBox: "0 0 24 24", width: 20, height: 20, fill: "none", stroke: "currentColor", strokeWidth: 2, strokeLinecap: "round", strokeLinejoin: "round", "aria-hidden": "true" }, h("path", { d }), h("path", { d: "M3 3h18v18H3z" }));
const NavItem = ({ i }) => h("li", { className: "flex items-center" }, h("a", { href: "/x" + i, className: "flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100", "aria-current": i === 2 ? "page" : undefined }, h(Icon, { d: "M12 2l3 7h7l-5.5 4 2 7-6.5-4.5L5.5 20l2-7L2 9h7z" }), h("span", null, "Item de navegação " + i)));
const Card = ({ i }) => h("article", { className: "rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" }, h("h3", { className: "text-base font-semibold" }, "Laboratório ", i), h("p", { className: "mt-1 text-sm text-slate-600" }, "Pratique inglês com exercícios curtos — ação ", i), h("a", { href: "/labs/" + i, className: "mt-3 inline-flex rounded-full bg-violet-600 px-4 py-2 text-sm font-semibold text-white" }, "Abrir"));
const data = JSON.stringify({ root: { user: { name: "Aluno", credits: 42 }, flags: Array.from({ length: 12 }, (_, i) => ({ key: "flag" + i, on: true })) } });
const App = () => h("html", { lang: "pt-BR" },
  h("head", null, h("meta", { charSet: "utf-8" }), h("meta", { name: "viewport", content: "width=device-width,initial-scale=1" }), h("title", null, "Nika"),
    ...Array.from({ length: 6 }, (_, i) => h("link", { key: i, rel: "modulepreload", href: "/assets/chunk-" + i + ".js" })), h("link", { rel: "stylesheet", href: "/assets/app.css" })),
  h("body", { className: "min-h-screen bg-slate-50" },
    h("header", { className: "sticky top-0 border-b bg-white" }, h("div", { className: "mx-auto flex max-w-5xl items-center justify-between px-4 py-3" }, h("a", { href: "/", className: "text-lg font-bold" }, "Nika"), h("span", { className: "rounded-full bg-amber-100 px-3 py-1 text-xs" }, "42 créditos"), h("button", { type: "button", className: "rounded-full p-2", "aria-label": "Menu" }, h(Icon, { d: "M4 6h16M4 12h16M4 18h16" })))),
    h("div", { className: "mx-auto flex max-w-5xl" },
      h("nav", { "aria-label": "Principal", className: "hidden w-60 md:block" }, h("ul", { className: "space-y-1 p-3" }, ...Array.from({ length: 12 }, (_, i) => h(NavItem, { key: i, i })))),
      h("main", { className: "flex-1 p-4" }, h("h1", { className: "text-2xl font-bold" }, "Labs"), h("div", { className: "mt-4 grid gap-4 sm:grid-cols-2" }, ...Array.from({ length: 14 }, (_, i) => h(Card, { key: i, i }))))),
    h("nav", { "aria-label": "Inferior", className: "fixed inset-x-0 bottom-0 border-t bg-white md:hidden" }, h("ul", { className: "grid grid-cols-5" }, ...Array.from({ length: 5 }, (_, i) => h(NavItem, { key: i, i })))),
    h("script", { dangerouslySetInnerHTML: { __html: "window.__data = " + data } }),
    h("script", { type: "module", src: "/assets/entry.client.js" })));
async function render() {
  const reader = (await renderToReadableStream(h(App))).getReader();
  const parts = [];
  for (;;) { const { done, value } = await reader.read(); if (done) break; parts.push(value); }
  return parts;
}
export default { async fetch(request) {
  const n = Math.min(1000, Math.max(1, Number(new URL(request.url).searchParams.get("n")) || 1));
  let parts = [];
  for (let i = 0; i < n; i++) parts = await render();
  return new Response(new Blob(parts), { headers: { "X-React": React.version } });
} };
`;
}

const root = ".cache/bench-renderer";
const children = [];
const stop = () => children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill("SIGTERM"));
process.on("exit", stop);
process.on("SIGINT", () => (stop(), process.exit(130)));

const base = (worker) => `http://127.0.0.1:${worker.port}`;
async function renderOnce(worker, n) {
  const response = await fetch(`${base(worker)}/?n=${n}`);
  const html = await response.text();
  if (response.status !== 200) throw new Error(`${worker.label} answered ${response.status}: ${html.slice(0, 200)}`);
  return { html, version: response.headers.get("X-React") };
}
/** Until the worker answers; the two wranglers start one after the other (their esbuild runs once crashed side by side). */
async function untilAnswering(worker) {
  for (let i = 0; ; i++) {
    const ready = await renderOnce(worker, 1).then(
      () => true,
      () => false,
    );
    if (ready) return;
    if (i > 300) throw new Error(`${worker.label}'s wrangler dev did not answer`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const worker of workers) {
  const dir = path.join(root, worker.label);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  for (const name of ["react", "react-dom", "scheduler"]) symlinkSync(path.join(worker.modules, name), path.join(dir, "node_modules", name));
  const serverModule = Number(worker.version.split(".")[0]) >= 19 ? "react-dom/server.edge" : "react-dom/server.browser";
  worker.serverModule = serverModule;
  writeFileSync(path.join(dir, "index.mjs"), workerSource(serverModule));
  writeFileSync(path.join(dir, "wrangler.toml"), `name = "renderer-${worker.label}"\nmain = "index.mjs"\ncompatibility_date = "2025-09-01"\n`);
  const child = spawn(
    path.resolve("node_modules/.bin/wrangler"),
    ["dev", "--port", worker.port, "--inspector-port", worker.inspector, ...wranglerDevArgs()],
    { cwd: dir, env: wranglerDevEnv(), stdio: ["ignore", "ignore", "inherit"] },
  );
  children.push(child);
  await untilAnswering(worker);
}

const [project, candidate] = await Promise.all(workers.map((w) => renderOnce(w, 1)));
workers[0].running = project.version;
workers[1].running = candidate.version;
if (project.html !== candidate.html) {
  console.error("the two Reacts wrote different HTML; the comparison would not be like with like.");
  process.exit(1);
}
console.log(
  `tree: ${Buffer.byteLength(project.html)} bytes of HTML, ${(project.html.match(/<[a-z]/g) ?? []).length} elements; ${RENDERS} renders per request`,
);

for (const worker of workers) for (let i = 0; i < 3; i++) await renderOnce(worker, RENDERS); // warm-up (V8 tiers up)
const perRender = new Map(workers.map((w) => [w.label, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const worker of workers) {
    const before = cpuSnapshot();
    for (let i = 0; i < REQUESTS_PER_ROW; i++) await renderOnce(worker, RENDERS);
    const spent = cpuSpent(before, cpuSnapshot(), (cmdline) => (cmdline.includes("workerd") ? "workerd" : undefined));
    perRender.get(worker.label).push(((spent.workerd ?? 0) * 1000) / (REQUESTS_PER_ROW * RENDERS));
  }
}
for (const worker of workers) {
  const rows = perRender.get(worker.label);
  const sorted = [...rows].sort((a, b) => a - b);
  console.log(
    `${worker.label.padEnd(9)} react ${worker.running.padEnd(8)} (${worker.serverModule.padEnd(24)}) workerd CPU per render: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} µs (rounds: ${rows.map((v) => v.toFixed(0)).join(", ")})`,
  );
}
stop();
