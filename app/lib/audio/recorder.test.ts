import { afterEach, describe, expect, it, vi } from "vitest";
import {
  MICROPHONE_TOAST_TITLE,
  MIME_PREFERENCE,
  classifyMicrophoneError,
  createRecorder,
  mapMicrophoneError,
  microphoneConstraints,
  pickMimeType,
  recordToWav,
} from "./recorder";
import { readWav } from "./wav";

describe("pickMimeType", () => {
  it("returns the first supported type in the spec's order", () => {
    expect(MIME_PREFERENCE).toEqual(["audio/mp4", "audio/mpeg", "audio/wav", "audio/webm;codecs=opus", "audio/webm", "audio/ogg"]);
    expect(pickMimeType(() => true)).toBe("audio/mp4");
    expect(pickMimeType((t) => t.startsWith("audio/webm"))).toBe("audio/webm;codecs=opus");
    expect(pickMimeType((t) => t === "audio/webm" || t === "audio/ogg")).toBe("audio/webm");
    expect(pickMimeType((t) => t === "audio/ogg")).toBe("audio/ogg");
    expect(pickMimeType(() => false)).toBeUndefined();
  });

  it("asks in order and treats a throwing check as unsupported", () => {
    const asked: string[] = [];
    const result = pickMimeType((t) => {
      asked.push(t);
      if (t === "audio/mp4") throw new Error("boom");
      return t === "audio/wav";
    });
    expect(result).toBe("audio/wav");
    expect(asked).toEqual(["audio/mp4", "audio/mpeg", "audio/wav"]);
  });
});

describe("microphoneConstraints", () => {
  it("asks for 44.1 kHz mono with echo cancellation and noise suppression", () => {
    expect(microphoneConstraints).toEqual({
      audio: { sampleRate: 44100, channelCount: 1, echoCancellation: true, noiseSuppression: true },
    });
  });
});

describe("mapMicrophoneError", () => {
  const err = (name: string) => Object.assign(new Error("x"), { name });
  it.each([
    ["NotAllowedError", "Microphone permission denied. Please allow microphone access and try again."],
    ["PermissionDeniedError", "Microphone permission denied. Please allow microphone access and try again."],
    ["NotFoundError", "No microphone found. Please connect a microphone and try again."],
    ["NotReadableError", "Microphone is being used by another application."],
    ["OverconstrainedError", "Microphone settings not supported."],
    ["AbortError", "Failed to access microphone. Please check your permissions and try again."],
  ])("%s → spec text", (name, message) => {
    expect(mapMicrophoneError(err(name))).toBe(message);
  });

  it("defaults for non-errors", () => {
    const generic = "Failed to access microphone. Please check your permissions and try again.";
    expect(mapMicrophoneError(undefined)).toBe(generic);
    expect(mapMicrophoneError("NotAllowedError")).toBe(generic);
    expect(mapMicrophoneError({ name: 42 })).toBe(generic);
    expect(MICROPHONE_TOAST_TITLE).toBe("Erro no Microfone");
  });
});

describe("classifyMicrophoneError", () => {
  const err = (name: string) => Object.assign(new Error("x"), { name });
  it.each([
    ["NotAllowedError", "denied"],
    ["PermissionDeniedError", "denied"],
    ["NotFoundError", "notFound"],
    ["DevicesNotFoundError", "notFound"],
    ["NotReadableError", "busy"],
    ["TrackStartError", "busy"],
    ["OverconstrainedError", "overconstrained"],
    ["ConstraintNotSatisfiedError", "overconstrained"],
    ["AbortError", "generic"],
  ])("%s → %s", (name, problem) => {
    expect(classifyMicrophoneError(err(name))).toBe(problem);
  });

  it("anything that is not a named error is generic", () => {
    expect(classifyMicrophoneError(undefined)).toBe("generic");
    expect(classifyMicrophoneError("NotFoundError")).toBe("generic");
  });
});

// --- the DOM-dependent controller, with small fakes ---------------------------------------------

class FakeTrack {
  stopped = false;
  stop() {
    this.stopped = true;
  }
}

function fakeStream() {
  const track = new FakeTrack();
  return { track, stream: { getTracks: () => [track] } as unknown as MediaStream };
}

class FakeMediaRecorder {
  static instances: FakeMediaRecorder[] = [];
  static isTypeSupported = (t: string) => t === "audio/webm;codecs=opus";
  state: "inactive" | "recording" = "inactive";
  mimeType: string;
  timeslice: number | undefined;
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(
    public stream: MediaStream,
    public options: MediaRecorderOptions,
  ) {
    this.mimeType = options.mimeType ?? "";
    FakeMediaRecorder.instances.push(this);
  }
  start(timeslice?: number) {
    this.timeslice = timeslice;
    this.state = "recording";
  }
  stop() {
    this.state = "inactive";
    this.ondataavailable?.({ data: new Blob([new Uint8Array(600)]) });
    this.ondataavailable?.({ data: new Blob([]) });
    this.ondataavailable?.({ data: new Blob([new Uint8Array(600)]) });
    this.onstop?.();
  }
}

function fakeDoc() {
  const listeners = new Set<() => void>();
  return {
    visibilityState: "visible" as DocumentVisibilityState,
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
    fire() {
      listeners.forEach((fn) => fn());
    },
    listeners,
  };
}

describe("Recorder", () => {
  afterEach(() => {
    FakeMediaRecorder.instances = [];
    vi.useRealTimers();
  });

  it("records with 128 kbps, 250 ms chunks and the picked type; stop yields the Blob and releases", async () => {
    const { stream, track } = fakeStream();
    const states: string[] = [];
    const getUserMedia = vi.fn(async () => stream);
    const doc = fakeDoc();
    const rec = createRecorder({
      getUserMedia,
      MediaRecorderImpl: FakeMediaRecorder as unknown as typeof MediaRecorder,
      doc: doc as unknown as Document,
      onStateChange: (s) => states.push(s),
    });
    expect(await rec.start()).toBe(true);
    expect(getUserMedia).toHaveBeenCalledWith(microphoneConstraints);
    const mr = FakeMediaRecorder.instances[0]!;
    expect(mr.options).toEqual({ mimeType: "audio/webm;codecs=opus", audioBitsPerSecond: 128000 });
    expect(mr.timeslice).toBe(250);
    expect(doc.listeners.size).toBe(1);

    const blob = await rec.stop();
    expect(blob.size).toBe(1200);
    expect(blob.type).toBe("audio/webm;codecs=opus");
    expect(track.stopped).toBe(true);
    expect(doc.listeners.size).toBe(0);
    expect(states).toEqual(["recording", "stopped"]);
  });

  it("reports the mapped getUserMedia error", async () => {
    const onError = vi.fn();
    const rec = createRecorder({
      getUserMedia: () => Promise.reject(Object.assign(new Error("no"), { name: "NotAllowedError" })),
      MediaRecorderImpl: FakeMediaRecorder as unknown as typeof MediaRecorder,
      doc: fakeDoc() as unknown as Document,
      onError,
    });
    expect(await rec.start()).toBe(false);
    expect(onError).toHaveBeenCalledWith("Microphone permission denied. Please allow microphone access and try again.");
  });

  it("reports 'Recording failed - please try again' when MediaRecorder errors", async () => {
    const { stream, track } = fakeStream();
    const onError = vi.fn();
    const rec = createRecorder({
      getUserMedia: async () => stream,
      MediaRecorderImpl: FakeMediaRecorder as unknown as typeof MediaRecorder,
      doc: fakeDoc() as unknown as Document,
      onError,
    });
    await rec.start();
    FakeMediaRecorder.instances[0]!.onerror?.();
    expect(onError).toHaveBeenCalledWith("Recording failed - please try again");
    expect(track.stopped).toBe(true);
  });

  it("releases the stream after 30 s hidden, not before, and not if visible again", async () => {
    vi.useFakeTimers();
    const first = fakeStream();
    const doc = fakeDoc();
    const rec = createRecorder({
      getUserMedia: async () => first.stream,
      MediaRecorderImpl: FakeMediaRecorder as unknown as typeof MediaRecorder,
      doc: doc as unknown as Document,
    });
    await rec.start();
    doc.visibilityState = "hidden";
    doc.fire();
    vi.advanceTimersByTime(20_000);
    doc.visibilityState = "visible";
    doc.fire();
    vi.advanceTimersByTime(20_000);
    expect(first.track.stopped).toBe(false);

    doc.visibilityState = "hidden";
    doc.fire();
    vi.advanceTimersByTime(29_999);
    expect(first.track.stopped).toBe(false);
    vi.advanceTimersByTime(1);
    expect(first.track.stopped).toBe(true);
    expect(rec.state).toBe("stopped");
  });
});

describe("recordToWav", () => {
  const decoded = (seconds: number) => {
    const data = new Float32Array(Math.round(44100 * seconds)).map((_, i) => Math.sin(i / 10) * 0.5);
    return {
      duration: seconds,
      length: data.length,
      numberOfChannels: 1,
      sampleRate: 44100,
      getChannelData: () => data,
    } as unknown as AudioBuffer;
  };

  it("decodes, renders to 16 kHz mono and encodes a valid WAV", async () => {
    const result = await recordToWav(new Blob([new Uint8Array(2000)], { type: "audio/webm" }), async () => decoded(1));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.wav.type).toBe("audio/wav");
    expect(result.wav.size).toBe(44 + 32000);
    expect(readWav(new Uint8Array(await result.wav.arrayBuffer()))).toMatchObject({
      format: 1,
      channels: 1,
      sampleRate: 16000,
      bitsPerSample: 16,
      seconds: 1,
      canonical: true,
    });
  });

  it("rejects an empty recording and a WAV below 1 024 bytes", async () => {
    expect(await recordToWav(new Blob([]), async () => decoded(1))).toEqual({
      ok: false,
      message: "Recording is empty - please try again",
    });
    const tiny = await recordToWav(new Blob([new Uint8Array(10)]), async () => decoded(0.01));
    expect(tiny.ok).toBe(false);
  });

  it("reports 'Failed to process recording' when decoding fails", async () => {
    expect(await recordToWav(new Blob([new Uint8Array(10)]), () => Promise.reject(new Error("EncodingError")))).toEqual({
      ok: false,
      message: "Failed to process recording",
    });
  });
});
