// @vitest-environment node
// The service worker (sw.ts, with the real Workbox) run against a fake worker scope: Cache Storage, the network and
// the lifecycle events are stand-ins speaking the browser's API; IndexedDB (Workbox's expiration records) is
// fake-indexeddb. Each test gets a freshly evaluated worker.
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const ORIGIN = "https://nika.test";
const PLAYER = "/flashcard-v2/offline";
const MANIFEST = [
  { url: "/offline.html", revision: "r1" },
  { url: "/manifest.webmanifest", revision: "r1" },
  { url: "/icons/icon-192.png", revision: "r1" },
  { url: PLAYER, revision: "v1" },
  { url: "/assets/entry.client-abc.js", revision: null },
  { url: "/assets/offline-player-abc.js", revision: null },
  { url: "/assets/tailwind-abc.css", revision: null },
];

const syncQueue = vi.fn(async () => ({ sent: 0, accepted: 0, kept: 0 }));
vi.mock("~/features/offline/sync", () => ({ syncQueue }));

type Fetch = (request: Request) => Promise<Response>;
type Listener = (event: Event) => void;

const keyOf = (input: Request | string, ignoreSearch = false) => {
  const url = new URL(typeof input === "string" ? input : input.url, ORIGIN);
  url.hash = "";
  if (ignoreSearch) url.search = "";
  return url.href;
};

/** A Cache: responses by URL (GET only), bodies kept as bytes so each match is a fresh Response. */
class FakeCache {
  readonly entries = new Map<string, { request: Request; body: ArrayBuffer; init: ResponseInit }>();

  async match(input: Request | string, options: CacheQueryOptions = {}) {
    for (const [key, entry] of this.entries) {
      if (keyOf(key, options.ignoreSearch) === keyOf(input, options.ignoreSearch)) return new Response(entry.body.slice(0), entry.init);
    }
    return undefined;
  }
  async put(input: Request | string, response: Response) {
    const request = typeof input === "string" ? new Request(keyOf(input)) : input;
    if (request.method !== "GET") throw new TypeError("Cache.put: GET only");
    const init = { status: response.status, statusText: response.statusText, headers: [...response.headers] };
    this.entries.set(keyOf(request), { request, body: await response.arrayBuffer(), init });
  }
  async delete(input: Request | string, options: CacheQueryOptions = {}) {
    let deleted = false;
    for (const key of [...this.entries.keys()]) {
      if (keyOf(key, options.ignoreSearch) === keyOf(input, options.ignoreSearch)) deleted = this.entries.delete(key) || deleted;
    }
    return deleted;
  }
  async keys(input?: Request | string, options: CacheQueryOptions = {}) {
    return [...this.entries.entries()]
      .filter(([key]) => input === undefined || keyOf(key, options.ignoreSearch) === keyOf(input, options.ignoreSearch))
      .map(([, entry]) => entry.request);
  }
}

class FakeCacheStorage {
  readonly caches = new Map<string, FakeCache>();
  async open(name: string) {
    if (!this.caches.has(name)) this.caches.set(name, new FakeCache());
    return this.caches.get(name)!;
  }
  async has(name: string) {
    return this.caches.has(name);
  }
  async delete(name: string) {
    return this.caches.delete(name);
  }
  async keys() {
    return [...this.caches.keys()];
  }
  async match(input: Request | string, options: MultiCacheQueryOptions = {}) {
    const caches = options.cacheName ? [this.caches.get(options.cacheName)].filter(Boolean) : [...this.caches.values()];
    for (const cache of caches) {
      const hit = await cache!.match(input, options);
      if (hit) return hit;
    }
    return undefined;
  }
  /** Every URL stored, in any cache, without Workbox's revision parameter. */
  urls() {
    return [...this.caches.values()].flatMap((cache) => [...cache.entries.keys()].map((key) => key.replace(/\?__WB_REVISION__=.*$/, "")));
  }
}

class ExtendableEvent extends Event {
  readonly pending: Promise<unknown>[] = [];
  waitUntil(promise: Promise<unknown>) {
    this.pending.push(promise);
  }
}
class FetchEvent extends ExtendableEvent {
  response?: Promise<Response>;
  constructor(
    readonly request: Request,
    readonly preloadResponse: Promise<Response | undefined> = Promise.resolve(undefined),
  ) {
    super("fetch");
  }
  respondWith(response: Promise<Response> | Response) {
    if (this.response) throw new Error("respondWith called twice");
    this.response = Promise.resolve(response);
  }
}
class SyncEvent extends ExtendableEvent {
  constructor(readonly tag: string) {
    super("sync");
  }
}

/** Node's Request refuses mode "navigate": a navigation is a Request that says it is one. */
class Navigation extends Request {
  override get mode(): RequestMode {
    return "navigate";
  }
}
const nav = (path: string, init?: RequestInit) => new Navigation(new URL(path, ORIGIN), init);
const get = (path: string, init?: RequestInit) => new Request(new URL(path, ORIGIN), init);

/** The server: every page is HTML, every file its own bytes. */
const server: Fetch = async (request) => {
  const { pathname } = new URL(request.url);
  const html = pathname.endsWith(".html") || !/\.[a-z]+$/.test(pathname);
  return new Response(`network:${pathname}`, { headers: { "Content-Type": html ? "text/html; charset=utf-8" : "application/octet-stream" } });
};

let listeners: Map<string, Listener[]>;
let network: ReturnType<typeof vi.fn<Fetch>>;
let cacheStorage: FakeCacheStorage;
let scope: {
  skipWaiting: ReturnType<typeof vi.fn>;
  clients: { claim: ReturnType<typeof vi.fn> };
  registration: { navigationPreload: { enable: ReturnType<typeof vi.fn> } };
};

async function dispatch<E extends ExtendableEvent>(event: E): Promise<E> {
  for (const listener of listeners.get(event.type) ?? []) listener(event);
  await Promise.allSettled(event.pending);
  // waitUntil may be called again while those settle (Workbox's strategies do).
  await Promise.allSettled(event.pending);
  return event;
}

async function fetchEvent(request: Request, preload?: Response) {
  const event = new FetchEvent(request, Promise.resolve(preload));
  for (const listener of listeners.get("fetch") ?? []) listener(event);
  const response = await event.response;
  await Promise.all(event.pending);
  return { intercepted: event.response !== undefined, response };
}

const offline = () => network.mockRejectedValue(new TypeError("Failed to fetch"));

beforeEach(async () => {
  listeners = new Map();
  network = vi.fn<Fetch>(server);
  cacheStorage = new FakeCacheStorage();
  scope = {
    skipWaiting: vi.fn(async () => {}),
    clients: { claim: vi.fn(async () => {}) },
    registration: { navigationPreload: { enable: vi.fn(async () => {}) } },
  };
  const self = {
    ...scope,
    location: new URL("/sw.js", ORIGIN),
    caches: cacheStorage,
    __WB_MANIFEST: MANIFEST,
    __WB_DISABLE_DEV_LOGS: true,
    addEventListener(type: string, listener: Listener) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
  };
  vi.stubGlobal("self", self);
  vi.stubGlobal("location", self.location);
  vi.stubGlobal("caches", cacheStorage);
  vi.stubGlobal("fetch", (input: Request | string, init?: RequestInit) =>
    network(new Request(input instanceof Request ? input : keyOf(input), init)),
  );
  // Workbox runs in development mode here (its assertions on), its logging off: on the scope and seen there.
  vi.stubGlobal("__WB_DISABLE_DEV_LOGS", true);
  vi.stubGlobal("ExtendableEvent", ExtendableEvent);
  vi.stubGlobal("FetchEvent", FetchEvent);
  globalThis.indexedDB = new IDBFactory();
  syncQueue.mockClear();
  vi.resetModules();
  await import("./sw");
  await dispatch(new ExtendableEvent("install"));
  await dispatch(new ExtendableEvent("activate"));
  network.mockClear();
  network.mockImplementation(server);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("install and update", () => {
  it("precaches the offline page, the manifest, the icons, the offline player and its chunks, without skipping waiting", async () => {
    const urls = cacheStorage.urls();
    for (const { url } of MANIFEST) expect(urls).toContain(`${ORIGIN}${url}`);
    expect(await cacheStorage.keys()).toEqual(["nika-precache-v2"]);
    expect(scope.skipWaiting).not.toHaveBeenCalled();
  });

  it("fetches the offline player page without cookies (and refuses a redirect), the other files as usual", async () => {
    const fresh = vi.fn<Fetch>(server);
    network.mockImplementation(fresh);
    listeners = new Map();
    cacheStorage.caches.clear();
    vi.resetModules();
    await import("./sw");
    await dispatch(new ExtendableEvent("install"));
    const requests = new Map(fresh.mock.calls.map(([request]) => [new URL(request.url).pathname, request]));
    expect(requests.get(PLAYER)).toMatchObject({ credentials: "omit", redirect: "error" });
    expect(requests.get("/offline.html")).toMatchObject({ credentials: "same-origin", redirect: "follow" });
    expect(requests.get("/assets/entry.client-abc.js")).toMatchObject({ credentials: "same-origin" });
  });

  it("skips waiting only when the page asks with SKIP_WAITING", async () => {
    for (const listener of listeners.get("message") ?? []) listener(new MessageEvent("message", { data: { type: "something-else" } }));
    for (const listener of listeners.get("message") ?? []) listener(new MessageEvent("message", { data: null }));
    expect(scope.skipWaiting).not.toHaveBeenCalled();
    for (const listener of listeners.get("message") ?? []) listener(new MessageEvent("message", { data: { type: "SKIP_WAITING" } }));
    expect(scope.skipWaiting).toHaveBeenCalledTimes(1);
  });

  it("on activate, deletes older versions' caches, keeps the offline media and other caches, claims the pages, enables navigation preload", async () => {
    for (const name of ["nika-precache-v1", "nika-assets-v1", "nika-offline-media", "unrelated"]) await cacheStorage.open(name);
    scope.clients.claim.mockClear();
    await dispatch(new ExtendableEvent("activate"));
    expect((await cacheStorage.keys()).sort()).toEqual(["nika-offline-media", "nika-precache-v2", "unrelated"]);
    expect(scope.clients.claim).toHaveBeenCalledTimes(1);
    expect(scope.registration.navigationPreload.enable).toHaveBeenCalled();
  });
});

describe("navigations (privacy: never stored)", () => {
  it("come from the network, or from navigation preload when it answered", async () => {
    const { intercepted, response } = await fetchEvent(nav("/licoes/1"));
    expect(intercepted).toBe(true);
    expect(await response!.text()).toBe("network:/licoes/1");
    const preloaded = await fetchEvent(nav("/"), new Response("preloaded", { headers: { "Content-Type": "text/html" } }));
    expect(await preloaded.response!.text()).toBe("preloaded");
    expect(network).toHaveBeenCalledTimes(1);
  });

  it("are never written to any cache, signed-in pages included", async () => {
    const before = cacheStorage.urls().sort();
    for (const path of ["/", "/dashboard", "/licoes/1?x=1", "/conta", "/flashcard-v2", "/flashcard-v2/animais"]) {
      const { response } = await fetchEvent(nav(path));
      expect(await response!.text()).toBe(`network:${path.split("?")[0]}`);
    }
    expect(cacheStorage.urls().sort()).toEqual(before);
    expect((await cacheStorage.keys()).sort()).toEqual(["nika-precache-v2"]);
  });

  it("offline, outside the flashcards, get the precached /offline.html", async () => {
    offline();
    for (const path of ["/licoes/1", "/", "/flashcard-v2-antigo", "/chat?c=1"]) {
      const { response } = await fetchEvent(nav(path));
      expect(response!.status, path).toBe(200);
      expect(await response!.text(), path).toBe("network:/offline.html");
    }
  });

  it("offline, under /flashcard-v2, are redirected to the precached offline player", async () => {
    offline();
    for (const path of ["/flashcard-v2", "/flashcard-v2/", "/flashcard-v2/animais", "/flashcard-v2/9b1c/jogo?x=1"]) {
      const { response } = await fetchEvent(nav(path));
      expect(response!.status, path).toBe(302);
      expect(response!.headers.get("Location"), path).toBe(`${ORIGIN}${PLAYER}`);
    }
  });

  it("serve the offline player from the precache, online or not, with or without a query", async () => {
    const online = await fetchEvent(nav(PLAYER));
    expect(await online.response!.text()).toBe(`network:${PLAYER}`);
    expect(network).not.toHaveBeenCalled();
    offline();
    const withQuery = await fetchEvent(nav(`${PLAYER}?bundle=1`));
    expect(withQuery.response!.status).toBe(200);
    expect(await withQuery.response!.text()).toBe(`network:${PLAYER}`);
  });

  it("leave posts (form submissions) to the browser", async () => {
    const { intercepted } = await fetchEvent(nav("/login", { method: "POST", body: "email=a" }));
    expect(intercepted).toBe(false);
    expect(network).not.toHaveBeenCalled();
  });
});

describe("other requests", () => {
  it("does not touch loader data, /api, /resources, the router's manifest, non-GET or other origins", async () => {
    for (const request of [
      get("/dashboard.data"),
      get("/_root.data?_routes=root"),
      get("/flashcard-v2.data"),
      get("/api/chat"),
      get("/resources/offline/bundle?target=review"),
      get("/__manifest?p=%2Flicoes&version=abc"),
      get("/assets/x.js", { method: "POST", body: "a" }),
      get("/resources/offline/sync", { method: "POST", body: "{}" }),
      new Request("https://cdn.example.com/assets/x.js"),
    ]) {
      const { intercepted } = await fetchEvent(request);
      expect(intercepted, `${request.method} ${request.url}`).toBe(false);
    }
    expect(network).not.toHaveBeenCalled();
  });

  it("serves /assets/* cache-first: stored on first fetch, then answered offline", async () => {
    const first = await fetchEvent(get("/assets/page-x1.js"));
    expect(await first.response!.text()).toBe("network:/assets/page-x1.js");
    expect(cacheStorage.caches.get("nika-assets-v2")?.entries.has(`${ORIGIN}/assets/page-x1.js`)).toBe(true);
    offline();
    const second = await fetchEvent(get("/assets/page-x1.js"));
    expect(await second.response!.text()).toBe("network:/assets/page-x1.js");
    expect(network).toHaveBeenCalledTimes(1);
  });

  it("does not store failed, HTML or private responses under /assets/", async () => {
    network.mockResolvedValueOnce(new Response("missing", { status: 404 }));
    await fetchEvent(get("/assets/missing.js"));
    network.mockResolvedValueOnce(new Response("<p>hi</p>", { headers: { "Content-Type": "text/html" } }));
    await fetchEvent(get("/assets/page.js"));
    network.mockResolvedValueOnce(new Response("x", { headers: { "Cache-Control": "private, max-age=60" } }));
    await fetchEvent(get("/assets/private.js"));
    const stored = cacheStorage.urls();
    for (const path of ["/assets/missing.js", "/assets/page.js", "/assets/private.js"]) expect(stored).not.toContain(`${ORIGIN}${path}`);
  });

  it("serves precached files from the precache", async () => {
    offline();
    for (const path of ["/manifest.webmanifest", "/assets/offline-player-abc.js", "/offline.html"]) {
      const { response } = await fetchEvent(get(path));
      expect(await response!.text(), path).toBe(`network:${path}`);
    }
  });
});

describe("offline media (nika-offline-media)", () => {
  const PICTURE = "/media/flashcards/gato.webp";
  const SOUND = "/content/flashcards/gato.mp3";

  beforeEach(async () => {
    const media = await cacheStorage.open("nika-offline-media");
    await media.put(get(PICTURE), new Response("picture-bytes", { headers: { "Content-Type": "image/webp" } }));
    await media.put(get(SOUND), new Response("0123456789", { headers: { "Content-Type": "audio/mpeg" } }));
    await media.put(get("/assets/correct-abc.mp3"), new Response("ding", { headers: { "Content-Type": "audio/mpeg" } }));
  });

  it("answers what it holds from the cache, without the network", async () => {
    offline();
    expect(await (await fetchEvent(get(PICTURE))).response!.text()).toBe("picture-bytes");
    expect(await (await fetchEvent(get(SOUND))).response!.text()).toBe("0123456789");
    expect(await (await fetchEvent(get("/assets/correct-abc.mp3"))).response!.text()).toBe("ding");
    expect(network).not.toHaveBeenCalled();
  });

  it("answers a range request (audio) with the range", async () => {
    const { response } = await fetchEvent(get(SOUND, { headers: { Range: "bytes=2-5" } }));
    expect(response!.status).toBe(206);
    expect(response!.headers.get("Content-Range")).toBe("bytes 2-5/10");
    expect(await response!.text()).toBe("2345");
  });

  it("sends media it does not hold to the network and stores them nowhere", async () => {
    const before = cacheStorage.urls().sort();
    const { response } = await fetchEvent(get("/media/flashcards/cachorro.webp"));
    expect(await response!.text()).toBe("network:/media/flashcards/cachorro.webp");
    await fetchEvent(get("/content/flashcards/cachorro.mp3"));
    expect(cacheStorage.urls().sort()).toEqual(before);
  });
});

describe("Background Sync", () => {
  it("syncs the answer queue on the nika-offline-sync tag, and only on it", async () => {
    await dispatch(new SyncEvent("something-else"));
    expect(syncQueue).not.toHaveBeenCalled();
    const event = await dispatch(new SyncEvent("nika-offline-sync"));
    expect(syncQueue).toHaveBeenCalledTimes(1);
    expect(event.pending).toHaveLength(1);
  });

  it("lets the browser retry when the sync fails (the event's promise rejects)", async () => {
    syncQueue.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    const event = await dispatch(new SyncEvent("nika-offline-sync"));
    await expect(event.pending[0]).rejects.toThrow("Failed to fetch");
  });
});
