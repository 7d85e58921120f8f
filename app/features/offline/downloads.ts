// Downloading a bundle for offline practice: its size first (the server's estimate), then the
// signed bundle (POST /resources/offline/bundle) into IndexedDB and its pictures and sounds into Cache
// Storage `nika-offline-media` (shared media URLs: nothing learner-specific there); removing one deletes
// its row and every media file no remaining bundle needs. No React.
import { accountBundles, deleteBundle, MEDIA_CACHE, mediaInUse, putBundle, setCurrentAccount, type StoredBundle } from "./db";
import type { BundleEstimate, BundleTarget, OfflineBundle } from "./types";

export const BUNDLE_PATH = "/resources/offline/bundle";
/** Files fetched at once while downloading. */
const CONCURRENCY = 4;

export const DOWNLOAD_ERRORS = {
  network: "Não foi possível baixar. Verifique sua conexão e tente novamente.",
  storage: "Não há espaço no aparelho para este download. Remova outro download e tente de novo.",
  unavailable: "Este navegador não permite baixar para praticar offline.",
  server: "Não foi possível preparar o download. Tente novamente mais tarde.",
} as const;

/** A download that failed, with the pt-BR message to show. */
export class DownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DownloadError";
  }
}

export const offlineAvailable = () => typeof indexedDB !== "undefined" && typeof caches !== "undefined";

/** "3,2 MB", "850 KB" (pt-BR numbers). */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000_000)
    return `${new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 0 }).format(Math.max(1, Math.round(bytes / 1000)))} KB`;
  return `${new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / 1_000_000)} MB`;
}

const targetQuery = (target: BundleTarget) =>
  target.target === "review" ? "target=review" : `target=category&slug=${encodeURIComponent(target.slug)}`;

/** The server's pt-BR refusal, or a generic message. */
async function refusalOf(response: Response): Promise<DownloadError> {
  const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
  return new DownloadError(typeof body?.error === "string" ? body.error : DOWNLOAD_ERRORS.server);
}

async function request(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" }, ...init });
  } catch {
    throw new DownloadError(DOWNLOAD_ERRORS.network);
  }
}

export async function fetchEstimate(target: BundleTarget): Promise<BundleEstimate> {
  const response = await request(`${BUNDLE_PATH}?${targetQuery(target)}`);
  if (!response.ok) throw await refusalOf(response);
  return ((await response.json()) as { estimate: BundleEstimate }).estimate;
}

/** Every URL in `value` (strings, nested in objects). */
function urlsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(urlsIn);
  return [];
}

/** Every URL a bundle's games play or show: its media list, its sounds, the result tiers. */
export const bundleMedia = (bundle: OfflineBundle): string[] => [
  ...new Set([...bundle.media, ...urlsIn(bundle.sounds), ...urlsIn(bundle.tiers)]),
];

const absolute = (url: string) => new URL(url, location.origin).href;

const isQuota = (error: unknown) => error instanceof DOMException && error.name === "QuotaExceededError";

/** The stored bundle of `target` for this learner, if any. */
export function storedFor(rows: readonly StoredBundle[], target: BundleTarget): StoredBundle | undefined {
  return rows.find((row) =>
    target.target === "review" ? row.bundle.kind === "review" : row.bundle.kind === "category" && row.bundle.category?.slug === target.slug,
  );
}

export type DownloadProgress = { done: number; total: number };

/**
 * Downloads `target`'s bundle and its media; replaces this learner's earlier download of the same target.
 * Resolves with the stored row (its `bytes`: what is stored now).
 */
export async function downloadBundle(target: BundleTarget, onProgress: (progress: DownloadProgress) => void): Promise<StoredBundle> {
  if (!offlineAvailable()) throw new DownloadError(DOWNLOAD_ERRORS.unavailable);
  const response = await request(BUNDLE_PATH, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(target.target === "review" ? { target: "review" } : { target: "category", slug: target.slug }),
  });
  if (!response.ok) throw await refusalOf(response);
  const json = await response.text();
  const { bundle } = JSON.parse(json) as { bundle: OfflineBundle };

  const urls = bundleMedia(bundle);
  // kept with the bundle, so removing another download never takes what this one plays
  bundle.media = urls;
  let done = 0;
  onProgress({ done, total: urls.length });
  const cache = await caches.open(MEDIA_CACHE);
  let mediaBytes = 0;
  const queue = [...urls];
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      let stored = await cache.match(absolute(url));
      if (!stored) {
        const file = await request(url, { headers: {} });
        if (!file.ok) throw new DownloadError(DOWNLOAD_ERRORS.network);
        try {
          await cache.put(absolute(url), file.clone());
        } catch (error) {
          throw new DownloadError(isQuota(error) ? DOWNLOAD_ERRORS.storage : DOWNLOAD_ERRORS.network);
        }
        stored = file;
      }
      mediaBytes += (await stored.blob()).size;
      done += 1;
      onProgress({ done, total: urls.length });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, urls.length) }, worker));
  } catch (error) {
    await pruneMedia().catch(() => {}); // what this download cached and no bundle needs
    throw error;
  }

  const row: StoredBundle = {
    bundle,
    userId: bundle.userId,
    savedAt: new Date().toISOString(),
    bytes: new Blob([json]).size + mediaBytes,
  };
  try {
    const earlier = storedFor(await accountBundles(bundle.userId), target);
    await putBundle(row);
    if (earlier && earlier.bundle.id !== bundle.id) await deleteBundle(earlier.bundle.id);
    // the server issued it to the signed-in learner: this browser is theirs (the marker may not be written yet)
    await setCurrentAccount(bundle.userId);
  } catch (error) {
    throw new DownloadError(isQuota(error) ? DOWNLOAD_ERRORS.storage : DOWNLOAD_ERRORS.unavailable);
  }
  return row;
}

/** Removes a download: its row, then every media file no remaining bundle (of any learner) needs. */
export async function removeDownload(bundleId: string) {
  await deleteBundle(bundleId);
  await pruneMedia();
}

async function pruneMedia() {
  const needed = new Set([...(await mediaInUse())].map(absolute));
  const cache = await caches.open(MEDIA_CACHE);
  for (const key of await cache.keys()) if (!needed.has(key.url)) await cache.delete(key);
}
