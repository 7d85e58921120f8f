// The browser's offline store (IndexedDB `nika-offline`, through idb): the downloaded bundles, the queue of
// answers given offline, and the account marker — the learner signed in on this browser, written on every
// signed-in page load and cleared on the sign-in page. Every row carries its learner's id: the player and
// the sync touch only the current account's rows, so nothing queued for another account is lost or sent as
// someone else. No React: the service worker's sync reads it too.
import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import type { OfflineBundle, QueuedAnswer, QueuedGame } from "./types";

export const OFFLINE_DB = "nika-offline";
/** Cache Storage of the bundles' pictures and sounds (not user-specific: shared media URLs). */
export const MEDIA_CACHE = "nika-offline-media";
/** Background Sync tag the pages register when they queue an answer (the service worker syncs on it). */
export const SYNC_TAG = "nika-offline-sync";

export type StoredBundle = {
  bundle: OfflineBundle;
  userId: string;
  savedAt: string;
  /** JSON + media bytes actually stored. */
  bytes: number;
};

export type QueueItem = {
  userId: string;
  answer: QueuedAnswer;
  game: QueuedGame;
  bundleRef: { id: string; signature: string };
};

interface OfflineSchema extends DBSchema {
  bundles: { key: string; value: StoredBundle; indexes: { userId: string } };
  queue: { key: string; value: QueueItem; indexes: { userId: string } };
  meta: { key: string; value: string };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

let opening: Promise<OfflineDb> | null = null;

export function offlineDb(): Promise<OfflineDb> {
  opening ??= openDB<OfflineSchema>(OFFLINE_DB, 1, {
    upgrade(db) {
      db.createObjectStore("bundles").createIndex("userId", "userId");
      db.createObjectStore("queue").createIndex("userId", "userId");
      db.createObjectStore("meta");
    },
    // another tab upgrading (a later version): let it, open again next time
    blocking() {
      void opening?.then((db) => db.close());
      opening = null;
    },
  }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

// ——— the account marker ———

export async function currentAccount(): Promise<string | null> {
  return (await (await offlineDb()).get("meta", "account")) ?? null;
}

export async function setCurrentAccount(userId: string) {
  const db = await offlineDb();
  if ((await db.get("meta", "account")) !== userId) await db.put("meta", userId, "account");
}

export async function clearCurrentAccount() {
  await (await offlineDb()).delete("meta", "account");
}

// ——— bundles ———

export async function accountBundles(userId: string): Promise<StoredBundle[]> {
  const rows = await (await offlineDb()).getAllFromIndex("bundles", "userId", userId);
  return rows.sort((a, b) => a.bundle.title.localeCompare(b.bundle.title, "pt-BR"));
}

export async function accountBundle(userId: string, bundleId: string): Promise<StoredBundle | null> {
  const row = await (await offlineDb()).get("bundles", bundleId);
  return row && row.userId === userId ? row : null;
}

export async function putBundle(row: StoredBundle) {
  await (await offlineDb()).put("bundles", row, row.bundle.id);
}

export async function deleteBundle(bundleId: string) {
  await (await offlineDb()).delete("bundles", bundleId);
}

/** Every media URL some stored bundle (of any account) still needs. */
export async function mediaInUse(): Promise<Set<string>> {
  const rows = await (await offlineDb()).getAll("bundles");
  return new Set(rows.flatMap((row) => row.bundle.media));
}

// ——— the queue ———

export async function enqueue(items: QueueItem[]) {
  const db = await offlineDb();
  const tx = db.transaction("queue", "readwrite");
  await Promise.all([...items.map((item) => tx.store.put(item, item.answer.key)), tx.done]);
}

export async function accountQueue(userId: string): Promise<QueueItem[]> {
  return (await offlineDb()).getAllFromIndex("queue", "userId", userId);
}

export async function dropQueued(keys: readonly string[]) {
  if (keys.length === 0) return;
  const db = await offlineDb();
  const tx = db.transaction("queue", "readwrite");
  await Promise.all([...keys.map((key) => tx.store.delete(key)), tx.done]);
}
