// One live conversation in the browser: the microphone's frames go to the relay as binary messages, Nika's
// audio comes back as binary frames for the item the relay announced, and the JSON messages of ../protocol
// drive the rest (captions, minutes paid, barge-in, the end). A dropped connection comes back to the same
// session for LIVE_LIMITS.resumeMs. A store for useSyncExternalStore; everything it touches is injected.
import type { LiveCapture, LiveCaptureProblem } from "~/lib/audio/live-capture";
import type { StoppedItem } from "~/lib/audio/live-player";
import {
  END_CLOSE_CODE,
  END_MESSAGES,
  LIVE_LIMITS,
  LIVE_SAMPLE_RATE,
  liveSocketPath,
  type ClientMessage,
  type LiveEndReason,
  type ServerMessage,
  type Speaker,
} from "../protocol";

/** What the learner sees (and the e2e reads from `data-live-state`). */
export type LiveStatus = "idle" | "connecting" | "listening" | "nika_speaking" | "reconnecting" | "ended";

export type Caption = { key: string; speaker: Speaker; text: string };

export interface LiveSnapshot {
  readonly status: LiveStatus;
  readonly muted: boolean;
  /** Both sides' words in the order they were spoken (empty ones left out). */
  readonly captions: readonly Caption[];
  readonly balance: number;
  readonly creditsPerMinute: number;
  /** A warning while the last minute that can be paid runs. */
  readonly warning: string | null;
  /** Why the session could not start or go on (microphone, connection); the start button shows again. */
  readonly problem: string | null;
  /** How the session ended. */
  readonly endMessage: string | null;
  readonly creditsExhausted: boolean;
}

export const LIVE_TEXT = {
  denied: "Permita o acesso ao microfone para conversar ao vivo.",
  notFound: "Nenhum microfone encontrado. Conecte um microfone e tente de novo.",
  microphone: "Não foi possível usar o microfone. Feche outros aplicativos que estejam usando e tente de novo.",
  noWebAudio: "Este navegador não permite a conversa ao vivo. Tente outro navegador.",
  cannotConnect: "Não foi possível iniciar a conversa ao vivo. Tente de novo em instantes.",
  connectionLost: "Conexão perdida.",
  lastCreditMinute: "Falta 1 minuto de créditos.",
  lastTimeMinute: "Falta 1 minuto para o limite de 15 minutos.",
} as const;

const MICROPHONE_TEXT: Record<LiveCaptureProblem, string> = {
  denied: LIVE_TEXT.denied,
  not_found: LIVE_TEXT.notFound,
  other: LIVE_TEXT.microphone,
};

export interface SocketLike {
  binaryType: string;
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string | ArrayBuffer): void;
  close(code?: number, reason?: string): void;
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: (() => void) | null;
}

export interface PlayerLike {
  push(itemId: string, pcm: ArrayBuffer): void;
  stop(): StoppedItem | null;
  close(): void;
  isSpeaking(): boolean;
  subscribe(listener: () => void): () => void;
}

export interface LiveSessionEnv {
  /** Inside the tap: unlock audio, silence and hold every other playback. False when the browser has no Web Audio. */
  prepareAudio(): boolean;
  /** Lets other playback go again. */
  releaseAudio(): void;
  createPlayer(): PlayerLike;
  /** Rejects with a LiveCaptureError (its `problem` is used) or anything else. */
  startCapture(onFrame: (frame: ArrayBuffer) => void): Promise<LiveCapture>;
  openSocket(path: string): SocketLike;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

const OPEN = 1;
/** Reconnection waits: short first, then every two seconds until the session can no longer be resumed. */
export const RECONNECT_DELAYS_MS = [250, 500, 1000, 2000] as const;
/** After "Encerrar", the relay's `ended` is awaited this long before the session ends here anyway. */
export const END_WAIT_MS = 3000;
/** A muted learner sends no audio; a ping keeps the connection known to be alive. */
export const PING_EVERY_MS = 15_000;
/**
 * Microphone frames are dropped while the socket holds this much unsent (half a second of audio): after a stall,
 * a backlog would reach the relay at once, beyond the rate it accepts, and it would close the session.
 */
export const MAX_BUFFERED_BYTES = LIVE_SAMPLE_RATE;

const REASON_BY_CODE = new Map<number, LiveEndReason>(
  (Object.entries(END_CLOSE_CODE) as [LiveEndReason, number][]).map(([reason, code]) => [code, reason]),
);

function parseServerMessage(data: string): ServerMessage | null {
  try {
    const message = JSON.parse(data) as unknown;
    return message && typeof message === "object" && typeof (message as { type?: unknown }).type === "string"
      ? (message as ServerMessage)
      : null;
  } catch {
    return null;
  }
}

export type LiveSession = ReturnType<typeof createLiveSession>;

export function createLiveSession(options: { conversationId: string; balance: number; creditsPerMinute: number }, env: LiveSessionEnv) {
  const listeners = new Set<() => void>();
  let snapshot: LiveSnapshot = Object.freeze({
    status: "idle",
    muted: false,
    captions: [],
    balance: options.balance,
    creditsPerMinute: options.creditsPerMinute,
    warning: null,
    problem: null,
    endMessage: null,
    creditsExhausted: false,
  });

  // One run of the session (start → end).
  let run = 0;
  let socket: SocketLike | null = null;
  let player: PlayerLike | null = null;
  let unsubscribePlayer: (() => void) | null = null;
  let capture: LiveCapture | null = null;
  let sessionId: string | null = null;
  /** The relay said `ready` on the current socket: audio may flow. */
  let ready = false;
  /** Nika's item the binary frames belong to; null drops them (before an item, after the learner spoke over it). */
  let currentItem: string | null = null;
  let lostAt: number | null = null;
  let attempt = 0;
  let timer: unknown = null;
  let endTimer: unknown = null;
  let pingTimer: unknown = null;
  let placeholders = 0;

  function set(patch: Partial<LiveSnapshot>) {
    snapshot = Object.freeze({ ...snapshot, ...patch });
    [...listeners].forEach((listener) => listener());
  }

  const liveStatus = (): LiveStatus => (player?.isSpeaking() ? "nika_speaking" : "listening");

  function send(message: ClientMessage) {
    if (socket?.readyState === OPEN) socket.send(JSON.stringify(message));
  }

  function clearTimers() {
    for (const handle of [timer, endTimer, pingTimer]) if (handle !== null) env.clearTimeout(handle);
    timer = endTimer = pingTimer = null;
  }

  function closeSocket(code = 1000) {
    const s = socket;
    socket = null;
    ready = false;
    if (!s) return;
    s.onopen = s.onmessage = s.onerror = null;
    s.onclose = null;
    try {
      s.close(code);
    } catch {
      // already closed
    }
  }

  /** Lets go of the microphone, the player and the socket. */
  function teardown() {
    run++;
    clearTimers();
    closeSocket();
    capture?.stop();
    capture = null;
    unsubscribePlayer?.();
    unsubscribePlayer = null;
    player?.close();
    if (player) env.releaseAudio();
    player = null;
    currentItem = null;
    sessionId = null;
    lostAt = null;
    attempt = 0;
  }

  /** The session is over: `message` says why. */
  function finish(message: string, patch: Partial<LiveSnapshot> = {}) {
    teardown();
    set({ status: "ended", endMessage: message, warning: null, ...patch });
  }

  /** It never got going: the start button shows again with `problem`. */
  function fail(problem: string) {
    teardown();
    set({ status: "idle", problem });
  }

  // ——— captions ———

  function caption(speaker: Speaker, itemId: string, delta: string | undefined, final: string | undefined) {
    const key = `${speaker}:${itemId}`;
    const list = [...snapshot.captions];
    let index = list.findIndex((c) => c.key === key);
    if (index < 0 && speaker === "learner") {
      // The learner's words arrive after they spoke, often after Nika began answering: they take the place
      // kept for them when they started speaking.
      index = list.findIndex((c) => c.speaker === "learner" && c.key.startsWith("pending:"));
      if (index >= 0) list[index] = { ...list[index]!, key };
    }
    if (index < 0) {
      list.push({ key, speaker, text: "" });
      index = list.length - 1;
    }
    const text = final ?? list[index]!.text + (delta ?? "");
    if (speaker === "learner" && final !== undefined && !final.trim()) list.splice(index, 1);
    else list[index] = { ...list[index]!, text };
    set({ captions: list });
  }

  // ——— relay → browser ———

  function onMessage(message: ServerMessage) {
    switch (message.type) {
      case "ready":
        sessionId = message.sessionId;
        ready = true;
        lostAt = null;
        attempt = 0;
        set({ status: liveStatus(), balance: message.balance, creditsPerMinute: message.creditsPerMinute, problem: null });
        return;
      case "speech_started": {
        currentItem = null;
        const stopped = player?.stop() ?? null;
        if (stopped) send({ type: "interrupted", itemId: stopped.itemId, playedMs: stopped.playedMs });
        set({ captions: [...snapshot.captions, { key: `pending:${++placeholders}`, speaker: "learner", text: "" }] });
        return;
      }
      case "nika_item":
        currentItem = message.itemId;
        return;
      case "caption":
        return caption(message.speaker, message.itemId, message.delta, message.final);
      case "minute":
        set({
          balance: message.balance,
          warning: message.lastMinute
            ? message.balance < snapshot.creditsPerMinute
              ? LIVE_TEXT.lastCreditMinute
              : LIVE_TEXT.lastTimeMinute
            : null,
        });
        return;
      case "ended":
        return ended(message.reason, message.message);
    }
  }

  function ended(reason: LiveEndReason, message = END_MESSAGES[reason]) {
    const exhausted = reason === "credits_exhausted";
    finish(message, exhausted ? { creditsExhausted: true, balance: 0 } : {});
  }

  function onClose(code: number) {
    const reason = REASON_BY_CODE.get(code);
    if (reason) return ended(reason); // the relay closed it on purpose (its `ended` did not arrive first)
    closeSocket();
    if (!sessionId) return fail(LIVE_TEXT.cannotConnect);
    lostAt ??= env.now();
    set({ status: "reconnecting" });
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    attempt++;
    if (env.now() + delay - lostAt >= LIVE_LIMITS.resumeMs) return finish(LIVE_TEXT.connectionLost);
    const thisRun = run;
    timer = env.setTimeout(() => {
      timer = null;
      if (run === thisRun) connect();
    }, delay);
  }

  function connect() {
    const s = env.openSocket(liveSocketPath(options.conversationId, sessionId));
    socket = s;
    ready = false;
    currentItem = null;
    s.binaryType = "arraybuffer";
    s.onmessage = (event) => {
      if (socket !== s) return;
      if (typeof event.data === "string") {
        const message = parseServerMessage(event.data);
        if (message) onMessage(message);
      } else if (event.data instanceof ArrayBuffer && currentItem && player) {
        player.push(currentItem, event.data);
      }
    };
    s.onclose = (event) => {
      if (socket === s) onClose(event.code);
    };
    s.onerror = () => {}; // a close follows
  }

  function ping() {
    const thisRun = run;
    pingTimer = env.setTimeout(() => {
      if (run !== thisRun) return;
      if (ready) send({ type: "ping" });
      ping();
    }, PING_EVERY_MS);
  }

  // ——— the learner's actions ———

  /** Call inside the tap on "Começar conversa": audio is unlocked there (iOS Safari). */
  async function start(): Promise<void> {
    if (snapshot.status !== "idle" && snapshot.status !== "ended") return;
    if (snapshot.balance <= 0) return set({ creditsExhausted: true });
    teardown();
    placeholders = 0;
    set({ status: "connecting", muted: false, captions: [], warning: null, problem: null, endMessage: null, creditsExhausted: false });
    if (!env.prepareAudio()) return fail(LIVE_TEXT.noWebAudio);
    const thisRun = run;
    const p = env.createPlayer();
    player = p;
    unsubscribePlayer = p.subscribe(() => {
      if (snapshot.status === "listening" || snapshot.status === "nika_speaking") set({ status: liveStatus() });
    });
    let opened: LiveCapture;
    try {
      opened = await env.startCapture((frame) => {
        if (ready && socket?.readyState === OPEN && socket.bufferedAmount <= MAX_BUFFERED_BYTES) socket.send(frame);
      });
    } catch (error) {
      if (run !== thisRun) return;
      const problem = (error as { problem?: LiveCaptureProblem } | null)?.problem;
      return fail(problem ? MICROPHONE_TEXT[problem] : LIVE_TEXT.microphone);
    }
    if (run !== thisRun) return opened.stop(); // ended (or unmounted) while the microphone opened
    capture = opened;
    connect();
    ping();
  }

  function setMuted(muted: boolean) {
    if (!capture || muted === snapshot.muted) return;
    // Muting is the microphone's alone: no frames go out (the relay's silence rule counts a muted minute too).
    capture.setMuted(muted);
    set({ muted });
  }

  /** "Encerrar": the relay ends the session (and closes); if it does not answer, it ends here. */
  function end() {
    if (snapshot.status === "idle" || snapshot.status === "ended") return;
    if (!ready) return finish(END_MESSAGES.ended);
    send({ type: "end" });
    capture?.setMuted(true);
    player?.stop();
    if (endTimer === null) {
      const thisRun = run;
      endTimer = env.setTimeout(() => {
        if (run === thisRun) finish(END_MESSAGES.ended);
      }, END_WAIT_MS);
    }
  }

  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: (): LiveSnapshot => snapshot,
    start,
    setMuted,
    end,
    dismissCreditsDialog: () => set({ creditsExhausted: false }),
    /** Leaving the page: the relay is told the session ended, and everything is let go. */
    dispose(): void {
      if (ready) send({ type: "end" });
      teardown();
    },
  };
}
