// Nika's service worker, on Workbox. Built by the Vite build into build/client/sw.js (scripts/vite-sw.ts), which
// writes the precache list into `self.__WB_MANIFEST`. See docs/decisions/0023-offline-practice.md.
//
// Privacy rule: nothing that may be user-specific is stored. Navigations (HTML), loader data (`*.data`), /api and
// /resources go to the network untouched — a failed navigation gets an offline page, never a stored copy. Stored
// are only: the precache (offline page, manifest, icons, and the offline player page — fetched without cookies, so
// it is the same page for everyone — with its scripts and styles), hashed build output under /assets/, and what
// the offline feature puts in `nika-offline-media` on purpose (the pictures and sounds of downloaded flashcards).
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { cacheNames, clientsClaim, setCacheNameDetails, type WorkboxPlugin } from "workbox-core";
import { ExpirationPlugin } from "workbox-expiration";
import { enable as enableNavigationPreload } from "workbox-navigation-preload";
import { addPlugins, matchPrecache, precacheAndRoute, type PrecacheEntry } from "workbox-precaching";
import { createPartialResponse } from "workbox-range-requests";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { CacheFirst, NetworkOnly } from "workbox-strategies";
import { MEDIA_CACHE, SYNC_TAG, syncQueue } from "~/features/offline";
import { inFlashcards, OFFLINE_PAGE, OFFLINE_PLAYER_PATH } from "~/lib/offline-paths";

type SyncEvent = ExtendableEvent & { readonly tag: string };
interface WorkerScope {
  readonly location: { readonly href: string };
  /** The precache list: written in by the build. */
  readonly __WB_MANIFEST: PrecacheEntry[];
  skipWaiting(): Promise<void>;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  addEventListener(type: "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "sync", listener: (event: SyncEvent) => void): void;
}
declare const self: WorkerScope;

const CACHE_PREFIX = "nika";
/** Bump only when the caches' layout changes: the precache updates itself from the build's revisions. */
const VERSION = "v2";
setCacheNameDetails({ prefix: CACHE_PREFIX, suffix: VERSION, precache: "precache", runtime: "runtime" });
const ASSET_CACHE = `${CACHE_PREFIX}-assets-${VERSION}`;
/** Where static files may come from the offline media cache: pictures and sounds are served from these. */
const MEDIA_PREFIXES = ["/media/", "/content/", "/assets/"];

// The offline player is the same page for everyone: fetched without cookies. A redirect (to the sign-in page, say)
// fails the install instead of storing another page under the player's address.
const playerWithoutCookies: WorkboxPlugin = {
  requestWillFetch: async ({ request }) =>
    new URL(request.url).pathname === OFFLINE_PLAYER_PATH ? new Request(request, { credentials: "omit", redirect: "error" }) : request,
};
addPlugins([playerWithoutCookies]);
precacheAndRoute(self.__WB_MANIFEST, { cleanURLs: false });

// Documents: from the network only (or navigation preload's response), never stored.
const navigations = new NetworkOnly();
registerRoute(
  new NavigationRoute(async (options) => {
    try {
      return await navigations.handle(options);
    } catch {
      return offlineNavigation(options.url);
    }
  }),
);

/** Offline: the flashcards open the offline player; everything else, the offline page. */
async function offlineNavigation(url: URL): Promise<Response> {
  if (inFlashcards(url.pathname)) {
    const player = await matchPrecache(OFFLINE_PLAYER_PATH);
    // Redirected, so the address is the player's and React Router hydrates its own route.
    if (player)
      return url.pathname === OFFLINE_PLAYER_PATH ? player : Response.redirect(new URL(OFFLINE_PLAYER_PATH, self.location.href).href, 302);
  }
  return (
    (await matchPrecache(OFFLINE_PAGE)) ??
    new Response("Você está offline.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } })
  );
}

/** Defence in depth: never store HTML or a response marked private, even under /assets/. */
const staticFilesOnly: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => {
    if (/text\/html/i.test(response.headers.get("Content-Type") ?? "")) return null;
    if (/no-store|private/i.test(response.headers.get("Cache-Control") ?? "")) return null;
    return response;
  },
};
// Hashed, immutable build output: cache-first, stored on first use, the oldest dropped past a bound.
const assets = new CacheFirst({
  cacheName: ASSET_CACHE,
  plugins: [
    new CacheableResponsePlugin({ statuses: [200] }),
    staticFilesOnly,
    new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 60 * 60 * 24 * 60, purgeOnQuotaError: true }),
  ],
});

// Pictures and sounds a download stored answer from the media cache (a range of them for <audio>'s range
// requests); the rest of /assets/ goes to the asset cache, and other media to the network, stored nowhere.
registerRoute(
  ({ url, sameOrigin, request }) =>
    sameOrigin && request.mode !== "navigate" && MEDIA_PREFIXES.some((prefix) => url.pathname.startsWith(prefix)),
  async (options) => {
    const { request, url } = options;
    // Vary ignored: these are the same files for everyone, stored from the page's own fetch.
    const stored = await caches.match(request, { cacheName: MEDIA_CACHE, ignoreVary: true });
    if (stored) return request.headers.has("Range") ? createPartialResponse(request, stored) : stored;
    return url.pathname.startsWith("/assets/") ? assets.handle(options) : fetch(request);
  },
);

// No skipWaiting() on install: the page asks for it (SKIP_WAITING) once the learner accepts the update, so a tab
// never switches versions mid-use.
self.addEventListener("message", (event) => {
  if ((event.data as { type?: unknown } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

// The caches of older versions go (the precache drops its own stale entries); the offline feature's stay.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const current = new Set([cacheNames.precache, ASSET_CACHE]);
      const old = (await caches.keys()).filter(
        (name) => name.startsWith(`${CACHE_PREFIX}-`) && !current.has(name) && !name.startsWith(MEDIA_CACHE),
      );
      await Promise.all(old.map((name) => caches.delete(name)));
    })(),
  );
});
enableNavigationPreload();
clientsClaim();

// Background Sync (Chromium): the pages register the tag when they queue an answer. A failed run rejects, so the
// browser retries it later; the pages also sync on `online` and on opening.
self.addEventListener("sync", (event) => {
  if (event.tag === SYNC_TAG) event.waitUntil(syncQueue());
});
