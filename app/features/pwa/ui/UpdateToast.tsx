import { useState } from "react";
import { useServiceWorker, type UseServiceWorkerOptions } from "./use-service-worker";

export type UpdateToastProps = UseServiceWorkerOptions;

/**
 * Registers the service worker and, when a new version is waiting, shows
 * "Nova versão disponível" with an "Atualizar" button (activates it and
 * reloads once). Mount once, near the end of <body>.
 */
export function UpdateToast(props: UpdateToastProps) {
  const { updateAvailable, applyUpdate } = useServiceWorker(props);
  const [updating, setUpdating] = useState(false);
  const [dismissed, setDismissed] = useState(false);

  if (!updateAvailable || dismissed) return null;

  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-x-3 top-[calc(0.75rem+env(safe-area-inset-top,0px))] z-50 mx-auto flex max-w-md items-center gap-3 rounded-2xl bg-slate-900 py-2 pr-2 pl-4 text-slate-50 shadow-xl ring-1 ring-white/15 md:inset-x-auto md:top-auto md:right-6 md:bottom-6"
    >
      <p className="min-w-0 flex-1 text-sm font-medium">Nova versão disponível</p>
      <button
        type="button"
        disabled={updating}
        onClick={() => {
          setUpdating(true);
          applyUpdate();
        }}
        className="min-h-11 rounded-full bg-indigo-600 px-4 text-sm font-semibold text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-300 disabled:opacity-70"
      >
        Atualizar
      </button>
      <button
        type="button"
        aria-label="Dispensar"
        onClick={() => setDismissed(true)}
        className="grid size-11 shrink-0 place-items-center rounded-full text-slate-300 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-300"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
          <path d="M5.28 4.22a.75.75 0 0 0-1.06 1.06L8.94 10l-4.72 4.72a.75.75 0 1 0 1.06 1.06L10 11.06l4.72 4.72a.75.75 0 1 0 1.06-1.06L11.06 10l4.72-4.72a.75.75 0 0 0-1.06-1.06L10 8.94 5.28 4.22Z" />
        </svg>
      </button>
    </div>
  );
}
