// The account marker (meta `account` in IndexedDB): which learner this browser is signed in as, so the
// offline player and the sync — which run with no server to ask — touch only that learner's bundles and
// answers. Written on every signed-in page load, cleared on the sign-in page. Cheap and late: the write
// waits until the page has been up for a while and the browser is idle, and the IndexedDB code is loaded
// only then (it is not in the page's own script).

/** The marker is never written in a page's first moments (its main thread belongs to the page). */
export const MARKER_DELAY_MS = 2000;

type IdleWindow = Window & {
  requestIdleCallback?: (fn: () => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
};

/** Runs `task` once the page is past its first moments and idle; returns what cancels it. */
function later(task: () => void): () => void {
  if (typeof indexedDB === "undefined") return () => {};
  const w = window as IdleWindow;
  let idle: number | null = null;
  const timer = window.setTimeout(
    () => {
      if (w.requestIdleCallback) idle = w.requestIdleCallback(task, { timeout: 5000 });
      else task();
    },
    Math.max(0, MARKER_DELAY_MS - performance.now()),
  );
  return () => {
    window.clearTimeout(timer);
    if (idle !== null) w.cancelIdleCallback?.(idle);
  };
}

const ignore = () => {}; // storage refused (private mode, quota): offline practice is unavailable, the page is not

/** On a signed-in page: this browser is `userId`'s now. */
export const markAccount = (userId: string) => later(() => void import("./db").then((db) => db.setCurrentAccount(userId)).catch(ignore));

/** On the sign-in page: nobody is signed in (queued answers stay, tagged with their learner). */
export const unmarkAccount = () => later(() => void import("./db").then((db) => db.clearCurrentAccount()).catch(ignore));
