// Audio playback of the whole app (spec §4 "Audio", §8 "Audio player", §9 "Audio"): the chat's
// messages and the flashcards' words and feedback sounds. One shared <audio> element for everything
// (iOS unlocks an element inside a tap, not a page), speech synthesis when there is no recording, and a
// tiny store for useSyncExternalStore. SSR-safe: browser globals are reached only through the
// environment, and only when called.

/** Spec §5: playback speeds 0.5, 0.75 and 1. */
export const PLAYBACK_SPEEDS = [0.5, 0.75, 1] as const;
export type PlaybackSpeed = (typeof PLAYBACK_SPEEDS)[number];

export function isPlaybackSpeed(value: number): value is PlaybackSpeed {
  return (PLAYBACK_SPEEDS as readonly number[]).includes(value);
}

export const FORMAT_RETRY_DELAY_MS = 1000;
export const LOAD_TIMEOUT_MS = 5000;
export const MOBILE_BLOB_LOAD_TIMEOUT_MS = 10_000;

export const PLAYBACK_MESSAGES = {
  formatRetrying: "Audio format issue - retrying...",
  audioError: (msg: string) => `Audio error: ${msg}`,
  playback: "Playback error",
  mobile: "Mobile audio playback failed - please try again",
  loadTimeout: "Audio load timeout",
  blocked: "Cannot play audio while recording or blocked",
  pausedWhileRecording: "Audio paused while recording",
} as const;

const MEDIA_ERR_ABORTED = 1;
const MEDIA_ERR_SRC_NOT_SUPPORTED = 4;
const FORMAT_NOT_SUPPORTED = "format not supported";
const MEDIA_ERROR_TEXT: Record<number, string> = {
  2: "network error",
  3: "decode error",
  4: FORMAT_NOT_SUPPORTED,
};

function field(value: unknown, key: "name" | "message"): string {
  return value instanceof Object && key in value ? String((value as Record<string, unknown>)[key]) : "";
}

/** 16 silent 8-bit samples: played muted inside a tap to unlock the shared element on iOS. */
export const SILENT_WAV = "data:audio/wav;base64,UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YRAAAACAgICAgICAgICAgICAgICA";

export type PlaybackState = "idle" | "loading" | "playing" | "paused" | "error";

export interface PlaybackSnapshot {
  readonly activeId: string | null;
  readonly state: PlaybackState;
  readonly error: string | null;
  readonly recording: boolean;
  readonly speed: PlaybackSpeed;
}

export interface PlayRequest {
  /** Audio URL, or null to speak `text` with speech synthesis. */
  src: string | null;
  text: string;
  lang: "pt" | "en";
  /** 0–1 (default 1): the flashcards' feedback sounds play at 0.7 (spec §9). */
  volume?: number;
}

export interface AudioLike {
  src: string;
  muted: boolean;
  volume: number;
  playbackRate: number;
  defaultPlaybackRate: number;
  readonly paused: boolean;
  readonly error: { code: number; message?: string } | null;
  play(): Promise<void> | void;
  pause(): void;
  load(): void;
  addEventListener(type: string, listener: () => void): void;
}

export interface UtteranceLike {
  text: string;
  lang: string;
  rate: number;
  volume: number;
  onstart: (() => void) | null;
  onend: (() => void) | null;
  onerror: ((event: { error?: string }) => void) | null;
  onboundary: ((event: { charIndex: number }) => void) | null;
}

export interface SpeechLike {
  readonly paused: boolean;
  speak(utterance: UtteranceLike): void;
  cancel(): void;
  pause(): void;
  resume(): void;
}

export interface AudioContextLike {
  readonly state: string;
  resume(): Promise<void> | void;
}

export interface PlaybackEnvironment {
  createAudio(): AudioLike | null;
  speech(): SpeechLike | null;
  createUtterance(text: string): UtteranceLike | null;
  createAudioContext(): AudioContextLike | null;
  isMobile(): boolean;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const browserEnvironment: PlaybackEnvironment = {
  createAudio: () => (typeof Audio === "undefined" ? null : (new Audio() as unknown as AudioLike)),
  speech: () => (typeof speechSynthesis === "undefined" ? null : (speechSynthesis as unknown as SpeechLike)),
  createUtterance: (text) =>
    typeof SpeechSynthesisUtterance === "undefined" ? null : (new SpeechSynthesisUtterance(text) as unknown as UtteranceLike),
  createAudioContext: () => {
    const Ctx = globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    return Ctx ? new Ctx() : null;
  },
  isMobile: () =>
    typeof navigator !== "undefined" &&
    (/Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1)),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const INITIAL_PLAYBACK_SNAPSHOT: PlaybackSnapshot = Object.freeze({
  activeId: null,
  state: "idle",
  error: null,
  recording: false,
  speed: 1,
});

/** For useSyncExternalStore's server snapshot. */
export const getServerPlaybackSnapshot = () => INITIAL_PLAYBACK_SNAPSHOT;

export function speechLang(lang: "pt" | "en"): string {
  return lang === "pt" ? "pt-BR" : "en-US";
}

/** Spec §4: recording, or an error about recording/blocked/retrying, shows 'Audio paused while recording'. */
export function pausedWhileRecordingMessage(error: string | null, recording: boolean): string | null {
  if (recording || (error && /recording|blocked|retrying/i.test(error))) return PLAYBACK_MESSAGES.pausedWhileRecording;
  return null;
}

type MediaSession = {
  kind: "media";
  id: string;
  src: string;
  volume: number;
  attempt: number;
  failed: boolean;
  retried: boolean;
  retryPending: boolean;
  ready: boolean;
};
type SpeechSession = {
  kind: "speech";
  id: string;
  text: string;
  lang: string;
  volume: number;
  utterance: UtteranceLike | null;
  started: boolean;
  /** Characters already spoken, so a speed change can continue from there. */
  spoken: number;
};
type Session = MediaSession | SpeechSession;

export type Playback = ReturnType<typeof createPlayback>;

export function createPlayback(overrides: Partial<PlaybackEnvironment> = {}) {
  const env: PlaybackEnvironment = { ...browserEnvironment, ...overrides };
  const listeners = new Set<() => void>();
  let snapshot = INITIAL_PLAYBACK_SNAPSHOT;
  let element: AudioLike | null = null;
  let context: AudioContextLike | null = null;
  let session: Session | null = null;
  /** What recording interrupted, restored by endRecording(). */
  let held: Session | null = null;
  let loadTimer: unknown = null;
  let retryTimer: unknown = null;
  let attempts = 0;
  /** The shared element holds the unlock clip: its events are not about any message. */
  let silent = false;
  let elementUnlocked = false;
  let speechUnlocked = false;

  function set(patch: Partial<PlaybackSnapshot>) {
    const next = { ...snapshot, ...patch };
    const keys = Object.keys(next) as (keyof PlaybackSnapshot)[];
    if (keys.every((key) => next[key] === snapshot[key])) return;
    snapshot = Object.freeze(next);
    [...listeners].forEach((listener) => listener());
  }

  const isActive = (s: Session) => session === s && snapshot.activeId === s.id;
  const currentMedia = () => (!silent && session?.kind === "media" ? session : null);

  function clearTimers() {
    if (loadTimer !== null) env.clearTimeout(loadTimer);
    if (retryTimer !== null) env.clearTimeout(retryTimer);
    loadTimer = retryTimer = null;
  }

  function getElement(): AudioLike | null {
    if (element) return element;
    const el = env.createAudio();
    if (!el) return null;
    el.addEventListener("canplay", () => {
      const s = currentMedia();
      if (!s) return;
      s.ready = true;
      if (loadTimer !== null) env.clearTimeout(loadTimer);
      loadTimer = null;
    });
    el.addEventListener("playing", () => {
      const s = currentMedia();
      // el.paused: a pause() that raced this queued event wins
      if (s && !s.failed && !el.paused) started(s);
    });
    el.addEventListener("pause", () => {
      const s = currentMedia();
      if (s && isActive(s) && snapshot.state === "playing") set({ state: "paused" });
    });
    el.addEventListener("ended", () => {
      const s = currentMedia();
      if (s && isActive(s)) finish();
    });
    el.addEventListener("error", () => {
      const s = currentMedia();
      const err = el.error;
      if (!s || s.failed || !err || err.code === MEDIA_ERR_ABORTED) return;
      const msg = err.message || MEDIA_ERROR_TEXT[err.code] || "unknown";
      if (err.code === MEDIA_ERR_SRC_NOT_SUPPORTED) formatIssue(s, msg);
      else fail(s, PLAYBACK_MESSAGES.audioError(msg));
    });
    element = el;
    return el;
  }

  function started(s: MediaSession) {
    s.ready = true;
    if (loadTimer !== null) env.clearTimeout(loadTimer);
    loadTimer = null;
    if (!snapshot.recording && isActive(s) && (snapshot.state === "loading" || snapshot.state === "paused")) {
      set({ state: "playing", error: null });
    }
  }

  function finish() {
    clearTimers();
    session = null;
    set({ activeId: null, state: "idle", error: null });
  }

  function fail(s: Session, message: string) {
    if (s.kind === "media") {
      s.failed = true;
      element?.pause();
    }
    clearTimers();
    set({ activeId: s.id, state: "error", error: message });
  }

  function formatIssue(s: MediaSession, msg: string) {
    if (s.retried) return fail(s, PLAYBACK_MESSAGES.audioError(msg));
    fail(s, PLAYBACK_MESSAGES.formatRetrying);
    s.retried = true;
    s.retryPending = true;
    retryTimer = env.setTimeout(() => {
      retryTimer = null;
      if (session === s && !snapshot.recording) startMedia(s);
    }, FORMAT_RETRY_DELAY_MS);
  }

  function armLoadTimer(s: MediaSession) {
    if (loadTimer !== null) env.clearTimeout(loadTimer);
    const ms = s.src.startsWith("blob:") && env.isMobile() ? MOBILE_BLOB_LOAD_TIMEOUT_MS : LOAD_TIMEOUT_MS;
    loadTimer = env.setTimeout(() => {
      loadTimer = null;
      if (session === s && !s.failed && !s.ready) fail(s, PLAYBACK_MESSAGES.loadTimeout);
    }, ms);
  }

  function callPlay(s: MediaSession, el: AudioLike) {
    const attempt = s.attempt;
    const rejected = (error: unknown) => {
      if (session !== s || s.attempt !== attempt || s.failed) return;
      const name = field(error, "name");
      if (name === "AbortError") return; // pause() or a new source interrupted play(); not a failure
      if (name === "NotSupportedError") return formatIssue(s, field(error, "message") || FORMAT_NOT_SUPPORTED);
      fail(s, name === "NotAllowedError" && env.isMobile() ? PLAYBACK_MESSAGES.mobile : PLAYBACK_MESSAGES.playback);
    };
    try {
      Promise.resolve(el.play()).then(() => {
        if (session === s && s.attempt === attempt && !s.failed && snapshot.state === "loading") started(s);
      }, rejected);
    } catch (error) {
      rejected(error);
    }
  }

  function startMedia(s: MediaSession) {
    const el = getElement();
    if (!el) return fail(s, PLAYBACK_MESSAGES.playback);
    s.attempt = ++attempts;
    s.failed = s.ready = s.retryPending = false;
    silent = false;
    set({ activeId: s.id, state: "loading", error: null });
    el.muted = false;
    el.volume = s.volume;
    el.src = s.src;
    el.defaultPlaybackRate = snapshot.speed;
    el.load();
    el.playbackRate = snapshot.speed; // load() resets playbackRate to the default
    armLoadTimer(s);
    callPlay(s, el);
  }

  function startSpeech(s: SpeechSession, from: number) {
    const synth = env.speech();
    const utterance = env.createUtterance(s.text.slice(from));
    if (!synth || !utterance) return fail(s, PLAYBACK_MESSAGES.playback);
    const live = () => session === s && s.utterance === utterance;
    utterance.lang = s.lang;
    utterance.rate = snapshot.speed;
    utterance.volume = s.volume;
    utterance.onstart = () => {
      if (!live()) return;
      s.started = true;
      if (!snapshot.recording && snapshot.state === "loading") set({ state: "playing", error: null });
    };
    utterance.onend = () => {
      if (live()) finish();
    };
    utterance.onerror = (event) => {
      // cancel() (new message, speed change) reports these; they are not failures
      if (!live() || event.error === "interrupted" || event.error === "canceled") return;
      fail(s, PLAYBACK_MESSAGES.audioError(event.error ?? "speech synthesis"));
    };
    utterance.onboundary = (event) => {
      if (live()) s.spoken = from + event.charIndex;
    };
    s.utterance = utterance; // before cancel(): the old utterance's events are now stale
    s.spoken = from;
    set({ activeId: s.id, state: s.started ? "playing" : "loading", error: null });
    try {
      synth.cancel();
      if (synth.paused) synth.resume(); // Chrome stays paused after cancel()
      synth.speak(utterance);
    } catch {
      fail(s, PLAYBACK_MESSAGES.playback);
    }
  }

  function stopSession() {
    const s = session;
    session = null;
    clearTimers();
    if (!s) return;
    if (s.kind === "media") element?.pause();
    else {
      s.utterance = null;
      try {
        env.speech()?.cancel();
      } catch {
        // ignore
      }
    }
  }

  function resumeSession(s: Session) {
    if (s.kind === "speech") {
      const synth = env.speech();
      if (!synth) return fail(s, PLAYBACK_MESSAGES.playback);
      if (s.utterance && s.utterance.rate !== snapshot.speed) return startSpeech(s, s.spoken);
      synth.resume();
      set({ activeId: s.id, state: s.started ? "playing" : "loading", error: null });
      return;
    }
    if (s.retryPending || s.failed) return startMedia(s);
    const el = getElement();
    if (!el) return fail(s, PLAYBACK_MESSAGES.playback);
    s.attempt = ++attempts;
    set({ activeId: s.id, state: "loading", error: null });
    if (!s.ready) armLoadTimer(s);
    callPlay(s, el);
  }

  function play(id: string, request: PlayRequest): void {
    if (snapshot.recording) {
      if (session && session !== held) stopSession();
      set({ activeId: id, state: "error", error: PLAYBACK_MESSAGES.blocked });
      return;
    }
    stopSession();
    const src = request.src?.trim() ? request.src.trim() : null;
    const volume = Math.min(1, Math.max(0, request.volume ?? 1)) || 0;
    if (src) {
      const s: MediaSession = { kind: "media", id, src, volume, attempt: 0, failed: false, retried: false, retryPending: false, ready: false };
      session = s;
      startMedia(s);
    } else {
      const s: SpeechSession = {
        kind: "speech",
        id,
        text: request.text,
        lang: speechLang(request.lang),
        volume,
        utterance: null,
        started: false,
        spoken: 0,
      };
      session = s;
      startSpeech(s, 0);
    }
  }

  function pause(): void {
    const s = session;
    if (!s || !isActive(s) || (snapshot.state !== "playing" && snapshot.state !== "loading")) return;
    if (s.kind === "media") {
      if (loadTimer !== null) env.clearTimeout(loadTimer);
      loadTimer = null;
      element?.pause();
    } else env.speech()?.pause();
    set({ state: "paused" });
  }

  function resume(): void {
    const s = session;
    if (!s || !isActive(s) || snapshot.state !== "paused") return;
    if (snapshot.recording) return set({ state: "error", error: PLAYBACK_MESSAGES.blocked });
    resumeSession(s);
  }

  function setSpeed(speed: number): boolean {
    if (!isPlaybackSpeed(speed)) return false;
    set({ speed });
    if (element) {
      element.defaultPlaybackRate = speed;
      element.playbackRate = speed;
    }
    const s = session;
    // An utterance's rate is fixed once spoken: continue the rest at the new rate.
    if (s?.kind === "speech" && isActive(s) && (snapshot.state === "playing" || snapshot.state === "loading")) {
      startSpeech(s, s.spoken);
    }
    return true;
  }

  function beginRecording(): void {
    if (snapshot.recording) return;
    const s = session;
    const busy = !!s && isActive(s) && (snapshot.state === "playing" || snapshot.state === "loading" || (s.kind === "media" && s.retryPending));
    held = busy ? s : null;
    clearTimers();
    element?.pause();
    if (s?.kind === "speech" && busy) env.speech()?.pause();
    set({ recording: true, ...(busy ? { state: "paused" as const, error: null } : {}) });
  }

  function endRecording(): void {
    if (!snapshot.recording) return;
    const s = held;
    held = null;
    set({ recording: false });
    if (s && session === s) resumeSession(s);
    else if (snapshot.error === PLAYBACK_MESSAGES.blocked) set({ activeId: null, state: "idle", error: null });
  }

  /** Stops everything (e.g. when the chat screen unmounts). */
  function stop(): void {
    stopSession();
    held = null;
    set({ activeId: null, state: "idle", error: null });
  }

  /** The page's one Web Audio context (live conversation plays and records through it), made on first use; null without Web Audio. */
  function audioContext(): AudioContextLike | null {
    try {
      context ??= env.createAudioContext();
    } catch {
      // no Web Audio
    }
    return context;
  }

  /** Call synchronously inside a user tap (iOS Safari); failures are ignored. */
  function unlock(): void {
    try {
      const shared = audioContext();
      if (shared?.state === "suspended") void Promise.resolve(shared.resume()).catch(() => {});
    } catch {
      // no Web Audio
    }
    try {
      const el = getElement();
      const busy = session?.kind === "media" && ["loading", "playing", "paused"].includes(snapshot.state);
      if (el && !elementUnlocked && !busy) {
        silent = true;
        el.muted = true;
        el.src = SILENT_WAV;
        Promise.resolve(el.play()).then(
          () => {
            elementUnlocked = true;
            if (silent) el.pause();
          },
          () => {},
        );
      }
    } catch {
      // try again on the next tap
    }
    try {
      const synth = env.speech();
      if (synth && !speechUnlocked && session?.kind !== "speech") {
        const utterance = env.createUtterance("");
        if (utterance) {
          utterance.volume = 0;
          synth.speak(utterance);
          speechUnlocked = true;
        }
      }
    } catch {
      // no speech synthesis
    }
  }

  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: (): PlaybackSnapshot => snapshot,
    play,
    pause,
    resume,
    stop,
    setSpeed,
    beginRecording,
    endRecording,
    unlock,
    audioContext,
  };
}

/** The page's single coordinator; touches no browser global until first used. */
export const playback: Playback = createPlayback();
