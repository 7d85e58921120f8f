// Spec §9 "image preloader after login": 1 s after the first signed-in page, warm the pictures (and core
// sounds) the learner is about to need — 4 at once, 15 s timeout, 2 retries — once per browser session,
// and never on a connection that asks to save data. The list (flashcard tiles, core assets, module images)
// comes from /resources/preload, asked for only then: no signed-in page pays for it.
import { AFTER_SIGN_IN_DELAY_MS, AFTER_SIGN_IN_PRELOAD, assetKind, preloadAssets, type PreloadRun } from "~/lib/preload";

/** sessionStorage key: set once this session's preloading has started. */
export const PRELOADED_KEY = "nika:preloaded";

export type PreloadEnvironment = {
  /** navigator.connection?.saveData */
  saveData: boolean;
  storage: Pick<Storage, "getItem" | "setItem"> | null;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  preload?: typeof preloadAssets;
};

/** Where the browser asks for the list of what to warm. */
export const PRELOAD_LIST_PATH = "/resources/preload";

/** Schedules the preloading; returns what stops it (the timer, the list request's outcome, or the run). */
export function scheduleAfterSignInPreload(loadUrls: () => Promise<readonly string[]>, env: PreloadEnvironment): () => void {
  if (env.saveData) return () => {};
  try {
    if (env.storage?.getItem(PRELOADED_KEY)) return () => {};
  } catch {
    // storage refused (private mode): preload anyway
  }
  let run: PreloadRun | null = null;
  let stopped = false;
  const timer = env.setTimeout(() => {
    try {
      env.storage?.setItem(PRELOADED_KEY, "1");
    } catch {
      // not remembered: the next page load tries again
    }
    loadUrls().then(
      (urls) => {
        if (stopped || urls.length === 0) return;
        run = (env.preload ?? preloadAssets)(
          urls.map((url) => ({ url, kind: assetKind(url) })),
          AFTER_SIGN_IN_PRELOAD,
        );
      },
      () => {}, // no list (offline, signed out meanwhile): nothing to warm
    );
  }, AFTER_SIGN_IN_DELAY_MS);
  return () => {
    stopped = true;
    env.clearTimeout(timer);
    run?.cancel();
  };
}

/** The list from the server (the browser's fetch; an error answer is an empty list). */
export async function fetchPreloadList(): Promise<string[]> {
  const response = await fetch(PRELOAD_LIST_PATH, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!response.ok) return [];
  const body = (await response.json()) as { urls?: unknown };
  return Array.isArray(body.urls) ? body.urls.filter((url): url is string => typeof url === "string") : [];
}

/** The browser's side of the environment (call only in an effect). */
export function browserPreloadEnvironment(): PreloadEnvironment {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  let storage: Storage | null = null;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = null;
  }
  return {
    saveData: Boolean(connection?.saveData),
    storage,
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
  };
}
