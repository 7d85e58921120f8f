import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AFTER_SIGN_IN_DELAY_MS,
  AFTER_SIGN_IN_PRELOAD,
  assetKind,
  GAME_PRELOAD,
  preloadAssets,
  preloadQueue,
  retryDelayMs,
  type AssetLoader,
  type PreloadAsset,
  type PreloadProgress,
} from "./preload";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A loader whose every attempt the test settles by hand. */
function manualLoader() {
  const attempts: { url: string; signal: AbortSignal; resolve: () => void; reject: (error: Error) => void }[] = [];
  const load: AssetLoader = (asset, signal) =>
    new Promise<void>((resolve, reject) => {
      attempts.push({ url: asset.url, signal, resolve, reject });
    });
  const open = () => attempts.filter((a) => !a.signal.aborted && !settled.has(a));
  const settled = new Set<object>();
  const settle = (url: string, ok: boolean) => {
    const attempt = open().find((a) => a.url === url);
    if (!attempt) throw new Error(`no open attempt for ${url}`);
    settled.add(attempt);
    if (ok) attempt.resolve();
    else attempt.reject(new Error("boom"));
  };
  return { load, attempts, open, settle, tries: (url: string) => attempts.filter((a) => a.url === url).length };
}

const image = (url: string, critical = false): PreloadAsset => ({ url, kind: "image", critical });
const audio = (url: string, critical = false): PreloadAsset => ({ url, kind: "audio", critical });
const flush = () => vi.advanceTimersByTimeAsync(0);

describe("settings (spec §9)", () => {
  it("a game loads 6 at once, retries critical assets 5 times and others 2, images time out at 6 s and sounds at 8 s", () => {
    expect(GAME_PRELOAD).toEqual({
      concurrency: 6,
      retries: { critical: 5, other: 2 },
      timeoutMs: { image: 6000, audio: 8000 },
      retryDelay: { initialMs: 500, factor: 1.5, maxMs: 8000 },
    });
  });

  it("after sign-in: 4 at once, 15 s timeout, 2 retries, 1 s after the first page", () => {
    expect(AFTER_SIGN_IN_PRELOAD).toMatchObject({
      concurrency: 4,
      retries: { critical: 2, other: 2 },
      timeoutMs: { image: 15_000, audio: 15_000 },
    });
    expect(AFTER_SIGN_IN_DELAY_MS).toBe(1000);
  });

  it("the retry delay starts at 500 ms and grows 1.5× up to 8 s", () => {
    const delays = Array.from({ length: 10 }, (_, i) => retryDelayMs(i + 1, GAME_PRELOAD.retryDelay));
    expect(delays.slice(0, 5)).toEqual([500, 750, 1125, 1687.5, 2531.25]);
    expect(delays.at(-1)).toBe(8000);
    expect(Math.max(...delays)).toBe(8000);
  });

  it("tells sounds from pictures by the file's extension", () => {
    expect(assetKind("/content/flashcards/word.abc.mp3")).toBe("audio");
    expect(assetKind("/media/x/y.ogg?v=1")).toBe("audio");
    expect(assetKind("/content/flashcards/card.abc.svg")).toBe("image");
    expect(assetKind("/media/modules/a.webp")).toBe("image");
  });
});

describe("the queue", () => {
  it("keeps one entry per URL (critical if any mention is) and puts critical assets first", () => {
    const queue = preloadQueue([image("a"), audio("b"), image("c", true), image("a", true), audio("b"), image("")]);
    expect(queue.map((asset) => [asset.url, asset.critical])).toEqual([
      ["a", true],
      ["c", true],
      ["b", false],
    ]);
  });
});

describe("preloadAssets", () => {
  it("never has more than `concurrency` loads in flight, and starts the next as one ends", async () => {
    const loader = manualLoader();
    const assets = Array.from({ length: 10 }, (_, i) => image(`/img/${i}.svg`));
    const run = preloadAssets(assets, GAME_PRELOAD, { load: loader.load });
    await flush();
    expect(loader.open().map((a) => a.url)).toEqual(assets.slice(0, 6).map((a) => a.url));
    loader.settle("/img/2.svg", true);
    await flush();
    expect(loader.open()).toHaveLength(6);
    expect(loader.open().at(-1)!.url).toBe("/img/6.svg");
    for (let i = 0; i < 10; i++) {
      if (i === 2) continue;
      loader.settle(`/img/${i}.svg`, true);
      await flush();
    }
    await expect(run.finished).resolves.toEqual({ loaded: expect.arrayContaining(assets.map((a) => a.url)), failed: [] });
  });

  it("loads critical assets first and reports progress of both the whole and the critical part", async () => {
    const loader = manualLoader();
    const progress: PreloadProgress[] = [];
    const run = preloadAssets(
      [image("x"), image("y"), audio("c1", true), image("c2", true)],
      { ...GAME_PRELOAD, concurrency: 1 },
      {
        load: loader.load,
        onProgress: (p) => progress.push(p),
      },
    );
    let criticalReady: boolean | undefined;
    void run.critical.then((ok) => (criticalReady = ok));
    await flush();
    expect(loader.open().map((a) => a.url)).toEqual(["c1"]);
    loader.settle("c1", true);
    await flush();
    expect(loader.open().map((a) => a.url)).toEqual(["c2"]);
    expect(criticalReady).toBeUndefined();
    loader.settle("c2", true);
    await flush();
    expect(criticalReady).toBe(true);
    loader.settle("x", true);
    await flush();
    loader.settle("y", true);
    await run.finished;
    expect(progress[0]).toEqual({ done: 0, total: 4, criticalDone: 0, criticalTotal: 2 });
    expect(progress.at(-1)).toEqual({ done: 4, total: 4, criticalDone: 2, criticalTotal: 2 });
  });

  it("is ready at once when nothing is critical", async () => {
    const run = preloadAssets([], GAME_PRELOAD, { load: manualLoader().load });
    await expect(run.critical).resolves.toBe(true);
    await expect(run.finished).resolves.toEqual({ loaded: [], failed: [] });
  });

  it("retries a failed asset after 500 ms, then 750 ms, and succeeds", async () => {
    const loader = manualLoader();
    const run = preloadAssets([image("p", true)], GAME_PRELOAD, { load: loader.load });
    await flush();
    loader.settle("p", false);
    await vi.advanceTimersByTimeAsync(499);
    expect(loader.tries("p")).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(loader.tries("p")).toBe(2);
    loader.settle("p", false);
    await vi.advanceTimersByTimeAsync(749);
    expect(loader.tries("p")).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(loader.tries("p")).toBe(3);
    loader.settle("p", true);
    await expect(run.critical).resolves.toBe(true);
    await expect(run.finished).resolves.toEqual({ loaded: ["p"], failed: [] });
  });

  it("gives a critical asset 1 + 5 attempts and then fails the critical part; others get 1 + 2", async () => {
    const load = vi.fn<AssetLoader>(async () => {
      throw new Error("offline");
    });
    const run = preloadAssets([image("first", true), audio("later")], GAME_PRELOAD, { load });
    let criticalReady: boolean | undefined;
    void run.critical.then((ok) => (criticalReady = ok));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(criticalReady).toBe(false);
    const tries = (url: string) => load.mock.calls.filter(([asset]) => asset.url === url).length;
    expect(tries("first")).toBe(6);
    expect(tries("later")).toBe(3);
    await expect(run.finished).resolves.toEqual({ loaded: [], failed: expect.arrayContaining(["first", "later"]) });
  });

  it("waits 500, 750, 1125, 1687.5 and 2531.25 ms between the attempts of a critical asset", async () => {
    const times: number[] = [];
    const load: AssetLoader = async () => {
      times.push(Date.now());
      throw new Error("offline");
    };
    const start = Date.now();
    const run = preloadAssets([audio("s", true)], GAME_PRELOAD, { load });
    await vi.advanceTimersByTimeAsync(20_000);
    await run.finished;
    const gaps = times.map((t, i) => t - (i === 0 ? start : times[i - 1]!));
    expect(gaps).toHaveLength(6);
    [0, 500, 750, 1125, 1687.5, 2531.25].forEach((expected, i) => expect(Math.abs(gaps[i]! - expected)).toBeLessThanOrEqual(1));
  });

  it("aborts an attempt after the kind's timeout (image 6 s, audio 8 s) and tries again", async () => {
    const loader = manualLoader();
    preloadAssets([image("slow.svg"), audio("slow.mp3")], GAME_PRELOAD, { load: loader.load });
    await flush();
    const [img, snd] = loader.attempts;
    await vi.advanceTimersByTimeAsync(5999);
    expect(img!.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(img!.signal.aborted).toBe(true);
    expect(snd!.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(500);
    expect(loader.tries("slow.svg")).toBe(2);
    await vi.advanceTimersByTimeAsync(1500);
    expect(snd!.signal.aborted).toBe(true);
  });

  it("a loader that throws at once counts as a failed attempt", async () => {
    const load: AssetLoader = () => {
      throw new Error("no Image here");
    };
    const run = preloadAssets([image("x")], { ...GAME_PRELOAD, retries: { critical: 0, other: 0 } }, { load });
    await expect(run.finished).resolves.toEqual({ loaded: [], failed: ["x"] });
  });

  it("cancel() aborts what is loading, stops retrying and settles both promises", async () => {
    const loader = manualLoader();
    const run = preloadAssets([image("a", true), image("b"), image("c")], { ...GAME_PRELOAD, concurrency: 2 }, { load: loader.load });
    await flush();
    loader.settle("b", false); // b now waits for its retry
    await flush();
    run.cancel();
    await expect(run.critical).resolves.toBe(false);
    await expect(run.finished).resolves.toEqual({ loaded: [], failed: [] });
    expect(loader.attempts.every((a) => a.signal.aborted || a.url === "b")).toBe(true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(loader.attempts).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});
