// The live island's hook: one session (./live-session) on the page's audio — the shared AudioContext and playback
// coordinator of ~/lib/audio (nothing else plays while it runs), the capture worklet and the streaming player.
import { useEffect, useState, useSyncExternalStore } from "react";
import { startLiveCapture } from "~/lib/audio/live-capture";
import { createLivePlayer } from "~/lib/audio/live-player";
import { playback } from "~/lib/audio/playback";
import { LIVE_FRAME_BYTES, LIVE_SAMPLE_RATE } from "../protocol";
import { createLiveSession, type LiveSessionEnv, type SocketLike } from "./live-session";

/** The page's AudioContext (in the browser, playback's environment makes a real one). */
const sharedContext = () => playback.audioContext() as AudioContext | null;
/** Only called once prepareAudio() found the context. */
const context = () => sharedContext()!;

const browserEnv: LiveSessionEnv = {
  prepareAudio() {
    playback.unlock();
    const context = sharedContext();
    if (!context?.audioWorklet || typeof AudioWorkletNode === "undefined") return false;
    playback.stop();
    playback.beginRecording();
    return true;
  },
  releaseAudio: () => playback.endRecording(),
  createPlayer: () => createLivePlayer(context(), { sampleRate: LIVE_SAMPLE_RATE }),
  startCapture: (onFrame) => startLiveCapture({ context: context(), targetRate: LIVE_SAMPLE_RATE, frameSamples: LIVE_FRAME_BYTES / 2, onFrame }),
  openSocket(path) {
    const url = new URL(path, window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    return new WebSocket(url) as SocketLike;
  },
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
  now: () => Date.now(),
};

export function useLiveSession(options: { conversationId: string; balance: number; creditsPerMinute: number }) {
  const [session] = useState(() => createLiveSession(options, browserEnv));
  useEffect(() => () => session.dispose(), [session]);
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
  return { ...snapshot, session };
}
