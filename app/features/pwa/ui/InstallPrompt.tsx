import { useEffect, useId, useState } from "react";
import { useInstall } from "./use-install";

export const INSTALL_DISMISSED_KEY = "nika:install-dismissed";
const MOBILE_QUERY = "(max-width: 767px)"; // below the 768 px breakpoint

function wasDismissed(): boolean {
  try {
    return window.localStorage.getItem(INSTALL_DISMISSED_KEY) === "1";
  } catch (error) {
    console.warn("[pwa] Não foi possível ler o localStorage", error);
    return false;
  }
}

function rememberDismissal() {
  try {
    window.localStorage.setItem(INSTALL_DISMISSED_KEY, "1");
  } catch (error) {
    console.warn("[pwa] Não foi possível gravar no localStorage", error);
  }
}

export interface InstallPromptProps {
  /** Delay after the page has loaded and the learner first tapped or typed before the card may appear. Default 3000 ms. */
  delayMs?: number;
}

/**
 * Mobile-only "install the app" card, shown above the 64 px bottom nav.
 * Chromium: uses the captured beforeinstallprompt. iOS: shows the manual
 * Share → Add to Home Screen hint. Never shown when installed or dismissed.
 * It waits for the learner's first tap or key press in this visit (then `delayMs`): it never covers a page
 * that has just opened, and it is never the page's largest paint (LCP ends at the first input).
 */
export function InstallPrompt({ delayMs = 3000 }: InstallPromptProps) {
  const { canInstall, installed, isIOS, promptInstall } = useInstall();
  const [ready, setReady] = useState(false); // delay elapsed and not dismissed before
  const [isMobile, setIsMobile] = useState(false);
  const [hidden, setHidden] = useState(false);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    if (wasDismissed()) return;
    let timer: number | undefined;
    let loaded = document.readyState === "complete";
    let engaged = false;
    const stopListening = () => {
      window.removeEventListener("load", onLoad);
      window.removeEventListener("pointerdown", onInput, true);
      window.removeEventListener("keydown", onInput, true);
    };
    const maybeStart = () => {
      if (!loaded || !engaged || timer !== undefined) return;
      stopListening();
      timer = window.setTimeout(() => setReady(true), delayMs);
    };
    function onLoad() {
      loaded = true;
      maybeStart();
    }
    function onInput() {
      engaged = true;
      maybeStart();
    }
    if (!loaded) window.addEventListener("load", onLoad);
    window.addEventListener("pointerdown", onInput, true);
    window.addEventListener("keydown", onInput, true);
    return () => {
      stopListening();
      if (timer !== undefined) window.clearTimeout(timer);
    };
  }, [delayMs]);

  useEffect(() => {
    const mql = window.matchMedia?.(MOBILE_QUERY);
    if (!mql) return;
    const onChange = () => setIsMobile(mql.matches);
    onChange();
    mql.addEventListener?.("change", onChange);
    return () => mql.removeEventListener?.("change", onChange);
  }, []);

  const showIOSHint = isIOS && !canInstall;
  if (!ready || hidden || installed || !isMobile || !(canInstall || showIOSHint)) return null;

  const dismiss = () => {
    rememberDismissal();
    setHidden(true);
  };

  const install = async () => {
    setHidden(true);
    const outcome = await promptInstall();
    // Declined in the browser dialog: don't ask again.
    if (outcome === "dismissed") rememberDismissal();
  };

  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape closes a dialog (WAI-ARIA dialog pattern); keys come from its buttons
    <div
      role="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onKeyDown={(event) => {
        if (event.key === "Escape") setHidden(true);
      }}
      className="fixed inset-x-3 bottom-[calc(5rem+env(safe-area-inset-bottom,0px))] z-40 mx-auto max-w-md rounded-2xl bg-slate-900 p-4 text-slate-50 shadow-xl ring-1 ring-white/15"
    >
      <div className="flex items-start gap-3">
        <img src="/icons/icon.svg" alt="" width={40} height={40} className="size-10 shrink-0 rounded-xl" />
        <div className="min-w-0">
          <h2 id={titleId} className="text-base font-semibold">
            Instale o Nika
          </h2>
          <p id={bodyId} className="mt-1 text-sm text-slate-300">
            {showIOSHint
              ? "Toque em Compartilhar e depois em Adicionar à Tela de Início."
              : "Adicione o Nika à sua tela inicial para acessar mais rápido, mesmo com internet lenta."}
          </p>
        </div>
      </div>
      <div className="mt-3 flex justify-end gap-2">
        <button
          type="button"
          onClick={dismiss}
          className="min-h-11 rounded-full px-4 text-sm font-medium text-slate-200 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-300"
        >
          Agora não
        </button>
        {!showIOSHint && (
          <button
            type="button"
            onClick={() => void install()}
            className="min-h-11 rounded-full bg-indigo-600 px-4 text-sm font-semibold text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-300"
          >
            Instalar
          </button>
        )}
      </div>
    </div>
  );
}
