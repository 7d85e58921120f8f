// The offline answer queue's sync: posts the current account's queued answers to /resources/offline/sync and
// drops only what the server acknowledged — accepted, accepted before (duplicate), or refused for good.
// `credits_exhausted` and `not_yours` stay queued: bought credits, or the right account signing in again,
// sync them later. Another account's answers are never read nor sent. Runs from the pages (on open and on
// `online`) and from the service worker's Background Sync; a lock (Web Locks, shared by the pages and the
// worker) keeps two runs from sending the same answers at once. No React: the service worker imports it.
import { accountQueue, currentAccount, dropQueued, type QueueItem } from "./db";
import { SYNC_MAX_ANSWERS, SYNC_MAX_BUNDLES, type SyncRequest, type SyncResponse } from "./types";

export const SYNC_PATH = "/resources/offline/sync";
/** Refusals that keep the answer queued. */
export const KEPT_REFUSALS: ReadonlySet<string> = new Set(["credits_exhausted", "not_yours"]);
const LOCK_NAME = "nika-offline-sync";

export type SyncOutcome = {
  /** Answers posted. */
  sent: number;
  /** Answers the server took now (not counting duplicates of earlier syncs). */
  accepted: number;
  /** Answers still queued for this account after the run. */
  kept: number;
};

/** The server answered something other than the sync's 200 (signed out, an error): nothing is dropped. */
export class SyncError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "SyncError";
  }
}

type Locks = { request: <T>(name: string, callback: () => Promise<T>) => Promise<T> };

let localRun: Promise<unknown> = Promise.resolve();

/** Runs `task` alone: across tabs and the worker with Web Locks, within this context otherwise. */
function exclusively<T>(task: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: Locks } | undefined)?.locks;
  if (locks) return locks.request(LOCK_NAME, task);
  const run = localRun.then(task, task);
  localRun = run.catch(() => {});
  return run;
}

/** The request body for a set of queued answers (in the order they were given). */
export function syncRequest(items: readonly QueueItem[]): SyncRequest {
  const ordered = [...items].sort((a, b) => a.answer.answeredAt.localeCompare(b.answer.answeredAt) || a.answer.position - b.answer.position);
  const bundles = new Map<string, { id: string; signature: string }>();
  const games = new Map<string, SyncRequest["games"][number]>();
  for (const item of ordered) {
    bundles.set(item.bundleRef.id, item.bundleRef);
    games.set(item.game.id, item.game);
  }
  return { bundles: [...bundles.values()], games: [...games.values()], answers: ordered.map((item) => item.answer) };
}

/**
 * The queue cut into requests the endpoint takes, in the order the answers were given: a batch ends at
 * SYNC_MAX_ANSWERS answers, or before the answer whose bundle would be its SYNC_MAX_BUNDLES + 1st. A queue of months
 * offline (more than 100 bundles) goes in several requests instead of being refused whole, again and again.
 */
export function syncBatches(items: readonly QueueItem[]): QueueItem[][] {
  const byKey = new Map(items.map((item) => [item.answer.key, item]));
  const batches: QueueItem[][] = [];
  let batch: QueueItem[] = [];
  let bundles = new Set<string>();
  for (const answer of syncRequest(items).answers) {
    const item = byKey.get(answer.key)!;
    const newBundle = !bundles.has(item.bundleRef.id);
    if (batch.length === SYNC_MAX_ANSWERS || (newBundle && bundles.size === SYNC_MAX_BUNDLES)) {
      batches.push(batch);
      batch = [];
      bundles = new Set();
    }
    batch.push(item);
    bundles.add(item.bundleRef.id);
  }
  if (batch.length) batches.push(batch);
  return batches;
}

/** The keys to drop: acknowledged ones among those sent (a refusal that keeps its answer is not one). */
export function acknowledged(sent: readonly QueueItem[], response: SyncResponse): string[] {
  const mine = new Set(sent.map((item) => item.answer.key));
  const keys = [...response.accepted, ...response.duplicate, ...response.refused.filter((r) => !KEPT_REFUSALS.has(r.code)).map((r) => r.key)];
  return [...new Set(keys)].filter((key) => mine.has(key));
}

export function syncQueue(fetchImpl: typeof fetch = fetch): Promise<SyncOutcome> {
  return exclusively(async () => {
    const userId = await currentAccount();
    if (!userId) return { sent: 0, accepted: 0, kept: 0 };
    const queue = await accountQueue(userId);
    let sent = 0;
    let accepted = 0;
    let dropped = 0;
    for (const batch of syncBatches(queue)) {
      const response = await fetchImpl(SYNC_PATH, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(syncRequest(batch)),
      });
      if (!response.ok) throw new SyncError(`A sincronização foi recusada (${response.status}).`, response.status);
      const body = (await response.json()) as SyncResponse;
      sent += batch.length;
      accepted += body.accepted.length;
      const drop = acknowledged(batch, body);
      await dropQueued(drop);
      dropped += drop.length;
    }
    return { sent, accepted, kept: queue.length - dropped };
  });
}

/** How many answers of the current account wait to be synced. */
export async function pendingCount(): Promise<number> {
  const userId = await currentAccount();
  return userId ? (await accountQueue(userId)).length : 0;
}
