import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_VISIBLE_TOASTS, TOAST_DURATION_MS, createToastStore } from "./toast-store";

describe("toast store", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("keeps at most 3 visible, dropping the oldest", () => {
    const store = createToastStore();
    for (const title of ["a", "b", "c", "d"]) store.add({ title });
    expect(MAX_VISIBLE_TOASTS).toBe(3);
    expect(store.getSnapshot().map((t) => t.title)).toEqual(["b", "c", "d"]);
  });

  it("defaults the type to info and keeps the description", () => {
    const store = createToastStore();
    store.add({ title: "Olá", description: "Tudo certo" });
    expect(store.getSnapshot()[0]).toMatchObject({ type: "info", title: "Olá", description: "Tudo certo" });
  });

  it("auto-dismisses after 4 s", () => {
    const store = createToastStore();
    store.add({ type: "success", title: "Salvo" });
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toHaveLength(0);
  });

  it("dismisses by id and notifies subscribers", () => {
    const store = createToastStore();
    const listener = vi.fn();
    store.subscribe(listener);
    const first = store.add({ title: "1" });
    store.add({ title: "2" });
    store.dismiss(first);
    expect(store.getSnapshot().map((t) => t.title)).toEqual(["2"]);
    expect(listener).toHaveBeenCalledTimes(3);
    store.dismiss(first); // already gone: no change, no notification
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it("does not show the same id twice (flash toast kept in loader data)", () => {
    const store = createToastStore();
    store.add({ id: "flash-1", title: "Login realizado com sucesso!" });
    store.dismiss("flash-1");
    store.add({ id: "flash-1", title: "Login realizado com sucesso!" });
    expect(store.getSnapshot()).toHaveLength(0);
    expect(store.hasSeen("flash-1")).toBe(true);
  });

  it("returns a stable snapshot between changes (useSyncExternalStore)", () => {
    const store = createToastStore();
    store.add({ title: "x" });
    expect(store.getSnapshot()).toBe(store.getSnapshot());
  });

  it("clears the timers of toasts pushed out by newer ones", () => {
    const store = createToastStore({ max: 1 });
    store.add({ title: "old" });
    store.add({ title: "new" });
    expect(vi.getTimerCount()).toBe(1);
  });
});
