// "Baixar para praticar offline" on /flashcard-v2, only with JavaScript (the picker renders it
// after hydration and loads this module then): Revisão and each category with its size before (the
// server's estimate) and after (what is stored; a Revisão's correction cards count among its cards and weigh only
// their JSON), the download's progress, "Remover download", and the
// queue's state. One download at a time; errors in pt-BR.
import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { Button, buttonVariants } from "~/components/button";
import { DownloadIcon, TrashIcon } from "~/components/icons";
import { OFFLINE_PLAYER_PATH } from "~/lib/offline-paths";
import { accountBundles, type StoredBundle } from "../db";
import {
  DOWNLOAD_ERRORS,
  DownloadError,
  downloadBundle,
  fetchEstimate,
  formatBytes,
  offlineAvailable,
  removeDownload,
  storedFor,
  type DownloadProgress,
} from "../downloads";
import type { BundleEstimate, BundleTarget } from "../types";
import { SyncStatus, useOfflineSync } from "./SyncStatus";

export type DownloadPanelProps = {
  userId: string;
  categories: readonly { slug: string; name: string; playable: boolean }[];
  reviewCount: number;
};

type Row = { key: string; name: string; target: BundleTarget; available: boolean };

/** The estimates are asked one at a time (each composes a bundle on the server), not all at once. */
let estimating: Promise<unknown> = Promise.resolve();
function queuedEstimate(target: BundleTarget): Promise<BundleEstimate> {
  const next = estimating.then(() => fetchEstimate(target));
  estimating = next.catch(() => {});
  return next;
}

const dateLabel = (iso: string) => new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit" }).format(new Date(iso));

export default function DownloadPanel({ userId, categories, reviewCount }: DownloadPanelProps) {
  const [stored, setStored] = useState<StoredBundle[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const { pending, synced } = useOfflineSync();
  const supported = offlineAvailable();

  const reload = useCallback(() => void accountBundles(userId).then(setStored, () => setStored([])), [userId]);
  useEffect(() => (supported ? reload() : undefined), [reload, supported]);

  // The sizes are asked for once the section is on screen (it sits below the tiles).
  const [seen, setSeen] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const section = sectionRef.current;
    if (!section || typeof IntersectionObserver === "undefined") return setSeen(true);
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        setSeen(true);
        observer.disconnect();
      }
    });
    observer.observe(section);
    return () => observer.disconnect();
  }, []);

  const rows: Row[] = [
    { key: "review", name: "Revisão", target: { target: "review" }, available: reviewCount > 0 },
    ...categories.map((c) => ({
      key: c.slug,
      name: c.name,
      target: { target: "category", slug: c.slug } as BundleTarget,
      available: c.playable,
    })),
  ];

  return (
    <section ref={sectionRef} aria-labelledby="praticar-offline" className="mt-10" data-testid="offline-downloads">
      <h2 id="praticar-offline" className="text-lg font-bold tracking-tight">
        Praticar offline
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Baixe a Revisão ou uma categoria e jogue sem internet no app instalado. Cada jogo custa 1 crédito, descontado quando as respostas forem
        sincronizadas.
      </p>
      <SyncStatus pending={pending} synced={synced} className="mt-2 text-sm" />
      {!supported ? (
        <p className="mt-3 text-sm">{DOWNLOAD_ERRORS.unavailable}</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-night-700 dark:border-night-700 dark:bg-night-900">
          {rows.map((row) => (
            <DownloadRow
              key={row.key}
              row={row}
              stored={stored ? (storedFor(stored, row.target) ?? null) : undefined}
              seen={seen}
              locked={busy !== null && busy !== row.key}
              onBusy={(on) => setBusy(on ? row.key : null)}
              onChange={reload}
            />
          ))}
        </ul>
      )}
      <Link to={OFFLINE_PLAYER_PATH} className={buttonVariants({ variant: "secondary", className: "mt-4" })}>
        Abrir jogos baixados
      </Link>
    </section>
  );
}

function DownloadRow({
  row,
  stored,
  seen,
  locked,
  onBusy,
  onChange,
}: {
  row: Row;
  /** undefined while the stored downloads are being read. */
  stored: StoredBundle | null | undefined;
  /** The section has been on screen: the estimate may be asked. */
  seen: boolean;
  locked: boolean;
  onBusy: (busy: boolean) => void;
  onChange: () => void;
}) {
  const [estimate, setEstimate] = useState<BundleEstimate | null>(null);
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const labelId = `offline-${row.key}`;
  const expired = stored ? new Date(stored.bundle.expiresAt).getTime() <= Date.now() : false;

  // The size before downloading (asked only for what is not downloaded yet, and only when it can be played).
  useEffect(() => {
    if ((stored !== null && !expired) || stored === undefined || !row.available || !seen) return;
    let live = true;
    queuedEstimate(row.target).then(
      (value) => live && setEstimate(value),
      (e: unknown) => live && setError(e instanceof DownloadError ? e.message : DOWNLOAD_ERRORS.server),
    );
    return () => {
      live = false;
    };
  }, [stored, expired, seen, row.available, row.target.target, row.key]); // eslint-disable-line react-hooks/exhaustive-deps -- the target is named by its key

  const download = async () => {
    setError(null);
    onBusy(true);
    setProgress({ done: 0, total: 0 });
    try {
      await downloadBundle(row.target, setProgress);
    } catch (e) {
      setError(e instanceof DownloadError ? e.message : DOWNLOAD_ERRORS.network);
    } finally {
      setProgress(null);
      onBusy(false);
      onChange();
    }
  };

  const remove = async () => {
    if (!stored) return;
    setError(null);
    onBusy(true);
    try {
      await removeDownload(stored.bundle.id);
    } catch {
      setError("Não foi possível remover o download. Tente novamente.");
    } finally {
      onBusy(false);
      onChange();
    }
  };

  const downloading = progress !== null;
  return (
    <li className="flex flex-wrap items-center gap-3 p-3 sm:p-4" data-testid="offline-download" aria-labelledby={labelId}>
      <div className="min-w-0 flex-1">
        <p id={labelId} className="font-semibold">
          {row.name}
        </p>
        <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="offline-download-size">
          {stored
            ? `Baixado · ${formatBytes(stored.bytes)} · ${stored.bundle.cards.length + (stored.bundle.corrections?.length ?? 0)} cartões · ${expired ? "expirado" : `válido até ${dateLabel(stored.bundle.expiresAt)}`}`
            : !row.available
              ? row.key === "review"
                ? "Nada para revisar"
                : "Poucos cartões para um jogo"
              : estimate
                ? `${formatBytes(estimate.bytes)} · ${estimate.cards} cartões`
                : error
                  ? null
                  : "Calculando o tamanho..."}
        </p>
        {downloading ? (
          <progress
            value={progress.done}
            max={Math.max(progress.total, 1)}
            aria-label={`Baixando ${row.name}`}
            className="mt-2 h-2 w-full max-w-xs appearance-none overflow-hidden rounded-full bg-slate-200 dark:bg-night-800 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-indigo-600 dark:[&::-webkit-progress-bar]:bg-night-800 dark:[&::-webkit-progress-value]:bg-indigo-400"
          />
        ) : null}
        {error ? (
          <p role="alert" className="mt-1 text-sm font-semibold text-rose-700 dark:text-rose-300">
            {error}
          </p>
        ) : null}
      </div>
      {stored ? (
        <Button variant="secondary" size="sm" onClick={remove} disabled={locked || downloading} aria-describedby={labelId}>
          <TrashIcon size={16} />
          Remover download
        </Button>
      ) : null}
      {stored && !expired ? null : (
        <Button
          size="sm"
          onClick={download}
          disabled={locked || downloading || !row.available || stored === undefined}
          aria-describedby={labelId}
        >
          <DownloadIcon size={16} />
          {downloading
            ? `Baixando... ${progress.total ? Math.round((progress.done / progress.total) * 100) : 0}%`
            : "Baixar para praticar offline"}
        </Button>
      )}
    </li>
  );
}
