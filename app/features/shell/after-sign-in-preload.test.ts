import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { preloadAssets } from "~/lib/preload";
import { PRELOADED_KEY, scheduleAfterSignInPreload, type PreloadEnvironment } from "./after-sign-in-preload";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function env(overrides: Partial<PreloadEnvironment> = {}) {
  const stored = new Map<string, string>();
  const cancel = vi.fn();
  const preload = vi.fn<typeof preloadAssets>(() => ({
    critical: Promise.resolve(true),
    finished: Promise.resolve({ loaded: [], failed: [] }),
    cancel,
  }));
  const environment: PreloadEnvironment = {
    saveData: false,
    storage: { getItem: (key) => stored.get(key) ?? null, setItem: (key, value) => void stored.set(key, value) },
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    preload,
    ...overrides,
  };
  return { environment, stored, preload, cancel };
}

const URLS = ["/content/flashcards/category-animais.1.svg", "/content/flashcards/sound-correct.2.mp3"];

describe("the preloader after sign-in (spec §9)", () => {
  it("starts 1 s after the first signed-in page with 4 at once, 15 s timeout and 2 retries", () => {
    const { environment, preload, stored } = env();
    scheduleAfterSignInPreload(URLS, environment);
    vi.advanceTimersByTime(999);
    expect(preload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(preload).toHaveBeenCalledTimes(1);
    const [assets, settings] = preload.mock.calls[0]!;
    expect(assets).toEqual([
      { url: URLS[0], kind: "image" },
      { url: URLS[1], kind: "audio" },
    ]);
    expect(settings).toMatchObject({ concurrency: 4, timeoutMs: { image: 15_000, audio: 15_000 }, retries: { other: 2 } });
    expect(stored.get(PRELOADED_KEY)).toBe("1");
  });

  it("runs once per session", () => {
    const first = env();
    first.stored.set(PRELOADED_KEY, "1");
    scheduleAfterSignInPreload(URLS, first.environment);
    vi.advanceTimersByTime(5000);
    expect(first.preload).not.toHaveBeenCalled();
  });

  it("spares connections that ask to save data", () => {
    const { environment, preload } = env({ saveData: true });
    scheduleAfterSignInPreload(URLS, environment);
    vi.advanceTimersByTime(5000);
    expect(preload).not.toHaveBeenCalled();
  });

  it("preloads even when sessionStorage refuses (it only cannot remember)", () => {
    const { environment, preload } = env({
      storage: {
        getItem: () => {
          throw new Error("denied");
        },
        setItem: () => {
          throw new Error("denied");
        },
      },
    });
    scheduleAfterSignInPreload(URLS, environment);
    vi.advanceTimersByTime(1000);
    expect(preload).toHaveBeenCalledTimes(1);
  });

  it("stopping before the second is up cancels the timer; after, the run", () => {
    const early = env();
    scheduleAfterSignInPreload(URLS, early.environment)();
    vi.advanceTimersByTime(5000);
    expect(early.preload).not.toHaveBeenCalled();
    expect(early.stored.has(PRELOADED_KEY)).toBe(false);

    const late = env();
    const stop = scheduleAfterSignInPreload(URLS, late.environment);
    vi.advanceTimersByTime(1000);
    stop();
    expect(late.cancel).toHaveBeenCalledTimes(1);
  });

  it("does nothing without URLs", () => {
    const { environment, preload } = env();
    scheduleAfterSignInPreload([], environment);
    vi.advanceTimersByTime(5000);
    expect(preload).not.toHaveBeenCalled();
  });
});
