import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LiveCaptureError, type LiveCapture } from "~/lib/audio/live-capture";
import type { StoppedItem } from "~/lib/audio/live-player";
import { END_MESSAGES, LIVE_CLOSE, LIVE_LIMITS, type ServerMessage } from "../protocol";
import { END_WAIT_MS, LIVE_TEXT, MAX_BUFFERED_BYTES, PING_EVERY_MS, createLiveSession, type PlayerLike, type SocketLike } from "./live-session";

const CONVERSATION = "0b7c5d9e-1f2a-4b3c-8d4e-5f6a7b8c9d0e";
const SESSION = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d";

class FakeSocket implements SocketLike {
  binaryType = "blob";
  readyState = 0;
  bufferedAmount = 0;
  sent: (string | ArrayBuffer)[] = [];
  closedWith: number | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly path: string) {}
  send(data: string | ArrayBuffer) {
    expect(this.readyState).toBe(1);
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code ?? 1005;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(message: ServerMessage) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  receiveAudio(bytes = 1920) {
    this.onmessage?.({ data: new ArrayBuffer(bytes) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onerror?.();
    this.onclose?.({ code });
  }
  json() {
    return this.sent.filter((m): m is string => typeof m === "string").map((m) => JSON.parse(m) as { type: string });
  }
  audio() {
    return this.sent.filter((m) => m instanceof ArrayBuffer);
  }
}

class FakePlayer implements PlayerLike {
  pushes: { itemId: string; bytes: number }[] = [];
  stopResult: StoppedItem | null = null;
  stops = 0;
  closed = false;
  speaking = false;
  private listeners = new Set<() => void>();
  push(itemId: string, pcm: ArrayBuffer) {
    this.pushes.push({ itemId, bytes: pcm.byteLength });
  }
  stop() {
    this.stops++;
    return this.stopResult;
  }
  close() {
    this.closed = true;
  }
  isSpeaking() {
    return this.speaking;
  }
  subscribe(listener: () => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  setSpeaking(speaking: boolean) {
    this.speaking = speaking;
    this.listeners.forEach((l) => l());
  }
}

class FakeCapture implements LiveCapture {
  muted = false;
  stopped = false;
  setMuted(muted: boolean) {
    this.muted = muted;
  }
  stop() {
    this.stopped = true;
  }
}

function setup({ balance = 10, capture = async () => new FakeCapture() as LiveCapture, audio = true } = {}) {
  const sockets: FakeSocket[] = [];
  const player = new FakePlayer();
  let onFrame: ((frame: ArrayBuffer) => void) | null = null;
  const captures: FakeCapture[] = [];
  const env = {
    prepareAudio: vi.fn(() => audio),
    releaseAudio: vi.fn(),
    createPlayer: () => player,
    startCapture: vi.fn(async (frame: (f: ArrayBuffer) => void) => {
      onFrame = frame;
      const c = await capture();
      captures.push(c as FakeCapture);
      return c;
    }),
    openSocket: (path: string) => {
      const socket = new FakeSocket(path);
      sockets.push(socket);
      return socket;
    },
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    now: () => Date.now(),
  };
  const session = createLiveSession({ conversationId: CONVERSATION, balance, creditsPerMinute: 1 }, env);
  const snap = () => session.getSnapshot();
  const socket = () => sockets.at(-1)!;
  const frame = () => onFrame?.(new ArrayBuffer(1920));
  /** Starts, lets the microphone open, opens the socket and has the relay say ready. */
  const startLive = async () => {
    const started = session.start();
    await started;
    socket().open();
    socket().receive({ type: "ready", sessionId: SESSION, creditsPerMinute: 1, balance: balance - 1, maxSeconds: 900, resumed: false });
  };
  return { session, env, sockets, socket, player, captures, snap, frame, startLive };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("starting", () => {
  it("prepares audio inside the tap, opens the microphone, then the socket; audio flows once the relay is ready", async () => {
    const t = setup();
    const started = t.session.start();
    expect(t.env.prepareAudio).toHaveBeenCalledTimes(1); // synchronously, within the tap
    expect(t.snap().status).toBe("connecting");
    expect(t.sockets).toHaveLength(0); // the microphone first: no session is opened (or paid) without it
    await started;
    expect(t.socket().path).toBe(`/resources/live/${CONVERSATION}`);
    expect(t.socket().binaryType).toBe("arraybuffer");
    t.socket().open();
    t.frame();
    expect(t.socket().audio()).toHaveLength(0);
    t.socket().receive({ type: "ready", sessionId: SESSION, creditsPerMinute: 2, balance: 8, maxSeconds: 900, resumed: false });
    expect(t.snap()).toMatchObject({ status: "listening", balance: 8, creditsPerMinute: 2 });
    t.frame();
    t.frame();
    expect(t.socket().audio()).toHaveLength(2);
  });

  it("with no credits opens the 'Créditos Esgotados' dialog instead", async () => {
    const t = setup({ balance: 0 });
    await t.session.start();
    expect(t.snap().creditsExhausted).toBe(true);
    expect(t.env.prepareAudio).not.toHaveBeenCalled();
    expect(t.sockets).toHaveLength(0);
    t.session.dismissCreditsDialog();
    expect(t.snap().creditsExhausted).toBe(false);
  });

  it.each([
    ["denied", LIVE_TEXT.denied],
    ["not_found", LIVE_TEXT.notFound],
    ["other", LIVE_TEXT.microphone],
  ] as const)("a microphone %s says so in pt-BR and lets the learner try again", async (problem, text) => {
    const t = setup({ capture: () => Promise.reject(new LiveCaptureError(problem)) });
    await t.session.start();
    expect(t.snap()).toMatchObject({ status: "idle", problem: text });
    expect(t.sockets).toHaveLength(0);
    expect(t.env.releaseAudio).toHaveBeenCalledTimes(1);
    expect(t.player.closed).toBe(true);
  });

  it("says so when the browser has no Web Audio", async () => {
    const t = setup({ audio: false });
    await t.session.start();
    expect(t.snap()).toMatchObject({ status: "idle", problem: LIVE_TEXT.noWebAudio });
    expect(t.env.startCapture).not.toHaveBeenCalled();
  });

  it("a socket refused before the session was ready cannot be resumed: it says so and lets the learner try again", async () => {
    const t = setup();
    await t.session.start();
    t.socket().drop();
    expect(t.snap()).toMatchObject({ status: "idle", problem: LIVE_TEXT.cannotConnect });
    expect(t.captures[0]!.stopped).toBe(true);
    vi.advanceTimersByTime(20_000);
    expect(t.sockets).toHaveLength(1);
  });
});

describe("Nika's audio and barge-in", () => {
  it("plays binary frames for the announced item; 'Nika falando' follows what is heard", async () => {
    const t = setup();
    await t.startLive();
    t.socket().receiveAudio(); // before any item: not ours to play
    t.socket().receive({ type: "nika_item", itemId: "item_1" });
    t.socket().receiveAudio(1920);
    t.socket().receiveAudio(960);
    expect(t.player.pushes).toEqual([
      { itemId: "item_1", bytes: 1920 },
      { itemId: "item_1", bytes: 960 },
    ]);
    t.player.setSpeaking(true);
    expect(t.snap().status).toBe("nika_speaking");
    t.player.setSpeaking(false);
    expect(t.snap().status).toBe("listening");
  });

  it("speech_started stops playback at once, reports what was heard, and drops the rest of that item", async () => {
    const t = setup();
    await t.startLive();
    t.socket().receive({ type: "nika_item", itemId: "item_1" });
    t.socket().receiveAudio();
    t.player.stopResult = { itemId: "item_1", playedMs: 1234 };
    t.socket().receive({ type: "speech_started" });
    expect(t.player.stops).toBe(1);
    expect(t.socket().json()).toContainEqual({ type: "interrupted", itemId: "item_1", playedMs: 1234 });
    t.socket().receiveAudio(); // still on its way when the relay cancelled
    expect(t.player.pushes).toHaveLength(1);
    t.socket().receive({ type: "nika_item", itemId: "item_2" });
    t.socket().receiveAudio();
    expect(t.player.pushes.at(-1)).toEqual({ itemId: "item_2", bytes: 1920 });
  });

  it("speech_started with nothing playing sends no 'interrupted'", async () => {
    const t = setup();
    await t.startLive();
    t.socket().receive({ type: "speech_started" });
    expect(
      t
        .socket()
        .json()
        .filter((m) => m.type === "interrupted"),
    ).toHaveLength(0);
  });
});

describe("captions", () => {
  it("appends deltas, replaces with the final text, and keeps the learner's words before Nika's answer", async () => {
    const t = setup();
    await t.startLive();
    t.socket().receive({ type: "speech_started" });
    t.socket().receive({ type: "caption", speaker: "nika", itemId: "n1", delta: "Olá" });
    t.socket().receive({ type: "caption", speaker: "nika", itemId: "n1", delta: ", tudo" });
    // The learner's transcript arrives after Nika began answering.
    t.socket().receive({ type: "caption", speaker: "learner", itemId: "u1", final: "Oi Nika" });
    t.socket().receive({ type: "caption", speaker: "nika", itemId: "n1", final: "Olá, tudo bem?" });
    const shown = () =>
      t
        .snap()
        .captions.filter((c) => c.text)
        .map((c) => [c.speaker, c.text]);
    expect(shown()).toEqual([
      ["learner", "Oi Nika"],
      ["nika", "Olá, tudo bem?"],
    ]);
    t.socket().receive({ type: "speech_started" });
    t.socket().receive({ type: "caption", speaker: "learner", itemId: "u2", delta: "Tudo" });
    t.socket().receive({ type: "caption", speaker: "learner", itemId: "u2", delta: " ótimo" });
    t.socket().receive({ type: "caption", speaker: "nika", itemId: "n2", delta: "Que bom!" });
    expect(shown()).toEqual([
      ["learner", "Oi Nika"],
      ["nika", "Olá, tudo bem?"],
      ["learner", "Tudo ótimo"],
      ["nika", "Que bom!"],
    ]);
  });

  it("an empty transcript (a noise) leaves no caption", async () => {
    const t = setup();
    await t.startLive();
    t.socket().receive({ type: "speech_started" });
    t.socket().receive({ type: "caption", speaker: "learner", itemId: "u1", final: "  " });
    expect(t.snap().captions).toEqual([]);
  });
});

describe("credits", () => {
  it("shows the balance after each minute and warns during the last one", async () => {
    const t = setup({ balance: 3 });
    await t.startLive();
    t.socket().receive({ type: "minute", minute: 1, balance: 2, lastMinute: false });
    expect(t.snap()).toMatchObject({ balance: 2, warning: null });
    t.socket().receive({ type: "minute", minute: 2, balance: 0, lastMinute: true });
    expect(t.snap()).toMatchObject({ balance: 0, warning: "Falta 1 minuto de créditos." });
  });

  it("the last minute of the time limit is told apart from the last one of credits", async () => {
    const t = setup({ balance: 100 });
    await t.startLive();
    t.socket().receive({ type: "minute", minute: 15, balance: 85, lastMinute: true });
    expect(t.snap().warning).toBe(LIVE_TEXT.lastTimeMinute);
  });

  it("credits_exhausted ends the session and opens the dialog", async () => {
    const t = setup();
    await t.startLive();
    t.socket().receive({ type: "ended", reason: "credits_exhausted", message: END_MESSAGES.credits_exhausted });
    expect(t.snap()).toMatchObject({ status: "ended", creditsExhausted: true, balance: 0, endMessage: END_MESSAGES.credits_exhausted });
  });
});

describe("ending", () => {
  it("the relay's `ended` shows its message and lets go of microphone, player, socket and the page's audio", async () => {
    const t = setup();
    await t.startLive();
    const socket = t.socket();
    socket.receive({ type: "ended", reason: "silence", message: END_MESSAGES.silence });
    socket.drop(LIVE_CLOSE.silence);
    expect(t.snap()).toMatchObject({ status: "ended", endMessage: END_MESSAGES.silence });
    expect(t.captures[0]!.stopped).toBe(true);
    expect(t.player.closed).toBe(true);
    expect(socket.closedWith).toBe(1000);
    expect(t.env.releaseAudio).toHaveBeenCalledTimes(1);
  });

  it("a close code of the protocol without `ended` ends with that reason's message", async () => {
    const t = setup();
    await t.startLive();
    t.socket().drop(LIVE_CLOSE.providerUnavailable);
    expect(t.snap()).toMatchObject({ status: "ended", endMessage: END_MESSAGES.provider_unavailable });
    vi.advanceTimersByTime(20_000);
    expect(t.sockets).toHaveLength(1); // not a drop: no reconnection
  });

  it("'Encerrar' asks the relay to end and waits for it", async () => {
    const t = setup();
    await t.startLive();
    t.session.end();
    expect(t.socket().json().at(-1)).toEqual({ type: "end" });
    expect(t.captures[0]!.muted).toBe(true);
    expect(t.snap().status).toBe("listening");
    t.socket().receive({ type: "ended", reason: "ended", message: END_MESSAGES.ended });
    expect(t.snap()).toMatchObject({ status: "ended", endMessage: "Conversa encerrada." });
  });

  it("'Encerrar' ends here anyway when the relay does not answer", async () => {
    const t = setup();
    await t.startLive();
    t.session.end();
    vi.advanceTimersByTime(END_WAIT_MS);
    expect(t.snap()).toMatchObject({ status: "ended", endMessage: END_MESSAGES.ended });
  });

  it("'Encerrar' while the microphone is still opening releases it once it opens", async () => {
    const t = setup();
    const started = t.session.start();
    t.session.end();
    expect(t.snap().status).toBe("ended");
    await started;
    expect(t.captures[0]!.stopped).toBe(true);
    expect(t.sockets).toHaveLength(0);
  });

  it("leaving the page tells the relay and lets everything go", async () => {
    const t = setup();
    await t.startLive();
    t.session.dispose();
    expect(t.sockets[0]!.json().at(-1)).toEqual({ type: "end" });
    expect(t.captures[0]!.stopped).toBe(true);
    expect(t.env.releaseAudio).toHaveBeenCalledTimes(1);
  });

  it("a new conversation can start after one ended", async () => {
    const t = setup();
    await t.startLive();
    t.socket().receive({ type: "ended", reason: "ended", message: END_MESSAGES.ended });
    await t.startLive();
    expect(t.sockets).toHaveLength(2);
    expect(t.snap()).toMatchObject({ status: "listening", endMessage: null, captions: [] });
  });
});

describe("connection lost", () => {
  it("reconnects to the same session and goes on", async () => {
    const t = setup();
    await t.startLive();
    t.socket().drop();
    expect(t.snap().status).toBe("reconnecting");
    t.frame(); // nowhere to go
    vi.advanceTimersByTime(250);
    expect(t.sockets).toHaveLength(2);
    expect(t.socket().path).toBe(`/resources/live/${CONVERSATION}?resume=${SESSION}`);
    t.socket().open();
    t.socket().receive({ type: "ready", sessionId: SESSION, creditsPerMinute: 1, balance: 9, maxSeconds: 800, resumed: true });
    expect(t.snap().status).toBe("listening");
    t.frame();
    expect(t.sockets[1]!.audio()).toHaveLength(1);
    expect(t.sockets[0]!.audio()).toHaveLength(0);
  });

  it("keeps trying with growing waits, then gives up with 'Conexão perdida.' within the resume window", async () => {
    const t = setup();
    await t.startLive();
    const lostAt = Date.now();
    t.socket().drop();
    const attempts: number[] = [];
    while (t.snap().status === "reconnecting" && Date.now() - lostAt < 60_000) {
      const before = t.sockets.length;
      vi.advanceTimersByTime(50);
      if (t.sockets.length > before) {
        attempts.push(Date.now() - lostAt);
        t.socket().drop(); // refused or cut again
      }
    }
    expect(t.snap()).toMatchObject({ status: "ended", endMessage: LIVE_TEXT.connectionLost });
    expect(LIVE_TEXT.connectionLost).toBe("Conexão perdida.");
    expect(attempts.slice(0, 4)).toEqual([250, 750, 1750, 3750]);
    expect(attempts.at(-1)!).toBeLessThan(LIVE_LIMITS.resumeMs);
    expect(Date.now() - lostAt).toBeLessThanOrEqual(LIVE_LIMITS.resumeMs);
    const count = t.sockets.length;
    vi.advanceTimersByTime(30_000);
    expect(t.sockets).toHaveLength(count);
  });

  it("a mute survives a reconnection", async () => {
    const t = setup();
    await t.startLive();
    t.session.setMuted(true);
    t.socket().drop();
    vi.advanceTimersByTime(250);
    t.socket().open();
    t.socket().receive({ type: "ready", sessionId: SESSION, creditsPerMinute: 1, balance: 9, maxSeconds: 800, resumed: true });
    expect(t.captures[0]!.muted).toBe(true);
    expect(t.snap().muted).toBe(true);
  });
});

describe("microphone", () => {
  it("mute stops the capture's frames; unmute resumes", async () => {
    const t = setup();
    await t.startLive();
    t.session.setMuted(true);
    expect(t.captures[0]!.muted).toBe(true);
    expect(t.snap().muted).toBe(true);
    t.session.setMuted(false);
    expect(t.captures[0]!.muted).toBe(false);
  });

  it("frames are dropped while the socket is backed up (a burst would break the relay's rate limit)", async () => {
    const t = setup();
    await t.startLive();
    t.socket().bufferedAmount = MAX_BUFFERED_BYTES + 1;
    t.frame();
    expect(t.socket().audio()).toHaveLength(0);
    t.socket().bufferedAmount = 0;
    t.frame();
    expect(t.socket().audio()).toHaveLength(1);
  });

  it("pings every so often (a muted learner sends nothing else)", async () => {
    const t = setup();
    await t.startLive();
    vi.advanceTimersByTime(PING_EVERY_MS);
    expect(
      t
        .socket()
        .json()
        .filter((m) => m.type === "ping"),
    ).toHaveLength(1);
  });
});
