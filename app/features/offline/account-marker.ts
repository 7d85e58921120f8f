// The account marker (meta `account` in IndexedDB): which learner this browser is signed in as, so the
// offline player and the sync — which run with no server to ask — touch only that learner's bundles and
// answers. Signed-in pages write it and sync the queue (the app opened) and again whenever the connection
// comes back; the sign-in page clears it. Pages import this feature only once they have settled
// (`whenSettled`), so none of it is in their first-load script nor runs in their first moments.
import { clearCurrentAccount, setCurrentAccount } from "./db";
import { syncQueue } from "./sync";

const ignore = () => {}; // storage refused (private mode, quota) or offline: offline practice waits, the page does not

const syncQuietly = () => void syncQueue().catch(ignore);

/** On a signed-in page: this browser is `userId`'s now; its queued answers go when online. Returns what stops listening. */
export function markAccount(userId: string): () => void {
  if (typeof indexedDB === "undefined") return () => {};
  void setCurrentAccount(userId).then(() => navigator.onLine && syncQuietly(), ignore);
  window.addEventListener("online", syncQuietly);
  return () => window.removeEventListener("online", syncQuietly);
}

/** On the sign-in page: nobody is signed in (queued answers stay on the device, tagged with their learner). */
export function unmarkAccount() {
  if (typeof indexedDB !== "undefined") void clearCurrentAccount().catch(ignore);
}
