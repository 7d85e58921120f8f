import { useSyncExternalStore } from "react";

const subscribe = () => () => {};
/** False on the server and while hydrating; true afterwards and on every client navigation. */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
