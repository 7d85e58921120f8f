// Preloading pictures and sounds before they are needed (spec §9 "Preloading"): a queue with a
// concurrency limit, critical assets first, a timeout per kind, and retries after a delay that grows
// 1.5× up to a cap. Used by the flashcard game (the first card, the feedback sounds and the tier
// pictures gate the start) and by the signed-in shell's image preloader after sign-in.
// SSR-safe: browser globals are reached only when an asset is loaded.

export type AssetKind = "image" | "audio";
export type PreloadAsset = { url: string; kind: AssetKind; critical?: boolean };

export type PreloadSettings = {
  /** Assets loading at once. */
  concurrency: number;
  /** Attempts after the first one. */
  retries: { critical: number; other: number };
  timeoutMs: Record<AssetKind, number>;
  /** The wait before retry n is initialMs × factor^(n-1), at most maxMs. */
  retryDelay: { initialMs: number; factor: number; maxMs: number };
};

const RETRY_DELAY = { initialMs: 500, factor: 1.5, maxMs: 8000 };

/** Spec §9: a game's pictures and sounds. */
export const GAME_PRELOAD: PreloadSettings = {
  concurrency: 6,
  retries: { critical: 5, other: 2 },
  timeoutMs: { image: 6000, audio: 8000 },
  retryDelay: RETRY_DELAY,
};

/** Spec §9: the image preloader after sign-in (nothing there is critical). */
export const AFTER_SIGN_IN_PRELOAD: PreloadSettings = {
  concurrency: 4,
  retries: { critical: 2, other: 2 },
  timeoutMs: { image: 15_000, audio: 15_000 },
  retryDelay: RETRY_DELAY,
};

/** Spec §9: the preloader after sign-in starts this long after the first signed-in page. */
export const AFTER_SIGN_IN_DELAY_MS = 1000;

/** The wait before retry `n` (1 = the first retry). */
export function retryDelayMs(n: number, { initialMs, factor, maxMs }: PreloadSettings["retryDelay"]): number {
  return Math.min(initialMs * factor ** Math.max(0, n - 1), maxMs);
}

/** Loads one asset; rejects on failure. `signal` aborts it (timeout or cancel). */
export type AssetLoader = (asset: PreloadAsset, signal: AbortSignal) => Promise<void>;

export type PreloadProgress = { done: number; total: number; criticalDone: number; criticalTotal: number };

export type PreloadResult = { loaded: string[]; failed: string[] };

export type PreloadRun = {
  /** True once every critical asset has loaded (at once when there are none); false as soon as one has failed for good. */
  critical: Promise<boolean>;
  /** Every asset settled (or the run was cancelled). */
  finished: Promise<PreloadResult>;
  /** Stops waiting, aborts what is loading; `finished` resolves with what was done. */
  cancel(): void;
};

type Timers = { setTimeout: (fn: () => void, ms: number) => unknown; clearTimeout: (handle: unknown) => void };

export type PreloadOptions = {
  load?: AssetLoader;
  onProgress?: (progress: PreloadProgress) => void;
  timers?: Timers;
};

const defaultTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** One list per URL (a critical mention wins), critical assets first, otherwise in the given order. */
export function preloadQueue(assets: readonly PreloadAsset[]): PreloadAsset[] {
  const byUrl = new Map<string, PreloadAsset>();
  for (const asset of assets) {
    if (!asset.url) continue;
    const known = byUrl.get(asset.url);
    if (!known) byUrl.set(asset.url, { ...asset, critical: Boolean(asset.critical) });
    else if (asset.critical) known.critical = true;
  }
  const all = [...byUrl.values()];
  return [...all.filter((asset) => asset.critical), ...all.filter((asset) => !asset.critical)];
}

class Cancelled extends Error {}

export function preloadAssets(assets: readonly PreloadAsset[], settings: PreloadSettings, options: PreloadOptions = {}): PreloadRun {
  const load = options.load ?? loadInBrowser;
  const timers = options.timers ?? defaultTimers;
  const queue = preloadQueue(assets);
  const total = queue.length;
  const criticalTotal = queue.filter((asset) => asset.critical).length;
  const loaded: string[] = [];
  const failed: string[] = [];
  let criticalDone = 0;
  let cancelled = false;
  const pending = new Set<{ handle: unknown; controller?: AbortController; reject: (error: unknown) => void }>();

  let settleCritical!: (ok: boolean) => void;
  const critical = new Promise<boolean>((resolve) => (settleCritical = resolve));
  if (criticalTotal === 0) settleCritical(true);

  const report = () => options.onProgress?.({ done: loaded.length + failed.length, total, criticalDone, criticalTotal });

  /** Waits `ms`, or rejects when cancelled. */
  const wait = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      const entry = {
        handle: timers.setTimeout(() => {
          pending.delete(entry);
          resolve();
        }, ms),
        reject,
      };
      pending.add(entry);
    });

  /** One attempt, aborted after the kind's timeout. */
  function attempt(asset: PreloadAsset): Promise<void> {
    const controller = new AbortController();
    return new Promise<void>((resolve, reject) => {
      const entry = {
        controller,
        reject,
        handle: timers.setTimeout(() => {
          pending.delete(entry);
          controller.abort();
          reject(new Error(`timeout: ${asset.url}`));
        }, settings.timeoutMs[asset.kind]),
      };
      pending.add(entry);
      let loading: Promise<void>;
      try {
        loading = load(asset, controller.signal);
      } catch (error) {
        loading = Promise.reject(error);
      }
      loading.then(
        () => {
          timers.clearTimeout(entry.handle);
          pending.delete(entry);
          resolve();
        },
        (error: unknown) => {
          timers.clearTimeout(entry.handle);
          pending.delete(entry);
          reject(error);
        },
      );
    });
  }

  async function fetchOne(asset: PreloadAsset) {
    const retries = asset.critical ? settings.retries.critical : settings.retries.other;
    for (let n = 0; ; n++) {
      try {
        await attempt(asset);
        return true;
      } catch (error) {
        if (cancelled || error instanceof Cancelled) throw new Cancelled();
        if (n >= retries) return false;
        await wait(retryDelayMs(n + 1, settings.retryDelay));
      }
    }
  }

  let next = 0;
  async function worker() {
    while (!cancelled && next < queue.length) {
      const asset = queue[next++]!;
      const ok = await fetchOne(asset);
      (ok ? loaded : failed).push(asset.url);
      if (asset.critical) {
        if (!ok) settleCritical(false);
        else if (++criticalDone === criticalTotal) settleCritical(true);
      }
      report();
    }
  }

  const workers = Array.from({ length: Math.max(1, Math.min(settings.concurrency, queue.length)) }, () =>
    worker().catch((error: unknown) => {
      if (!(error instanceof Cancelled)) throw error;
    }),
  );
  const finished = Promise.all(workers).then(() => ({ loaded: [...loaded], failed: [...failed] }));
  report();

  return {
    critical,
    finished,
    cancel() {
      if (cancelled) return;
      cancelled = true;
      for (const entry of [...pending]) {
        timers.clearTimeout(entry.handle);
        entry.controller?.abort();
        entry.reject(new Cancelled());
      }
      pending.clear();
      settleCritical(false);
    },
  };
}

/**
 * The browser's loader: a picture through an Image (decoded, in the image cache), a sound fetched
 * whole (in the HTTP cache; the shipped files are immutable, so the player gets them from there).
 */
export const loadInBrowser: AssetLoader = (asset, signal) => {
  if (asset.kind === "audio") {
    return fetch(asset.url, { signal, credentials: "same-origin" }).then(async (response) => {
      if (!response.ok) throw new Error(`${response.status}: ${asset.url}`);
      await response.arrayBuffer();
    });
  }
  return new Promise<void>((resolve, reject) => {
    const image = new Image();
    const done = (ok: boolean) => {
      image.onload = image.onerror = null;
      signal.removeEventListener("abort", abort);
      if (ok) resolve();
      else reject(new Error(`image: ${asset.url}`));
    };
    const abort = () => {
      image.src = "";
      done(false);
    };
    image.onload = () => done(true);
    image.onerror = () => done(false);
    signal.addEventListener("abort", abort, { once: true });
    image.decoding = "async";
    image.src = asset.url;
  });
};

/** An asset's kind from its URL (sounds are .mp3/.ogg/.wav/.m4a/.webm/.opus; everything else is a picture). */
export const assetKind = (url: string): AssetKind => (/\.(mp3|ogg|oga|wav|m4a|aac|webm|opus)(\?|#|$)/i.test(url) ? "audio" : "image");
