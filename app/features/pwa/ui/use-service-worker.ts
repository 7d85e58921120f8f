import { useCallback, useEffect, useRef, useState } from "react";

const DEFAULT_SW_URL = "/sw.js";
const DEFAULT_CHECK_INTERVAL_MS = 60 * 60 * 1000; // 60 minutes

export interface UseServiceWorkerOptions {
  /** Service worker script URL. Default "/sw.js" (scope "/"). */
  url?: string;
  /** How often to check for a new version. Default 60 minutes. */
  checkIntervalMs?: number;
}

export interface ServiceWorkerState {
  /** A new version is installed and waiting (or another tab already activated it). */
  updateAvailable: boolean;
  /** Activates the waiting worker (SKIP_WAITING) and reloads once it takes control. */
  applyUpdate: () => void;
  /** Asks the browser to check for a new sw.js now. */
  checkForUpdate: () => void;
}

/**
 * Registers the service worker after `window.load` and tracks whether an
 * update is waiting. SSR-safe: does nothing until mounted in the browser.
 */
export function useServiceWorker(options: UseServiceWorkerOptions = {}): ServiceWorkerState {
  const { url = DEFAULT_SW_URL, checkIntervalMs = DEFAULT_CHECK_INTERVAL_MS } = options;
  const [updateAvailable, setUpdateAvailable] = useState(false);
  const registrationRef = useRef<ServiceWorkerRegistration | null>(null);
  const waitingRef = useRef<ServiceWorker | null>(null);
  const updateRequestedRef = useRef(false);
  const reloadingRef = useRef(false);

  const reloadOnce = useCallback(() => {
    if (reloadingRef.current) return;
    reloadingRef.current = true;
    window.location.reload();
  }, []);

  const checkForUpdate = useCallback(() => {
    const registration = registrationRef.current;
    if (!registration) return;
    registration.update().catch((error: unknown) => {
      // Typically offline; try again on the next check.
      console.warn("[pwa] Falha ao verificar atualização do service worker", error);
    });
  }, []);

  useEffect(() => {
    if (typeof window === "undefined" || !("serviceWorker" in navigator)) return;
    // Only the production build makes /sw.js (scripts/vite-sw.ts): `remix vite:dev` runs without a worker.
    if (import.meta.env.DEV) return;
    const container = navigator.serviceWorker;
    let cancelled = false;
    let intervalId: number | undefined;
    let hadController = container.controller !== null;
    const cleanups: Array<() => void> = [];

    const setWaiting = (worker: ServiceWorker | null) => {
      if (!worker) return;
      waitingRef.current = worker;
      setUpdateAvailable(true);
    };

    const trackInstalling = (worker: ServiceWorker | null) => {
      if (!worker) return;
      const onStateChange = () => {
        // "installed" while this page is controlled = a new version waiting.
        // (On the very first install there is no controller and the worker
        // activates straight away, so there is nothing to offer.)
        if (worker.state === "installed" && container.controller !== null) {
          setWaiting(worker);
        }
      };
      worker.addEventListener("statechange", onStateChange);
      cleanups.push(() => worker.removeEventListener("statechange", onStateChange));
    };

    const onUpdateFound = () => trackInstalling(registrationRef.current?.installing ?? null);

    const onControllerChange = () => {
      if (updateRequestedRef.current) {
        reloadOnce();
        return;
      }
      // Another tab activated a new version: this page still runs old code,
      // so offer a reload (the button just reloads, nothing is waiting now).
      if (hadController) {
        waitingRef.current = null;
        setUpdateAvailable(true);
      }
      hadController = true;
    };
    container.addEventListener("controllerchange", onControllerChange);
    cleanups.push(() => container.removeEventListener("controllerchange", onControllerChange));

    const register = async () => {
      try {
        const registration = await container.register(url, { scope: "/" });
        if (cancelled) return;
        registrationRef.current = registration;
        setWaiting(registration.waiting);
        trackInstalling(registration.installing);
        registration.addEventListener("updatefound", onUpdateFound);
        cleanups.push(() => registration.removeEventListener("updatefound", onUpdateFound));
        intervalId = window.setInterval(checkForUpdate, checkIntervalMs);
      } catch (error) {
        console.warn("[pwa] Falha ao registrar o service worker", error);
      }
    };

    const onLoad = () => void register();
    if (document.readyState === "complete") {
      onLoad();
    } else {
      window.addEventListener("load", onLoad, { once: true });
      cleanups.push(() => window.removeEventListener("load", onLoad));
    }

    const onVisibilityChange = () => {
      if (document.visibilityState === "visible") checkForUpdate();
    };
    document.addEventListener("visibilitychange", onVisibilityChange);
    cleanups.push(() => document.removeEventListener("visibilitychange", onVisibilityChange));

    return () => {
      cancelled = true;
      if (intervalId !== undefined) window.clearInterval(intervalId);
      for (const cleanup of cleanups) cleanup();
    };
  }, [url, checkIntervalMs, checkForUpdate, reloadOnce]);

  const applyUpdate = useCallback(() => {
    const worker = registrationRef.current?.waiting ?? waitingRef.current;
    if (!worker || worker.state !== "installed") {
      // Nothing waiting (e.g. already activated by another tab): just reload.
      reloadOnce();
      return;
    }
    updateRequestedRef.current = true;
    // Fallback in case controllerchange is not delivered to this page.
    worker.addEventListener("statechange", () => {
      if (worker.state === "activated") reloadOnce();
    });
    worker.postMessage({ type: "SKIP_WAITING" });
  }, [reloadOnce]);

  return { updateAvailable, applyUpdate, checkForUpdate };
}
