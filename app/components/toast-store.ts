// Client toast store (module level) read with useSyncExternalStore. At most 3 visible, each removed
// after 4 s (spec §9 "Notifications display 4 s, 3 visible").

export type ToastType = "success" | "error" | "info";
export type ToastInput = { type?: ToastType; title: string; description?: string; id?: string };
export type ToastItem = { id: string; type: ToastType; title: string; description?: string };

export const TOAST_DURATION_MS = 4000;
export const MAX_VISIBLE_TOASTS = 3;

type Timers = {
  set: (fn: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
};

export function createToastStore({
  duration = TOAST_DURATION_MS,
  max = MAX_VISIBLE_TOASTS,
  timers = {
    set: (fn, ms) => setTimeout(fn, ms),
    clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
}: { duration?: number; max?: number; timers?: Timers } = {}) {
  let toasts: readonly ToastItem[] = [];
  let counter = 0;
  /** Ids ever shown, so a flash toast kept in loader data is not shown again after dismissal. */
  const seen = new Set<string>();
  const pending = new Map<string, unknown>();
  const listeners = new Set<() => void>();

  const emit = () => listeners.forEach((listener) => listener());

  function remove(ids: Iterable<string>) {
    for (const id of ids) {
      const handle = pending.get(id);
      if (handle !== undefined) timers.clear(handle);
      pending.delete(id);
    }
  }

  function add(input: ToastInput): string {
    const id = input.id ?? `t${Date.now().toString(36)}${(counter++).toString(36)}`;
    if (seen.has(id)) return id;
    seen.add(id);
    const item: ToastItem = { id, type: input.type ?? "info", title: input.title };
    if (input.description) item.description = input.description;
    const next = [...toasts, item];
    const overflow = next.length - max;
    if (overflow > 0) remove(next.slice(0, overflow).map((t) => t.id));
    toasts = overflow > 0 ? next.slice(overflow) : next;
    pending.set(
      id,
      timers.set(() => dismiss(id), duration),
    );
    emit();
    return id;
  }

  function dismiss(id: string) {
    if (!toasts.some((t) => t.id === id)) return;
    remove([id]);
    toasts = toasts.filter((t) => t.id !== id);
    emit();
  }

  return {
    add,
    dismiss,
    hasSeen: (id: string) => seen.has(id),
    getSnapshot: () => toasts,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;

export const toastStore = createToastStore();

/** Shows a toast from client code. Returns its id. */
export function toast(input: ToastInput): string {
  return toastStore.add(input);
}

export const dismissToast = (id: string) => toastStore.dismiss(id);
