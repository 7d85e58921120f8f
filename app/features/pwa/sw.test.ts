// @vitest-environment node
import { beforeEach, describe, expect, it, vi } from "vitest";
// Vite's ?raw import: the exact file that is served as /sw.js.
import SW_SOURCE from "../../../public/sw.js?raw";

const ORIGIN = "https://nika.test";

type FetchFn = (input: Request) => Promise<Response>;
type Listener = (event: unknown) => void;

function toUrl(input: Request | string): string {
  const raw = typeof input === "string" ? input : input.url;
  const url = new URL(raw, ORIGIN);
  url.hash = "";
  return url.href;
}

/** Request that resolves relative URLs against the worker origin, like in a real SW. */
class ScopedRequest extends Request {
  constructor(input: Request | string | URL, init?: RequestInit) {
    super(typeof input === "string" ? new URL(input, ORIGIN) : input, init);
  }
}

/** Node's Request refuses mode "navigate", so fake it for navigation requests. */
class NavigationRequest extends Request {
  override get mode(): RequestMode {
    return "navigate";
  }
}

interface StoredResponse {
  body: ArrayBuffer;
  status: number;
  statusText: string;
  headers: [string, string][];
}

/** Minimal Map-based Cache (exact URL match, GET only). */
class FakeCache {
  readonly entries = new Map<string, { request: Request; response: StoredResponse }>();
  constructor(private readonly fetchImpl: () => FetchFn) {}

  async match(input: Request | string): Promise<Response | undefined> {
    const hit = this.entries.get(toUrl(input));
    if (!hit) return undefined;
    const { body, status, statusText, headers } = hit.response;
    return new Response(body.slice(0), { status, statusText, headers });
  }

  async put(input: Request | string, response: Response): Promise<void> {
    const request = typeof input === "string" ? new ScopedRequest(input) : input;
    if (request.method !== "GET") throw new TypeError("Cache.put: only GET requests");
    if (response.status === 206) throw new TypeError("Cache.put: partial response");
    const body = await response.arrayBuffer();
    this.entries.set(toUrl(request), {
      request,
      response: {
        body,
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers.entries()],
      },
    });
  }

  async add(input: Request | string): Promise<void> {
    await this.addAll([input]);
  }

  async addAll(inputs: (Request | string)[]): Promise<void> {
    const requests = inputs.map((input) => (typeof input === "string" ? new ScopedRequest(input) : input));
    const responses = await Promise.all(requests.map((request) => this.fetchImpl()(request)));
    responses.forEach((response, i) => {
      if (!response.ok) throw new TypeError(`Cache.addAll: bad response for ${requests[i]!.url}`);
    });
    for (let i = 0; i < requests.length; i++) await this.put(requests[i]!, responses[i]!);
  }

  async delete(input: Request | string): Promise<boolean> {
    return this.entries.delete(toUrl(input));
  }

  async keys(): Promise<Request[]> {
    return [...this.entries.values()].map((entry) => entry.request);
  }
}

/** Minimal Map-based CacheStorage. */
class FakeCacheStorage {
  readonly caches = new Map<string, FakeCache>();
  constructor(private readonly fetchImpl: () => FetchFn) {}

  async open(name: string): Promise<FakeCache> {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new FakeCache(this.fetchImpl);
      this.caches.set(name, cache);
    }
    return cache;
  }
  async has(name: string): Promise<boolean> {
    return this.caches.has(name);
  }
  async delete(name: string): Promise<boolean> {
    return this.caches.delete(name);
  }
  async keys(): Promise<string[]> {
    return [...this.caches.keys()];
  }
  async match(input: Request | string): Promise<Response | undefined> {
    for (const cache of this.caches.values()) {
      const hit = await cache.match(input);
      if (hit) return hit;
    }
    return undefined;
  }
  /** Every URL stored in any cache. */
  allUrls(): string[] {
    return [...this.caches.values()].flatMap((cache) => [...cache.entries.keys()]);
  }
}

function createScope() {
  const listeners = new Map<string, Listener[]>();
  const network = vi.fn<FetchFn>(async (request) => {
    const { pathname } = new URL(request.url);
    const type = pathname.endsWith(".html") ? "text/html; charset=utf-8" : "application/octet-stream";
    return new Response(`network:${pathname}`, { status: 200, headers: { "Content-Type": type } });
  });
  const fetchFn = vi.fn<FetchFn>((request) => network(request));
  const cacheStorage = new FakeCacheStorage(() => fetchFn);
  const clients = { claim: vi.fn(async () => {}) };
  const self = {
    location: new URL("/sw.js", ORIGIN),
    registration: {},
    clients,
    skipWaiting: vi.fn(async () => {}),
    addEventListener(type: string, listener: Listener) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
  };

  new Function("self", "caches", "fetch", "clients", "Request", SW_SOURCE)(self, cacheStorage, fetchFn, clients, ScopedRequest);

  function dispatch(type: string, extra: Record<string, unknown> = {}) {
    const waits: Promise<unknown>[] = [];
    let responded: Promise<Response> | undefined;
    const event = {
      type,
      waitUntil(promise: Promise<unknown>) {
        waits.push(promise);
      },
      respondWith(promise: Promise<Response> | Response) {
        if (responded) throw new Error("respondWith called twice");
        responded = Promise.resolve(promise);
      },
      ...extra,
    };
    for (const listener of listeners.get(type) ?? []) listener(event);
    return {
      get intercepted() {
        return responded !== undefined;
      },
      response: () => responded,
      settled: async () => {
        await responded?.catch(() => {});
        // waitUntil may be called while the response is produced.
        await Promise.all(waits);
      },
    };
  }

  async function fetchEvent(request: Request) {
    const result = dispatch("fetch", { request, preloadResponse: Promise.resolve(undefined) });
    const response = await result.response();
    await result.settled();
    return { intercepted: result.intercepted, response };
  }

  return { self, network, fetchFn, cacheStorage, clients, dispatch, fetchEvent };
}

const nav = (path: string) => new NavigationRequest(new URL(path, ORIGIN));
const get = (path: string, init?: RequestInit) => new Request(new URL(path, ORIGIN), init);

describe("service worker (public/sw.js)", () => {
  let scope: ReturnType<typeof createScope>;

  beforeEach(async () => {
    scope = createScope();
    const install = scope.dispatch("install");
    await install.settled();
    scope.fetchFn.mockClear();
    scope.network.mockClear();
  });

  it("precaches the offline page, manifest and icons on install without skipping waiting", async () => {
    const urls = scope.cacheStorage.allUrls();
    for (const path of [
      "/offline.html",
      "/manifest.webmanifest",
      "/icons/icon.svg",
      "/icons/icon-192.png",
      "/icons/icon-512.png",
      "/icons/maskable-512.png",
      "/icons/apple-touch-icon.png",
    ]) {
      expect(urls).toContain(`${ORIGIN}${path}`);
    }
    expect(scope.self.skipWaiting).not.toHaveBeenCalled();
  });

  it("skips waiting only when asked via a SKIP_WAITING message", () => {
    scope.dispatch("message", { data: { type: "something-else" } });
    expect(scope.self.skipWaiting).not.toHaveBeenCalled();
    scope.dispatch("message", { data: { type: "SKIP_WAITING" } });
    expect(scope.self.skipWaiting).toHaveBeenCalledTimes(1);
  });

  it("deletes old caches and claims clients on activate", async () => {
    await scope.cacheStorage.open("nika-precache-v0");
    await scope.cacheStorage.open("nika-assets-v0");
    await scope.cacheStorage.open("unrelated");
    const before = await scope.cacheStorage.keys();
    await scope.dispatch("activate").settled();
    const after = await scope.cacheStorage.keys();
    expect(after).not.toContain("nika-precache-v0");
    expect(after).not.toContain("nika-assets-v0");
    expect(after).toContain("unrelated");
    expect(after.filter((name) => name.startsWith("nika-precache-"))).toHaveLength(1);
    expect(before.length).toBeGreaterThan(after.length);
    expect(scope.clients.claim).toHaveBeenCalledTimes(1);
  });

  it("serves navigations from the network (network-first)", async () => {
    const { intercepted, response } = await scope.fetchEvent(nav("/licoes/1"));
    expect(intercepted).toBe(true);
    expect(await response!.text()).toBe("network:/licoes/1");
  });

  it("falls back to /offline.html when a navigation fails", async () => {
    scope.network.mockRejectedValue(new TypeError("Failed to fetch"));
    const { intercepted, response } = await scope.fetchEvent(nav("/licoes/1"));
    expect(intercepted).toBe(true);
    expect(response!.status).toBe(200);
    expect(await response!.text()).toBe("network:/offline.html");
  });

  it("uses the navigation preload response when there is one", async () => {
    const preloaded = new Response("preloaded", { headers: { "Content-Type": "text/html" } });
    const result = scope.dispatch("fetch", { request: nav("/"), preloadResponse: Promise.resolve(preloaded) });
    expect(await (await result.response())!.text()).toBe("preloaded");
    expect(scope.fetchFn).not.toHaveBeenCalled();
  });

  it("never stores navigation (HTML) responses in any cache", async () => {
    const putSpies = await Promise.all(
      (await scope.cacheStorage.keys()).map(async (name) => vi.spyOn(await scope.cacheStorage.open(name), "put")),
    );
    const before = scope.cacheStorage.allUrls().sort();

    for (const path of ["/", "/dashboard", "/licoes/1?x=1", "/conta"]) {
      const { response } = await scope.fetchEvent(nav(path));
      expect(response!.status).toBe(200);
    }
    // Even a navigation to a precached path is not written back.
    await scope.fetchEvent(nav("/offline.html"));

    expect(scope.cacheStorage.allUrls().sort()).toEqual(before);
    for (const spy of putSpies) expect(spy).not.toHaveBeenCalled();
    expect(await scope.cacheStorage.keys()).toHaveLength(1); // only the precache exists
  });

  it("caches /assets/* on first fetch and serves it from cache afterwards", async () => {
    const first = await scope.fetchEvent(get("/assets/x.js"));
    expect(first.intercepted).toBe(true);
    expect(await first.response!.text()).toBe("network:/assets/x.js");
    expect(scope.fetchFn).toHaveBeenCalledTimes(1);
    expect(scope.cacheStorage.allUrls()).toContain(`${ORIGIN}/assets/x.js`);

    scope.network.mockRejectedValue(new TypeError("offline"));
    const second = await scope.fetchEvent(get("/assets/x.js"));
    expect(second.intercepted).toBe(true);
    expect(await second.response!.text()).toBe("network:/assets/x.js");
    expect(scope.fetchFn).toHaveBeenCalledTimes(1);
  });

  it("does not cache failed or HTML responses under /assets/", async () => {
    scope.network.mockResolvedValueOnce(new Response("missing", { status: 404 }));
    await scope.fetchEvent(get("/assets/missing.js"));
    scope.network.mockResolvedValueOnce(new Response("<p>hi</p>", { headers: { "Content-Type": "text/html" } }));
    await scope.fetchEvent(get("/assets/page.js"));
    expect(scope.cacheStorage.allUrls()).not.toContain(`${ORIGIN}/assets/missing.js`);
    expect(scope.cacheStorage.allUrls()).not.toContain(`${ORIGIN}/assets/page.js`);
  });

  it("serves precached files from the cache", async () => {
    scope.network.mockRejectedValue(new TypeError("offline"));
    const { intercepted, response } = await scope.fetchEvent(get("/manifest.webmanifest"));
    expect(intercepted).toBe(true);
    expect(await response!.text()).toBe("network:/manifest.webmanifest");
  });

  it("does not intercept non-GET requests", async () => {
    for (const method of ["POST", "PUT", "DELETE"]) {
      const { intercepted } = await scope.fetchEvent(get("/assets/x.js", { method, body: "a=1" }));
      expect(intercepted).toBe(false);
    }
    const postNav = new (class extends Request {
      override get mode(): RequestMode {
        return "navigate";
      }
    })(new URL("/login", ORIGIN), { method: "POST", body: "email=a" });
    expect((await scope.fetchEvent(postNav)).intercepted).toBe(false);
    expect(scope.fetchFn).not.toHaveBeenCalled();
  });

  it("does not intercept loader data, API or cross-origin requests", async () => {
    for (const url of [
      `${ORIGIN}/dashboard.data`,
      `${ORIGIN}/_root.data?_routes=root`,
      `${ORIGIN}/api/chat`,
      `${ORIGIN}/__manifest?p=%2Flicoes&version=abc`,
      `${ORIGIN}/licoes/1?_data=routes%2Flicoes`,
      "https://cdn.example.com/assets/x.js",
    ]) {
      const { intercepted } = await scope.fetchEvent(new Request(url));
      expect(intercepted, url).toBe(false);
    }
    expect(scope.cacheStorage.allUrls().some((url) => !url.startsWith(`${ORIGIN}/`))).toBe(false);
    expect(scope.fetchFn).not.toHaveBeenCalled();
  });
});
