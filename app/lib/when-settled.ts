// Work a page can put off: run it once the page is past its first moments and the browser is idle, so it
// never competes with the page's own loading and first interactions for the main thread.

/** A page's first moments: deferred work waits until this long after the navigation started. */
export const SETTLE_DELAY_MS = 2000;

type IdleWindow = Window & {
  requestIdleCallback?: (fn: () => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
};

/** Runs `task` once the page has been up SETTLE_DELAY_MS and the browser is idle; returns what cancels it. Call in an effect. */
export function whenSettled(task: () => void): () => void {
  const w = window as IdleWindow;
  let idle: number | null = null;
  const timer = window.setTimeout(
    () => {
      if (w.requestIdleCallback) idle = w.requestIdleCallback(task, { timeout: 5000 });
      else task();
    },
    Math.max(0, SETTLE_DELAY_MS - performance.now()),
  );
  return () => {
    window.clearTimeout(timer);
    if (idle !== null) w.cancelIdleCallback?.(idle);
  };
}
