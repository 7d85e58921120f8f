// Toasts: the flash toast from the root loader is server-rendered (visible without JavaScript, hidden
// by CSS after 4 s); with JS it joins the client store, which also receives `toast()` calls.
import { useEffect, useSyncExternalStore } from "react";
import { AlertIcon, CheckCircleIcon, CloseIcon, InfoIcon } from "./icons";
import { MAX_VISIBLE_TOASTS, toastStore, type ToastItem, type ToastType } from "./toast-store";

export { toast, dismissToast, type ToastInput, type ToastItem } from "./toast-store";

const EMPTY: readonly ToastItem[] = [];
const getServerSnapshot = () => EMPTY;

const TONE: Record<ToastType, { icon: typeof InfoIcon; className: string }> = {
  success: { icon: CheckCircleIcon, className: "text-emerald-600 dark:text-emerald-400" },
  error: { icon: AlertIcon, className: "text-rose-600 dark:text-rose-400" },
  info: { icon: InfoIcon, className: "text-indigo-600 dark:text-indigo-300" },
};

export function Toaster({ initial }: { initial: ToastItem | null }) {
  const items = useSyncExternalStore(toastStore.subscribe, toastStore.getSnapshot, getServerSnapshot);

  // Hand the flash toast to the store once (keyed by its id, so a new flash toast after a client
  // navigation shows too, and a dismissed one does not come back while the loader data stays).
  useEffect(() => {
    if (initial) toastStore.add(initial);
  }, [initial]);

  const list = initial && !toastStore.hasSeen(initial.id) ? [...items, initial].slice(-MAX_VISIBLE_TOASTS) : items;

  return (
    <div
      role="region"
      aria-label="Notificações"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-0 z-[70] flex justify-center px-3 pt-[max(0.75rem,env(safe-area-inset-top))] md:inset-x-auto md:right-0 md:justify-end md:p-4"
    >
      <ol className="flex w-full max-w-sm flex-col gap-2">
        {list.map((item) => {
          const tone = TONE[item.type] ?? TONE.info;
          const Icon = tone.icon;
          return (
            <li
              key={item.id}
              className="toast-timed pointer-events-auto flex items-start gap-3 rounded-2xl border border-slate-200 bg-white p-4 text-slate-900 shadow-lg shadow-slate-900/10 dark:border-night-700 dark:bg-night-800 dark:text-slate-50 dark:shadow-black/40"
            >
              <Icon size={22} className={`mt-px shrink-0 ${tone.className}`} />
              <div className="min-w-0 flex-1">
                <p className="font-semibold leading-snug">{item.title}</p>
                {item.description ? <p className="mt-1 text-sm leading-snug text-slate-600 dark:text-slate-300">{item.description}</p> : null}
              </div>
              <button
                type="button"
                onClick={() => toastStore.dismiss(item.id)}
                aria-label="Fechar notificação"
                className="-m-1 shrink-0 rounded-lg p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-night-700 dark:hover:text-white"
              >
                <CloseIcon size={18} />
              </button>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
