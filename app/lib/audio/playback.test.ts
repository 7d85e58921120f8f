import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  FORMAT_RETRY_DELAY_MS,
  INITIAL_PLAYBACK_SNAPSHOT,
  PLAYBACK_MESSAGES,
  PLAYBACK_SPEEDS,
  SILENT_WAV,
  createPlayback,
  isPlaybackSpeed,
  pausedWhileRecordingMessage,
  playback as singleton,
  type AudioLike,
  type SpeechLike,
  type UtteranceLike,
} from "./playback";

const domError = (name: string, message = "") => Object.assign(new Error(message), { name });

class FakeAudio implements AudioLike {
  src = "";
  muted = false;
  volume = 1;
  playbackRate = 1;
  defaultPlaybackRate = 1;
  paused = true;
  error: { code: number; message?: string } | null = null;
  loads = 0;
  plays: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  pauses = 0;
  private listeners = new Map<string, (() => void)[]>();

  play(): Promise<void> {
    this.paused = false;
    return new Promise((resolve, reject) => this.plays.push({ resolve, reject }));
  }
  pause() {
    this.pauses++;
    this.paused = true;
  }
  load() {
    this.loads++;
    this.playbackRate = this.defaultPlaybackRate;
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string) {
    this.listeners.get(type)?.forEach((l) => l());
  }
  lastPlay() {
    return this.plays[this.plays.length - 1]!;
  }
  failWith(code: number, message = "") {
    this.error = { code, message };
    this.emit("error");
  }
}

class FakeSpeech implements SpeechLike {
  paused = false;
  spoken: UtteranceLike[] = [];
  cancels = 0;
  pauses = 0;
  resumes = 0;
  speak(u: UtteranceLike) {
    this.spoken.push(u);
  }
  cancel() {
    this.cancels++;
    this.spoken.forEach((u) => u.onerror?.({ error: "interrupted" }));
  }
  pause() {
    this.pauses++;
    this.paused = true;
  }
  resume() {
    this.resumes++;
    this.paused = false;
  }
  last() {
    return this.spoken[this.spoken.length - 1]!;
  }
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

function setup({ mobile = false } = {}) {
  const audios: FakeAudio[] = [];
  const speech = new FakeSpeech();
  const context = { state: "suspended", resume: vi.fn(async () => {}) };
  const createAudioContext = vi.fn(() => context);
  const p = createPlayback({
    createAudio: () => {
      const a = new FakeAudio();
      audios.push(a);
      return a;
    },
    speech: () => speech,
    createUtterance: (text) => ({
      text,
      lang: "",
      rate: 1,
      volume: 1,
      onstart: null,
      onend: null,
      onerror: null,
      onboundary: null,
    }),
    createAudioContext,
    isMobile: () => mobile,
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  });
  const el = () => {
    expect(audios).toHaveLength(1);
    return audios[0]!;
  };
  return { p, audios, speech, context, createAudioContext, el };
}

const mp3 = { src: "https://cdn.example/a.mp3", text: "Olá!", lang: "pt" as const };

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("store", () => {
  it("starts idle and keeps one snapshot object until something changes", () => {
    const { p } = setup();
    expect(p.getSnapshot()).toBe(INITIAL_PLAYBACK_SNAPSHOT);
    expect(p.getSnapshot()).toEqual({ activeId: null, state: "idle", error: null, recording: false, speed: 1 });
    const listener = vi.fn();
    const unsubscribe = p.subscribe(listener);
    p.setSpeed(1); // no change
    expect(listener).not.toHaveBeenCalled();
    expect(p.getSnapshot()).toBe(INITIAL_PLAYBACK_SNAPSHOT);
    p.setSpeed(0.5);
    expect(listener).toHaveBeenCalledTimes(1);
    const after = p.getSnapshot();
    expect(p.getSnapshot()).toBe(after);
    unsubscribe();
    p.setSpeed(0.75);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe("media playback", () => {
  it("goes loading → playing → paused → playing → idle on one shared element", async () => {
    const { p, el } = setup();
    p.play("m1", mp3);
    const a = el();
    expect(a.src).toBe(mp3.src);
    expect(a.loads).toBe(1);
    expect(p.getSnapshot()).toMatchObject({ activeId: "m1", state: "loading", error: null });
    a.lastPlay().resolve();
    await flush();
    expect(p.getSnapshot().state).toBe("playing");

    p.pause();
    expect(a.paused).toBe(true);
    expect(p.getSnapshot().state).toBe("paused");
    p.resume();
    expect(a.plays).toHaveLength(2);
    a.emit("playing");
    expect(p.getSnapshot().state).toBe("playing");

    a.emit("pause");
    a.emit("ended");
    expect(p.getSnapshot()).toMatchObject({ activeId: null, state: "idle", error: null });
  });

  it("reuses the element and pauses the previous message when another one plays", async () => {
    const { p, audios } = setup();
    p.play("m1", mp3);
    audios[0]!.lastPlay().resolve();
    await flush();
    const pausesBefore = audios[0]!.pauses;
    p.play("m2", { ...mp3, src: "https://cdn.example/b.mp3" });
    expect(audios).toHaveLength(1);
    expect(audios[0]!.pauses).toBeGreaterThan(pausesBefore);
    expect(audios[0]!.src).toBe("https://cdn.example/b.mp3");
    expect(p.getSnapshot()).toMatchObject({ activeId: "m2", state: "loading" });
    // the stale pause event of m1 must not pause m2
    audios[0]!.emit("pause");
    expect(p.getSnapshot().state).toBe("loading");
  });

  it("a queued 'playing' event does not undo a pause", () => {
    const { p, el } = setup();
    p.play("m1", mp3);
    p.pause();
    el().emit("playing");
    expect(p.getSnapshot().state).toBe("paused");
  });

  it("an AbortError from play() (interrupted by pause) is not an error", async () => {
    const { p, el } = setup();
    p.play("m1", mp3);
    p.pause();
    el().lastPlay().reject(domError("AbortError"));
    await flush();
    expect(p.getSnapshot()).toMatchObject({ state: "paused", error: null });
  });

  it.each([
    [false, "NotAllowedError", PLAYBACK_MESSAGES.playback],
    [true, "NotAllowedError", "Mobile audio playback failed - please try again"],
    [true, "SomethingElse", "Playback error"],
  ])("mobile=%s, play() rejects with %s → %s", async (mobile, name, message) => {
    const { p, el } = setup({ mobile });
    p.play("m1", mp3);
    el().lastPlay().reject(domError(name));
    await flush();
    expect(p.getSnapshot()).toMatchObject({ activeId: "m1", state: "error", error: message });
  });
});

describe("format issue", () => {
  it("retries once after exactly 1000 ms, then shows 'Audio error: {msg}'", async () => {
    const { p, el } = setup();
    expect(FORMAT_RETRY_DELAY_MS).toBe(1000);
    p.play("m1", mp3);
    const a = el();
    a.failWith(4);
    expect(p.getSnapshot()).toMatchObject({ state: "error", error: "Audio format issue - retrying..." });
    vi.advanceTimersByTime(999);
    expect(a.loads).toBe(1);
    vi.advanceTimersByTime(1);
    expect(a.loads).toBe(2);
    expect(a.src).toBe(mp3.src);
    expect(p.getSnapshot()).toMatchObject({ state: "loading", error: null });

    a.failWith(4, "MEDIA_ELEMENT_ERROR: Format error");
    expect(p.getSnapshot()).toMatchObject({ state: "error", error: "Audio error: MEDIA_ELEMENT_ERROR: Format error" });
    vi.advanceTimersByTime(10_000);
    expect(a.loads).toBe(2);
    expect(p.getSnapshot().error).toBe("Audio error: MEDIA_ELEMENT_ERROR: Format error");
  });

  it("treats NotSupportedError from play() as a format issue, counting a duplicate error event once", async () => {
    const { p, el } = setup();
    p.play("m1", mp3);
    const a = el();
    a.lastPlay().reject(domError("NotSupportedError", "The element has no supported sources."));
    await flush();
    a.failWith(4); // the same failure reported again by the element
    expect(p.getSnapshot().error).toBe(PLAYBACK_MESSAGES.formatRetrying);
    vi.advanceTimersByTime(1000);
    expect(a.loads).toBe(2);
    a.lastPlay().reject(domError("NotSupportedError", "The element has no supported sources."));
    await flush();
    expect(p.getSnapshot().error).toBe("Audio error: The element has no supported sources.");
    vi.advanceTimersByTime(5000);
    expect(a.loads).toBe(2);
  });

  it("other media errors fail at once without retry", () => {
    const { p, el } = setup();
    p.play("m1", mp3);
    el().failWith(2);
    expect(p.getSnapshot().error).toBe("Audio error: network error");
    vi.advanceTimersByTime(2000);
    expect(el().loads).toBe(1);
  });
});

describe("load timeout", () => {
  it.each([
    [false, "blob:https://app/x", 5000],
    [false, "https://cdn.example/a.mp3", 5000],
    [true, "https://cdn.example/a.mp3", 5000],
    [true, "blob:https://app/x", 10_000],
  ])("mobile=%s %s waits %i ms for canplay", (mobile, src, ms) => {
    const { p } = setup({ mobile });
    p.play("m1", { ...mp3, src });
    vi.advanceTimersByTime(ms - 1);
    expect(p.getSnapshot().state).toBe("loading");
    vi.advanceTimersByTime(1);
    expect(p.getSnapshot()).toMatchObject({ state: "error", error: "Audio load timeout" });
  });

  it("canplay cancels the timeout", () => {
    const { p, el } = setup();
    p.play("m1", mp3);
    el().emit("canplay");
    vi.advanceTimersByTime(20_000);
    expect(p.getSnapshot().state).toBe("loading");
  });
});

describe("speech synthesis fallback", () => {
  it("speaks the text with pt-BR / en-US at the current speed when there is no audio URL", () => {
    const { p, speech, audios } = setup();
    p.setSpeed(0.75);
    p.play("m1", { src: null, text: "Olá, tudo bem?", lang: "pt" });
    expect(audios).toHaveLength(0);
    const u = speech.last();
    expect(u).toMatchObject({ text: "Olá, tudo bem?", lang: "pt-BR", rate: 0.75 });
    expect(p.getSnapshot()).toMatchObject({ activeId: "m1", state: "loading" });
    u.onstart?.();
    expect(p.getSnapshot().state).toBe("playing");

    p.play("m2", { src: null, text: "Hello", lang: "en" });
    expect(speech.last()).toMatchObject({ text: "Hello", lang: "en-US", rate: 0.75 });
    expect(p.getSnapshot()).toMatchObject({ activeId: "m2", state: "loading", error: null });
    speech.last().onstart?.();
    speech.last().onend?.();
    expect(p.getSnapshot()).toMatchObject({ activeId: null, state: "idle" });
  });

  it("pauses/resumes synthesis and reports real synthesis errors", () => {
    const { p, speech } = setup();
    p.play("m1", { src: null, text: "Hi", lang: "en" });
    speech.last().onstart?.();
    p.pause();
    expect(speech.pauses).toBe(1);
    expect(p.getSnapshot().state).toBe("paused");
    p.resume();
    expect(speech.resumes).toBe(1);
    expect(p.getSnapshot().state).toBe("playing");
    speech.last().onerror?.({ error: "synthesis-failed" });
    expect(p.getSnapshot()).toMatchObject({ state: "error", error: "Audio error: synthesis-failed" });
  });

  it("an empty src also falls back to speech", () => {
    const { p, speech } = setup();
    p.play("m1", { src: "  ", text: "Oi", lang: "pt" });
    expect(speech.last().text).toBe("Oi");
  });
});

describe("volume", () => {
  it("plays a request at its volume (clamped to 0–1) and the next one at full volume again", () => {
    const { p, el } = setup();
    p.play("feedback", { ...mp3, volume: 0.7 });
    expect(el().volume).toBe(0.7);
    p.play("word", mp3);
    expect(el().volume).toBe(1);
    p.play("loud", { ...mp3, volume: 3 });
    expect(el().volume).toBe(1);
    p.play("odd", { ...mp3, volume: Number.NaN });
    expect(el().volume).toBe(0);
  });

  it("gives the volume to a spoken fallback too", () => {
    const { p, speech } = setup();
    p.play("w", { src: null, text: "dog", lang: "en", volume: 0.7 });
    expect(speech.last()).toMatchObject({ text: "dog", lang: "en-US", volume: 0.7 });
  });
});

describe("speed", () => {
  it("accepts exactly 0.5, 0.75 and 1", () => {
    const { p } = setup();
    expect(PLAYBACK_SPEEDS).toEqual([0.5, 0.75, 1]);
    expect(isPlaybackSpeed(0.75)).toBe(true);
    expect(isPlaybackSpeed(2)).toBe(false);
    for (const bad of [0, 0.25, 1.25, 1.5, 2, Number.NaN]) {
      expect(p.setSpeed(bad)).toBe(false);
      expect(p.getSnapshot().speed).toBe(1);
    }
    for (const good of PLAYBACK_SPEEDS) {
      expect(p.setSpeed(good)).toBe(true);
      expect(p.getSnapshot().speed).toBe(good);
    }
  });

  it("applies playbackRate to the element, including after load()", () => {
    const { p, el } = setup();
    p.setSpeed(0.5);
    p.play("m1", mp3);
    expect(el().playbackRate).toBe(0.5);
    p.setSpeed(0.75);
    expect(el().playbackRate).toBe(0.75);
    expect(el().defaultPlaybackRate).toBe(0.75);
  });

  it("continues speech from the last word boundary at the new rate", () => {
    const { p, speech } = setup();
    p.play("m1", { src: null, text: "Hello there friend", lang: "en" });
    speech.last().onstart?.();
    speech.last().onboundary?.({ charIndex: 6 });
    p.setSpeed(0.5);
    expect(speech.last()).toMatchObject({ text: "there friend", rate: 0.5, lang: "en-US" });
    expect(p.getSnapshot()).toMatchObject({ state: "playing", error: null });
    speech.last().onend?.();
    expect(p.getSnapshot().state).toBe("idle");
  });
});

describe("recording", () => {
  it("pauses playing audio, refuses new playback, and restores it on stop", async () => {
    const { p, el } = setup();
    p.play("m1", mp3);
    el().lastPlay().resolve();
    await flush();
    p.beginRecording();
    expect(el().paused).toBe(true);
    expect(p.getSnapshot()).toMatchObject({ activeId: "m1", state: "paused", recording: true });

    p.play("m2", { ...mp3, src: "https://cdn.example/b.mp3" });
    expect(p.getSnapshot()).toMatchObject({
      activeId: "m2",
      state: "error",
      error: "Cannot play audio while recording or blocked",
    });
    expect(el().src).toBe(mp3.src);

    const playsBefore = el().plays.length;
    p.endRecording();
    expect(el().plays.length).toBe(playsBefore + 1);
    expect(p.getSnapshot()).toMatchObject({ activeId: "m1", state: "loading", recording: false, error: null });
    el().emit("playing");
    expect(p.getSnapshot().state).toBe("playing");
  });

  it("pauses and resumes speech synthesis", () => {
    const { p, speech } = setup();
    p.play("m1", { src: null, text: "Hi", lang: "en" });
    speech.last().onstart?.();
    p.beginRecording();
    expect(speech.pauses).toBe(1);
    expect(p.getSnapshot().state).toBe("paused");
    p.endRecording();
    expect(speech.resumes).toBe(1);
    expect(p.getSnapshot()).toMatchObject({ state: "playing", recording: false });
  });

  it("does not start anything on stop when nothing was playing, and clears the refusal", () => {
    const { p, audios } = setup();
    p.beginRecording();
    p.play("m1", mp3);
    expect(audios).toHaveLength(0);
    expect(p.getSnapshot().error).toBe(PLAYBACK_MESSAGES.blocked);
    p.endRecording();
    expect(audios).toHaveLength(0);
    expect(p.getSnapshot()).toEqual(INITIAL_PLAYBACK_SNAPSHOT);
  });

  it("leaves a user-paused message paused", async () => {
    const { p, el } = setup();
    p.play("m1", mp3);
    el().lastPlay().resolve();
    await flush();
    p.pause();
    const plays = el().plays.length;
    p.beginRecording();
    p.endRecording();
    expect(el().plays.length).toBe(plays);
    expect(p.getSnapshot().state).toBe("paused");
  });

  it("holds a pending format retry until recording stops", () => {
    const { p, el } = setup();
    p.play("m1", mp3);
    el().failWith(4);
    p.beginRecording();
    vi.advanceTimersByTime(5000);
    expect(el().loads).toBe(1);
    p.endRecording();
    expect(el().loads).toBe(2);
    expect(p.getSnapshot()).toMatchObject({ state: "loading", error: null });
    el().failWith(4);
    expect(p.getSnapshot().error).toBe("Audio error: format not supported");
  });

  it("does not time out while paused for recording", () => {
    const { p } = setup();
    p.play("m1", mp3);
    p.beginRecording();
    vi.advanceTimersByTime(60_000);
    expect(p.getSnapshot()).toMatchObject({ state: "paused", error: null });
  });
});

describe("pausedWhileRecordingMessage", () => {
  it.each([
    [null, true, "Audio paused while recording"],
    ["Cannot play audio while recording or blocked", false, "Audio paused while recording"],
    ["Audio format issue - retrying...", false, "Audio paused while recording"],
    ["Audio load timeout", false, null],
    ["Playback error", false, null],
    ["Audio error: network error", false, null],
    [null, false, null],
  ])("%s, recording=%s → %s", (error, recording, expected) => {
    expect(pausedWhileRecordingMessage(error, recording)).toBe(expected);
  });
});

describe("unlock", () => {
  it("resumes an AudioContext and plays+pauses a muted silent clip", async () => {
    const { p, el, context, createAudioContext } = setup();
    p.unlock();
    expect(createAudioContext).toHaveBeenCalledTimes(1);
    expect(context.resume).toHaveBeenCalledTimes(1);
    const a = el();
    expect(a.src).toBe(SILENT_WAV);
    expect(a.muted).toBe(true);
    a.emit("playing"); // not about any message
    expect(p.getSnapshot()).toBe(INITIAL_PLAYBACK_SNAPSHOT);
    a.lastPlay().resolve();
    await flush();
    expect(a.paused).toBe(true);

    p.unlock();
    expect(createAudioContext).toHaveBeenCalledTimes(1);
    expect(a.plays).toHaveLength(1);

    p.play("m1", mp3);
    expect(a).toMatchObject({ src: mp3.src, muted: false });
  });

  it("shares its AudioContext: audioContext() returns the one unlock() made, or makes it on first use", () => {
    const { p, context, createAudioContext } = setup();
    p.unlock();
    expect(p.audioContext()).toBe(context);
    expect(createAudioContext).toHaveBeenCalledTimes(1);

    const fresh = setup();
    expect(fresh.p.audioContext()).toBe(fresh.context);
    fresh.p.unlock();
    expect(fresh.p.audioContext()).toBe(fresh.context);
    expect(fresh.createAudioContext).toHaveBeenCalledTimes(1);
    expect(fresh.context.resume).toHaveBeenCalledTimes(1);
  });

  it("audioContext() is null without Web Audio", () => {
    expect(createPlayback({ createAudioContext: () => null }).audioContext()).toBeNull();
    const throwing = createPlayback({
      createAudioContext: () => {
        throw new Error("no");
      },
    });
    expect(throwing.audioContext()).toBeNull();
  });

  it("does not touch the element while a message is playing", () => {
    const { p, el } = setup();
    p.play("m1", mp3);
    p.unlock();
    expect(el().src).toBe(mp3.src);
    expect(el().plays).toHaveLength(1);
  });

  it("ignores failures", async () => {
    const p = createPlayback({
      createAudioContext: () => {
        throw new Error("no");
      },
      createAudio: () => {
        throw new Error("no");
      },
      speech: () => null,
    });
    expect(() => p.unlock()).not.toThrow();
  });
});

describe("without browser globals (node/SSR)", () => {
  it("the singleton imports and reports an error instead of throwing", () => {
    expect(singleton.getSnapshot()).toBe(INITIAL_PLAYBACK_SNAPSHOT);
    const p = createPlayback();
    expect(() => p.unlock()).not.toThrow();
    p.play("m1", mp3);
    expect(p.getSnapshot()).toMatchObject({ state: "error", error: "Playback error" });
    p.play("m2", { src: null, text: "Oi", lang: "pt" });
    expect(p.getSnapshot()).toMatchObject({ activeId: "m2", state: "error", error: "Playback error" });
  });
});
