// Offline practice's public face for other features (decision 0010). Every page but the offline player
// imports it dynamically (`import("~/features/offline")`), after hydration: the shell for the account
// marker, the sign-in page to clear it, the picker for the download panel. So no page's first-load script
// carries IndexedDB code.
export { markAccount, unmarkAccount } from "./account-marker";
export { accountBundles, accountQueue, currentAccount, enqueue, MEDIA_CACHE, SYNC_TAG, type QueueItem, type StoredBundle } from "./db";
export { syncQueue } from "./sync";
export { default as DownloadPanel, type DownloadPanelProps } from "./ui/DownloadPanel";
export { SyncStatus, useOfflineSync } from "./ui/SyncStatus";
export type { BundleCard, BundleCorrection, OfflineBundle } from "./types";

import { accountBundles, accountQueue, currentAccount, enqueue, SYNC_TAG } from "./db";
import { SyncStatus, useOfflineSync } from "./ui/SyncStatus";

/** What the flashcards' offline player needs of this browser's storage; its route passes it in. */
export const offlineStorage = { accountBundles, accountQueue, currentAccount, enqueue, SYNC_TAG, SyncStatus, useOfflineSync };
export type OfflineStorage = typeof offlineStorage;
