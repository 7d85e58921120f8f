// Builds the service worker (app/features/pwa/sw.ts) into build/client/sw.js once React Router's client and server builds
// are done (React Router's `buildEnd` hook), with its precache list written into `self.__WB_MANIFEST`
// (decision 0023). The worker bundle (wrangler's) is not involved: sw.js is a static file of build/client.
//
// The precache holds what the learner needs offline and nothing user-specific:
//   - the offline page, the web app manifest and the icons (public/), revisioned by their content;
//   - the offline player page (fetched by the worker without cookies), revisioned by React Router's manifest version,
//     which changes whenever one of the client's chunks does;
//   - every script and stylesheet that page loads: the client entry and each route React Router matches for it (their
//     modules, static imports and CSS, from React Router's browser manifest), and the global stylesheets the root links.
//     Their names are hashed, so they need no revision.
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Config } from "@react-router/dev/config";
import { build } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { OFFLINE_PAGE, OFFLINE_PLAYER_PATH } from "../app/lib/offline-paths";

const SOURCE = "app/features/pwa/sw.ts";
const OUTPUT = "sw.js";
/** Files of public/ the worker precaches (with every file of public/icons/). */
const PUBLIC_FILES = [OFFLINE_PAGE, "/manifest.webmanifest", "/favicon.svg"];
const ICONS = "icons";

export type PrecacheEntry = { url: string; revision: string | null };

/** What is read of React Router's browser manifest: each part's module, the chunks it imports statically, its CSS. */
type ManifestPart = { module: string; imports?: string[]; css?: string[] };
type ManifestRoute = ManifestPart & { id: string; parentId?: string; path?: string; index?: boolean };
export type BrowserManifest = { version: string; entry: ManifestPart; routes: Record<string, ManifestRoute> };

/** A route's full path ("/a/b"), from its own path and its parents'. */
function fullPath(manifest: BrowserManifest, route: ManifestRoute): string {
  const parts: string[] = [];
  for (let each: ManifestRoute | undefined = route; each; each = each.parentId ? manifest.routes[each.parentId] : undefined) {
    if (each.path) parts.unshift(each.path);
  }
  const joined = `/${parts.join("/")}`.replace(/\/+/g, "/");
  return joined.length > 1 ? joined.replace(/\/$/, "") : joined;
}

/**
 * The routes React Router matches for a static `pathname`, root first: the deepest route whose full path is exactly it
 * (an index route before its layout), and its parents. None when only a dynamic or splat route would match.
 */
export function routesMatching(manifest: BrowserManifest, pathname: string): ManifestRoute[] {
  const depth = (route: ManifestRoute) => {
    let count = 0;
    for (let each = route; each.parentId; each = manifest.routes[each.parentId]!) count++;
    return count;
  };
  const leaf = Object.values(manifest.routes)
    .filter((route) => fullPath(manifest, route) === pathname)
    .sort((a, b) => depth(b) - depth(a))[0];
  const chain: ManifestRoute[] = [];
  for (let each: ManifestRoute | undefined = leaf; each; each = each.parentId ? manifest.routes[each.parentId] : undefined) chain.unshift(each);
  return chain;
}

/** The precache entries of a page: its address (with `revision`) and every script and stylesheet it loads. */
export function pageEntries(manifest: BrowserManifest, pathname: string, globalStylesheets: readonly string[]): PrecacheEntry[] {
  const routes = routesMatching(manifest, pathname);
  if (routes.length === 0) return [];
  const files = new Set<string>();
  for (const part of [manifest.entry, ...routes]) {
    for (const url of [part.module, ...(part.imports ?? []), ...(part.css ?? [])]) files.add(url);
  }
  for (const url of globalStylesheets) files.add(url);
  return [{ url: pathname, revision: manifest.version }, ...[...files].sort().map((url) => ({ url, revision: null }))];
}

/** React Router's browser manifest (`assets/manifest-<version>.js`: `window.__reactRouterManifest={…};`). */
async function readBrowserManifest(assetsDir: string): Promise<BrowserManifest> {
  const names = (await readdir(assetsDir)).filter((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (names.length !== 1) throw new Error(`service worker: expected one browser manifest in ${assetsDir}, found ${names.length}`);
  const source = (await readFile(path.join(assetsDir, names[0]!), "utf8")).trim();
  const json = source.replace(/^window\.__reactRouterManifest=/, "").replace(/;$/, "");
  return JSON.parse(json) as BrowserManifest;
}

const revisionOf = (bytes: Buffer) => createHash("md5").update(bytes).digest("hex");

export const buildServiceWorker: NonNullable<Config["buildEnd"]> = async ({ reactRouterConfig, viteConfig }) => {
  const clientDir = path.join(reactRouterConfig.buildDirectory, "client");
  const assetsDir = path.join(clientDir, viteConfig.build.assetsDir);
  const manifest = await readBrowserManifest(assetsDir);

  const icons = (await readdir(path.join(clientDir, ICONS))).map((name) => `/${ICONS}/${name}`);
  const publicEntries = await Promise.all(
    [...PUBLIC_FILES, ...icons].map(async (url) => ({ url, revision: revisionOf(await readFile(path.join(clientDir, url))) })),
  );
  const stylesheets = (await readdir(assetsDir)).filter((name) => name.endsWith(".css")).map((name) => `/${viteConfig.build.assetsDir}/${name}`);
  const player = pageEntries(manifest, OFFLINE_PLAYER_PATH, stylesheets);
  if (player.length === 0) throw new Error(`service worker: no route serves ${OFFLINE_PLAYER_PATH}, the offline player it precaches`);
  const entries: PrecacheEntry[] = [...publicEntries, ...player];

  await build({
    configFile: false,
    root: viteConfig.root,
    mode: "production",
    logLevel: "warn",
    publicDir: false,
    plugins: [tsconfigPaths()],
    define: { "self.__WB_MANIFEST": JSON.stringify(entries) },
    build: {
      outDir: clientDir,
      emptyOutDir: false,
      sourcemap: false,
      modulePreload: false,
      reportCompressedSize: false,
      rollupOptions: {
        input: path.join(viteConfig.root, SOURCE),
        output: { format: "iife", entryFileNames: OUTPUT },
        // The worker reaches features through their index like any other code; the app's modules have no import-time
        // effects, so what the worker does not use (the index's React components) is left out.
        treeshake: { moduleSideEffects: (id) => id === path.join(viteConfig.root, SOURCE) || !id.startsWith(path.join(viteConfig.root, "app")) },
      },
    },
  });

  const script = await readFile(path.join(clientDir, OUTPUT));
  if (script.includes("__WB_MANIFEST")) throw new Error(`service worker: the precache list was not written into ${OUTPUT}`);
  const sizes = await Promise.all(
    entries.filter((entry) => entry.url !== OFFLINE_PLAYER_PATH).map(async ({ url }) => (await stat(path.join(clientDir, url))).size),
  );
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  viteConfig.logger.info(
    `service worker: ${OUTPUT} ${kib(script.length)} (${kib(gzipSync(script).length)} gzip); ` +
      `precache ${entries.length} files, ${kib(sizes.reduce((sum, size) => sum + size, 0))} + the offline player page`,
  );
};
