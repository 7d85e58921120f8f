// @ts-check
// Prints which direct dependencies are behind, in two groups: behind within their major, and a newer major exists.
// `npm outdated --json --long` gives current, `wanted` (newest in the range) and `latest` (newest this Node's engines
// allow); for exact pins `npm view <pkg> versions dist-tags` gives the newest of the same major and the real latest.
// A 0.x package's "major" is its 0.minor line (as ^ treats it). Information only: always exits 0.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";

const run = promisify(execFile);
const started = Date.now();
const read = (/** @type {string} */ path) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
const manifest = read("../package.json");
/** @type {Record<string, string>} name → "dependencies" | "devDependencies" */
const kinds = {};
for (const kind of ["dependencies", "devDependencies"]) for (const name of Object.keys(manifest[kind] ?? {})) kinds[name] = kind;
const names = Object.keys(kinds);
const exact = /^\d+\.\d+\.\d+$/;
const pins = names.filter((name) => exact.test(manifest[kinds[name]][name]));

/** stdout of `npm …args`. npm outdated exits 1 when something is outdated: a failure that printed JSON counts. */
async function npm(/** @type {string[]} */ ...args) {
  try {
    return (await run("npm", args, { maxBuffer: 64 << 20, cwd: new URL("..", import.meta.url) })).stdout;
  } catch (error) {
    const { stdout, message } = /** @type {{ stdout?: string, message: string }} */ (error);
    if (stdout?.trim().startsWith("{")) return stdout;
    throw new Error(message.split("\n")[0]);
  }
}

const parts = (/** @type {string} */ version) => version.split(".").map(Number);
const compare = (/** @type {string} */ a, /** @type {string} */ b) => parts(a).reduce((order, n, i) => order || n - (parts(b)[i] ?? 0), 0);
const line = (/** @type {string} */ version) => (parts(version)[0] ? `${parts(version)[0]}` : `0.${parts(version)[1]}`);
/** The installed version (npm outdated lists only what is behind). @param {string} name @returns {string | undefined} */
function installed(name) {
  try {
    return read(`../node_modules/${name}/package.json`).version;
  } catch {
    return undefined;
  }
}

/** `task` over `items`, at most `limit` at a time. @template T, R @param {T[]} items @param {number} limit @param {(item: T) => Promise<R>} task */
async function pool(items, limit, task) {
  /** @type {R[]} */
  const results = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await task(items[index]);
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

try {
  const [outdatedText, views] = await Promise.all([
    npm("outdated", "--json", "--long"),
    pool(pins, 4, (name) => npm("view", name, "versions", "dist-tags", "--json").then(JSON.parse, () => null)),
  ]);
  /** @typedef {{ current?: string, wanted?: string, latest?: string }} Entry */
  /** @type {Record<string, Entry | Entry[]> & { error?: { summary?: string } }} */
  const outdated = outdatedText.trim() ? JSON.parse(outdatedText) : {};
  if (outdated.error) throw new Error(outdated.error.summary ?? "npm outdated failed");
  /** @type {Record<"within" | "major", string[]>} */
  const groups = { within: [], major: [] };
  for (const name of names) {
    /** @type {Entry} */
    const entry = [outdated[name] ?? {}].flat()[0] ?? {};
    const current = entry.current ?? installed(name);
    if (!current) continue;
    const forThisNode = entry.latest ?? current;
    const view = views[pins.indexOf(name)] ?? undefined;
    const ofMajor = [view?.versions ?? []].flat().filter((/** @type {string} */ v) => exact.test(v) && line(v) === line(current));
    const sameMajor = view ? (ofMajor.sort(compare).at(-1) ?? current) : (entry.wanted ?? current);
    const latest = view?.["dist-tags"]?.latest ?? forThisNode;
    const newMajor = line(latest) !== line(current) && compare(latest, current) > 0;
    if (!newMajor && compare(sameMajor, current) <= 0) continue;
    const step = compare(sameMajor, current) > 0 ? `${current} → ${sameMajor}` : `${current} (newest of its major)`;
    const top = compare(latest, sameMajor) > 0 ? latest : sameMajor;
    const node = compare(top, forThisNode) > 0 ? `  [Node ${process.version} stops at ${forThisNode}]` : "";
    const label = `${name}${kinds[name] === "devDependencies" ? " (dev)" : ""}`;
    groups[newMajor ? "major" : "within"].push(`  ${label.padEnd(44)} ${step.padEnd(36)} latest ${latest}${node}`);
  }
  console.log(`Direct dependencies behind (Node ${process.version}) — information only\n`);
  console.log(`Behind within its major (${groups.within.length}):\n${groups.within.join("\n") || "  none"}\n`);
  console.log(`A newer major exists (${groups.major.length}):\n${groups.major.join("\n") || "  none"}\n`);
  console.log("For ^ ranges the newest of the major is npm's `wanted`, and latest the newest for this Node.");
  const missing = pins.filter((_, i) => !views[i]);
  if (missing.length) console.log(`The registry did not answer for: ${missing.join(", ")}`);
} catch (error) {
  console.warn(`warning: could not run npm (${error instanceof Error ? error.message : error}); no report.`);
}
console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
process.exit(0);
