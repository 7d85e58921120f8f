// Play/pause, speed and errors for one message's audio. Every player reads the page's single playback
// bus, so only one message plays at a time and recording pauses all of them (spec §4, §8 "Audio player").
// Before the page's script runs (or without JavaScript) it is the browser's own <audio controls>.
import { useEffect, useRef, useSyncExternalStore } from "react";
import { PauseIcon, PlayIcon } from "~/components/icons";
import { getServerPlaybackSnapshot, PLAYBACK_SPEEDS, pausedWhileRecordingMessage, playback } from "~/lib/audio/playback";
import { useHydrated } from "~/lib/use-hydrated";

const focusRing =
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:focus-visible:outline-indigo-300";

export interface AudioPlayerProps {
  id: string;
  /** Audio URL, or null to read `text` aloud with the browser's speech synthesis. */
  src: string | null;
  text: string;
  lang: "pt" | "en";
  /** Starts once on mount (right after the learner sends a message). */
  autoPlay?: boolean;
  /** The play button's accessible name. */
  playLabel?: string;
}

export function AudioPlayer(props: AudioPlayerProps) {
  const hydrated = useHydrated();
  if (hydrated) return <ScriptedPlayer {...props} />;
  const { src, playLabel = DEFAULT_LABEL } = props;
  // eslint-disable-next-line jsx-a11y/media-has-caption -- the words spoken are always shown as text next to the player
  return src ? <audio controls preload="none" src={src} aria-label={playLabel} className="mt-2 h-10 w-full max-w-xs" /> : null;
}

const DEFAULT_LABEL = "Ouvir a resposta da Nika";

function ScriptedPlayer({ id, src, text, lang, autoPlay = false, playLabel = DEFAULT_LABEL }: AudioPlayerProps) {
  const snap = useSyncExternalStore(playback.subscribe, playback.getSnapshot, getServerPlaybackSnapshot);
  const mine = snap.activeId === id;
  const state = mine ? snap.state : "idle";
  const error = mine ? snap.error : null;
  const pausedNotice = mine ? pausedWhileRecordingMessage(error, snap.recording) : null;
  const busy = state === "loading" || state === "playing";

  const request = useRef({ src, text, lang });
  request.current = { src, text, lang };
  const autoPlayed = useRef(false);

  useEffect(() => {
    // The ref survives StrictMode's second effect run, so this plays once.
    if (!autoPlay || autoPlayed.current) return;
    autoPlayed.current = true;
    playback.play(id, request.current);
  }, [autoPlay, id]);

  function toggle() {
    playback.unlock(); // synchronously inside the tap (iOS Safari)
    if (mine && busy) playback.pause();
    else if (mine && state === "paused") playback.resume();
    else playback.play(id, request.current);
  }

  return (
    <div className="mt-2">
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          onClick={toggle}
          aria-label={busy ? "Pausar" : playLabel}
          aria-busy={state === "loading"}
          className={`grid size-9 shrink-0 place-items-center rounded-full bg-indigo-600 text-white shadow-sm hover:bg-indigo-700 ${focusRing}`}
        >
          {state === "loading" ? (
            <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white border-t-transparent" />
          ) : busy ? (
            <PauseIcon />
          ) : (
            <PlayIcon />
          )}
        </button>
        <div
          role="group"
          aria-label="Velocidade"
          className="flex items-center gap-0.5 rounded-full border border-slate-200 bg-white p-0.5 dark:border-night-700 dark:bg-night-900"
        >
          {PLAYBACK_SPEEDS.map((speed) => {
            const pressed = snap.speed === speed;
            return (
              <button
                key={speed}
                type="button"
                aria-pressed={pressed}
                onClick={() => playback.setSpeed(speed)}
                className={`h-7 min-w-10 rounded-full px-2 text-xs font-semibold ${focusRing} ${
                  pressed ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-night-700"
                }`}
              >
                {`${speed}x`}
              </button>
            );
          })}
        </div>
      </div>

      <div aria-live="polite">
        {pausedNotice ? <p className="mt-1.5 text-xs font-medium text-amber-900 dark:text-amber-200">{pausedNotice}</p> : null}
      </div>

      {state === "error" && !pausedNotice ? (
        <div
          role="alert"
          className="mt-2 rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-400/30 dark:bg-red-400/10 dark:text-red-100"
        >
          <p className="font-semibold">Audio error</p>
          <p>{error}</p>
          {src ? <p className="mt-1 break-all text-xs">{src}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
