// The game's preloading stage (spec §4, §9): with JavaScript the game's pictures and sounds load first
// (6 at once, retries); playing starts by itself once the critical ones are ready, and a critical
// asset that cannot be loaded is the error stage with 'Tentar novamente'. The rest keeps loading behind.
import { useCallback, useEffect, useState } from "react";
import { GAME_PRELOAD, preloadAssets, type PreloadAsset, type PreloadProgress } from "~/lib/preload";

export type PreloadStage = "preloading" | "playing" | "error";

const NO_PROGRESS: PreloadProgress = { done: 0, total: 0, criticalDone: 0, criticalTotal: 0 };

/** Percent of the critical assets loaded (what the start waits for). */
export const criticalPercent = (progress: PreloadProgress) =>
  progress.criticalTotal === 0 ? 100 : Math.round((progress.criticalDone / progress.criticalTotal) * 100);

/**
 * `gate`: start in the preloading stage (a game opened from the picker). A page loaded whole from the
 * server (a reload, JavaScript arriving late) already shows its question: it plays at once and the
 * preloading only warms the cache.
 */
export function useGamePreload(assets: readonly PreloadAsset[], gate: boolean) {
  const [stage, setStage] = useState<PreloadStage>(gate ? "preloading" : "playing");
  const [progress, setProgress] = useState<PreloadProgress>(NO_PROGRESS);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    const run = preloadAssets(assets, GAME_PRELOAD, { onProgress: (p) => live && setProgress(p) });
    void run.critical.then((ready) => {
      if (!live) return;
      if (ready) setStage("playing");
      else {
        setStage((current) => (current === "preloading" ? "error" : current));
        run.cancel();
      }
    });
    return () => {
      live = false;
      run.cancel();
    };
  }, [assets, round]);

  const retry = useCallback(() => {
    setStage("preloading");
    setProgress(NO_PROGRESS);
    setRound((n) => n + 1);
  }, []);

  return { stage, progress, retry };
}
