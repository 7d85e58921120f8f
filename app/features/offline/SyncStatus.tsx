// The queue as the learner sees it: "N respostas aguardando sincronização" while answers wait, and what a
// sync just sent. The page syncs when it opens and when the connection comes back (Background Sync does it
// too where the browser has it); a sync refused or offline leaves the queue as it is.
import { useCallback, useEffect, useState } from "react";
import { pendingCount, syncQueue } from "./sync";

const answersLabel = (n: number) => `${n} ${n === 1 ? "resposta" : "respostas"}`;

export function useOfflineSync() {
  const [pending, setPending] = useState<number | null>(null);
  const [synced, setSynced] = useState(0);

  const refresh = useCallback(() => void pendingCount().then(setPending, () => setPending(null)), []);

  const sync = useCallback(async () => {
    if (!navigator.onLine) return refresh();
    try {
      const outcome = await syncQueue();
      if (outcome.accepted > 0) setSynced((n) => n + outcome.accepted);
    } catch {
      // offline or signed out: the answers wait for the next chance
    }
    refresh();
  }, [refresh]);

  useEffect(() => {
    void sync();
    const onOnline = () => void sync();
    const onVisible = () => document.visibilityState === "visible" && refresh();
    window.addEventListener("online", onOnline);
    window.addEventListener("offline", refresh);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", refresh);
      document.removeEventListener("visibilitychange", onVisible);
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
