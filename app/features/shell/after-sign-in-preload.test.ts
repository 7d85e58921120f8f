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
/** The list as /resources/preload would answer it (asked for only when the second is up). */
const list = (urls: readonly string[] = URLS) => vi.fn(() => Promise.resolve(urls));

describe("the preloader after sign-in (spec §9)", async () => {
  it("starts 1 s after the first signed-in page with 4 at once, 15 s timeout and 2 retries", async () => {
    const { environment, preload, stored } = env();
    const loadList = list();
    scheduleAfterSignInPreload(loadList, environment);
    await vi.advanceTimersByTimeAsync(999);
    expect(preload).not.toHaveBeenCalled();
    expect(loadList, "the list is asked for only when the second is up").not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(preload).toHaveBeenCalledTimes(1);
    const [assets, settings] = preload.mock.calls[0]!;
    expect(assets).toEqual([
      { url: URLS[0], kind: "image" },
      { url: URLS[1], kind: "audio" },
    ]);
    expect(settings).toMatchObject({ concurrency: 4, timeoutMs: { image: 15_000, audio: 15_000 }, retries: { other: 2 } });
    expect(stored.get(PRELOADED_KEY)).toBe("1");
  });

  it("runs once per session", async () => {
    const first = env();
    first.stored.set(PRELOADED_KEY, "1");
    scheduleAfterSignInPreload(list(), first.environment);
    await vi.advanceTimersByTimeAsync(5000);
    expect(first.preload).not.toHaveBeenCalled();
  });

  it("spares connections that ask to save data", async () => {
    const { environment, preload } = env({ saveData: true });
    scheduleAfterSignInPreload(list(), environment);
    await vi.advanceTimersByTimeAsync(5000);
    expect(preload).not.toHaveBeenCalled();
  });

  it("preloads even when sessionStorage refuses (it only cannot remember)", async () => {
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
    scheduleAfterSignInPreload(list(), environment);
    await vi.advanceTimersByTimeAsync(1000);
    expect(preload).toHaveBeenCalledTimes(1);
  });

  it("stopping before the second is up cancels the timer; after, the run", async () => {
    const early = env();
    scheduleAfterSignInPreload(list(), early.environment)();
    await vi.advanceTimersByTimeAsync(5000);
    expect(early.preload).not.toHaveBeenCalled();
    expect(early.stored.has(PRELOADED_KEY)).toBe(false);

    const late = env();
    const stop = scheduleAfterSignInPreload(list(), late.environment);
    await vi.advanceTimersByTimeAsync(1000);
    stop();
    expect(late.cancel).toHaveBeenCalledTimes(1);
  });

  it("does nothing without URLs", async () => {
    const { environment, preload } = env();
    scheduleAfterSignInPreload(list([]), environment);
    await vi.advanceTimersByTimeAsync(5000);
    expect(preload).not.toHaveBeenCalled();
  });

  it("a failed list warms nothing and throws nothing; stopping while the list is on its way starts nothing", async () => {
    const failing = env();
    scheduleAfterSignInPreload(() => Promise.reject(new Error("offline")), failing.environment);
    await vi.advanceTimersByTimeAsync(1000);
    expect(failing.preload).not.toHaveBeenCalled();

    const slow = env();
    let answer: (urls: string[]) => void = () => {};
    const stop = scheduleAfterSignInPreload(() => new Promise((resolve) => (answer = resolve)), slow.environment);
    await vi.advanceTimersByTimeAsync(1000);
    stop();
    answer(URLS);
    await vi.advanceTimersByTimeAsync(0);
    expect(slow.preload).not.toHaveBeenCalled();
  });
});
