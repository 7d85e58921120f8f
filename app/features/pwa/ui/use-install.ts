import { useSyncExternalStore } from "react";

/** Chromium-only event, not in lib.dom. */
export interface BeforeInstallPromptEvent extends Event {
  readonly platforms: string[];
  readonly userChoice: Promise<{ outcome: "accepted" | "dismissed"; platform: string }>;
  prompt(): Promise<void>;
}

export type InstallOutcome = "accepted" | "dismissed" | "unavailable";

export interface InstallState {
  /** The browser offered installation (beforeinstallprompt captured) and the app is not installed. */
  canInstall: boolean;
  /** Running as an installed app (standalone display mode) or `appinstalled` fired. */
  installed: boolean;
  /** iOS/iPadOS: no beforeinstallprompt; installing is manual (Share → Add to Home Screen). */
  isIOS: boolean;
}

export interface UseInstall extends InstallState {
  /** Shows the browser's install dialog. The captured event can only be used once. */
  promptInstall: () => Promise<InstallOutcome>;
}

// Module-level store: the event fires once per page (often before the UI
// that wants it is mounted) and must be shared by InstallPrompt and any
// "Instalar app" button, so it lives outside React.
const SERVER_STATE: InstallState = { canInstall: false, installed: false, isIOS: false };
let deferredPrompt: BeforeInstallPromptEvent | null = null;
let installedByEvent = false;
let state: InstallState = SERVER_STATE;
let initialized = false;
const listeners = new Set<() => void>();

function isStandalone(): boolean {
  const nav = window.navigator as Navigator & { standalone?: boolean };
  return window.matchMedia?.("(display-mode: standalone)").matches === true || nav.standalone === true;
}

function detectIOS(): boolean {
  const { userAgent, maxTouchPoints } = window.navigator;
  // iPadOS 13+ reports itself as a Mac; touch support gives it away.
  return /iPhone|iPad|iPod/i.test(userAgent) || (/Macintosh/i.test(userAgent) && maxTouchPoints > 1);
}

function update() {
  const installed = installedByEvent || isStandalone();
  const next: InstallState = {
    canInstall: deferredPrompt !== null && !installed,
    installed,
    isIOS: state.isIOS,
  };
  if (next.canInstall === state.canInstall && next.installed === state.installed) return;
  state = next;
  for (const listener of listeners) listener();
}

function init() {
  if (initialized || typeof window === "undefined") return;
  initialized = true;
  state = { canInstall: false, installed: isStandalone(), isIOS: detectIOS() };

  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // we show our own UI
    deferredPrompt = event as BeforeInstallPromptEvent;
    update();
  });
  window.addEventListener("appinstalled", () => {
    installedByEvent = true;
    deferredPrompt = null;
    update();
  });
  window.matchMedia?.("(display-mode: standalone)").addEventListener?.("change", update);
}

// Start listening as soon as the client bundle is evaluated (before
// hydration), so an early beforeinstallprompt is not missed.
init();

function subscribe(listener: () => void) {
  init();
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const getSnapshot = () => state;
const getServerSnapshot = () => SERVER_STATE;

export async function promptInstall(): Promise<InstallOutcome> {
  const event = deferredPrompt;
  if (!event) return "unavailable";
  deferredPrompt = null; // prompt() can only be called once per event
  update();
  try {
    await event.prompt();
    const { outcome } = await event.userChoice;
    return outcome;
  } catch (error) {
    console.warn("[pwa] Falha ao exibir o convite de instalação", error);
    return "unavailable";
  }
}

/** Install state shared by every caller. SSR-safe (server: nothing installable). */
export function useInstall(): UseInstall {
  const current = useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
  return { ...current, promptInstall };
}
