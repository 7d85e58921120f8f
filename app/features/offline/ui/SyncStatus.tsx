// The queue as the learner sees it: "N respostas aguardando sincronização" while answers wait, and what a
// sync just sent. The page syncs when it opens and when the connection comes back (Background Sync does it
// too where the browser has it); a sync refused or offline leaves the queue as it is.
import { useCallback, useEffect, useRef, useState } from "react";
import { pendingCount, syncQueue } from "../sync";

const answersLabel = (n: number) => `${n} ${n === 1 ? "resposta" : "respostas"}`;

export function useOfflineSync() {
  const [pending, setPending] = useState<number | null>(null);
  const [synced, setSynced] = useState(0);
  // The last count shown: answers gone from the queue since then were synced (by this page or, with
  // Background Sync, by the service worker).
  const known = useRef(0);

  const refresh = useCallback(async () => {
    try {
      const count = await pendingCount();
      if (navigator.onLine && count < known.current) setSynced((n) => n + known.current - count);
      known.current = count;
      setPending(count);
    } catch {
      setPending(null);
    }
  }, []);

  const sync = useCallback(async () => {
    if (navigator.onLine) {
      try {
        await syncQueue();
      } catch {
        // offline or signed out: the answers wait for the next chance
      }
    }
    await refresh();
  }, [refresh]);

  useEffect(() => {
    void sync();
    const onOnline = () => void sync();
    const onChange = () => document.visibilityState === "visible" && void refresh();
    window.addEventListener("online", onOnline);
    window.addEventListener("offline", onChange);
    document.addEventListener("visibilitychange", onChange);
    return () => {
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onChange);
      document.removeEventListener("visibilitychange", onChange);
    };
  }, [sync, refresh]);

  return { pending, synced, refresh, sync };
}

export function SyncStatus({ pending, synced, className }: { pending: number | null; synced: number; className?: string }) {
  return (
    <p role="status" aria-live="polite" className={className} data-testid="offline-sync-status">
      {pending ? (
        <span className="font-semibold text-amber-800 dark:text-amber-200">{answersLabel(pending)} aguardando sincronização</span>
      ) : synced > 0 ? (
        <span className="font-semibold text-emerald-800 dark:text-emerald-200">
          {answersLabel(synced)} {synced === 1 ? "sincronizada" : "sincronizadas"}
        </span>
      ) : null}
    </p>
  );
}
