import { useEffect, useState } from "react";
import { OFFLINE_PLAYER_PATH } from "~/lib/offline-paths";

export interface OfflineBannerProps {
  className?: string;
}

/**
 * Shows "Você está offline…" while the browser reports no connection, and what still works: the flashcards
 * downloaded for offline practice (the chat needs the internet).
 * Renders nothing on the server and on the first client render (assumes
 * online) to avoid hydration mismatches; the real state is read in an effect.
 */
export function OfflineBanner({ className }: OfflineBannerProps) {
  const [online, setOnline] = useState(true);

  useEffect(() => {
    const sync = () => setOnline(window.navigator.onLine);
    sync();
    window.addEventListener("online", sync);
    window.addEventListener("offline", sync);
    return () => {
      window.removeEventListener("online", sync);
      window.removeEventListener("offline", sync);
    };
  }, []);

  if (online) return null;

  return (
    <div role="status" aria-live="polite" className={`bg-amber-300 px-4 py-2 text-center text-sm font-medium text-amber-950 ${className ?? ""}`}>
      Você está offline. O chat e as aulas precisam de internet; os flashcards baixados funcionam offline.{" "}
      {/* A document navigation: the service worker answers it from its cache (no route data to fetch). */}
      <a href={OFFLINE_PLAYER_PATH} className="font-semibold underline underline-offset-2">
        Jogar flashcards baixados
      </a>
    </div>
  );
}
