/* Nika service worker — hand-written, no libraries.
 *
 * Privacy rule: NEVER cache navigations/HTML or anything that may be
 * user-specific (loader data `*.data`, `/api/*`, …). Only static files are
 * cached: hashed build output under /assets/ and the precached files below.
 *
 * Bump VERSION whenever a precached file (offline page, manifest, icons)
 * changes; old caches are deleted when the new worker activates.
 */
const VERSION = "v1";
const CACHE_PREFIX = "nika-";
const PRECACHE = `${CACHE_PREFIX}precache-${VERSION}`;
const ASSET_CACHE = `${CACHE_PREFIX}assets-${VERSION}`;
const MAX_ASSET_ENTRIES = 300;
const OFFLINE_URL = "/offline.html";

const PRECACHE_URLS = [
  OFFLINE_URL,
  "/manifest.webmanifest",
  "/favicon.svg",
  "/icons/icon.svg",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/maskable-512.png",
  "/icons/apple-touch-icon.png",
];
const PRECACHE_PATHS = new Set(PRECACHE_URLS);

self.addEventListener("install", (event) => {
  // No skipWaiting() here: the page asks for it (SKIP_WAITING message) once
  // the user accepts the update, so a tab never switches versions mid-use.
  event.waitUntil(
    caches
      .open(PRECACHE)
      // cache: "reload" bypasses the HTTP cache so we never precache stale files.
      .then((cache) => cache.addAll(PRECACHE_URLS.map((url) => new Request(url, { cache: "reload" })))),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") {
    self.skipWaiting();
  }
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([PRECACHE, ASSET_CACHE]);
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && !keep.has(name)).map((name) => caches.delete(name)));
      if (self.registration && self.registration.navigationPreload) {
        try {
          await self.registration.navigationPreload.enable();
        } catch {
          // Not supported: navigations just use fetch().
        }
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return; // POST/PUT/…: untouched

  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return; // cross-origin: untouched

  if (request.mode === "navigate") {
    event.respondWith(networkFirstNavigation(event));
    return;
  }

  if (url.pathname.startsWith("/assets/")) {
    event.respondWith(cacheFirstAsset(event));
    return;
  }

  if (PRECACHE_PATHS.has(url.pathname) && url.search === "") {
    event.respondWith(precached(request));
    return;
  }

  // Everything else (`*.data` loader requests, /api/*, …) goes to the network
  // untouched: no respondWith(), so the browser handles it normally.
});

/** Network only for documents; never stored. Offline page on network failure. */
async function networkFirstNavigation(event) {
  try {
    const preloaded = await event.preloadResponse;
    if (preloaded) return preloaded;
    return await fetch(event.request);
  } catch {
    const cache = await caches.open(PRECACHE);
    const offline = await cache.match(OFFLINE_URL);
    return (
      offline ||
      new Response("Você está offline.", {
        status: 503,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      })
    );
  }
}

/** Hashed, immutable build output: cache-first, stored on first fetch. */
async function cacheFirstAsset(event) {
  const { request } = event;
  const cache = await caches.open(ASSET_CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;

  const response = await fetch(request);
  if (isCacheableAsset(response)) {
    event.waitUntil(
      cache
        .put(request, response.clone())
        .then(() => trimCache(cache, MAX_ASSET_ENTRIES))
        .catch(() => {}),
    );
  }
  return response;
}

/** Precached static files: cache-first, network fallback (not stored). */
async function precached(request) {
  const cache = await caches.open(PRECACHE);
  const cached = await cache.match(request);
  return cached || fetch(request);
}

function isCacheableAsset(response) {
  if (!response || response.status !== 200 || response.type === "opaque") return false;
  // Defence in depth: never store HTML, even if something under /assets/
  // were ever rendered by the server.
  const type = response.headers.get("Content-Type") || "";
  if (type.includes("text/html")) return false;
  const cacheControl = response.headers.get("Cache-Control") || "";
  if (/no-store|private/i.test(cacheControl)) return false;
  return true;
}

/** Keep the asset cache bounded (oldest entries first; keys() is in insertion order). */
async function trimCache(cache, maxEntries) {
  const keys = await cache.keys();
  const excess = keys.length - maxEntries;
  for (let i = 0; i < excess; i++) {
    await cache.delete(keys[i]);
  }
}
