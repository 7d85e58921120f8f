import { afterEach, describe, expect, it, vi } from "vitest";
import { LIVE_CAPTURE_PROCESSOR, LiveCaptureError, liveMicrophoneConstraints, startLiveCapture, type CaptureNode } from "./live-capture";
import type { LiveCaptureProcessorOptions } from "./live-capture.worklet";
import { pcm16ToFloat } from "./pcm";

const domError = (name: string) => Object.assign(new Error(name), { name });

// --- the worklet itself, on a stand-in AudioWorkletGlobalScope ---------------------------------

type Processor = { port: FakePort; process(inputs: Float32Array[][]): boolean };
type FakePort = {
  posted: { message: unknown; transfer?: unknown[] }[];
  onmessage: ((event: { data: unknown }) => void) | null;
  postMessage(m: unknown, t?: unknown[]): void;
};

async function loadWorklet(deviceRate: number) {
  const registered = new Map<string, new (options: { processorOptions: LiveCaptureProcessorOptions }) => Processor>();
  class AudioWorkletProcessor {
    readonly port: FakePort = {
      posted: [],
      onmessage: null,
      postMessage(message, transfer) {
        this.posted.push({ message, transfer });
      },
    };
  }
  vi.stubGlobal("sampleRate", deviceRate);
  vi.stubGlobal("AudioWorkletProcessor", AudioWorkletProcessor);
  vi.stubGlobal("registerProcessor", (name: string, processor: never) => registered.set(name, processor));
  vi.resetModules();
  await import("./live-capture.worklet");
  return registered;
}

afterEach(() => vi.unstubAllGlobals());

describe("live-capture worklet", () => {
  it("registers the processor live-capture.ts asks for", async () => {
    const registered = await loadWorklet(48_000);
    expect([...registered.keys()]).toEqual([LIVE_CAPTURE_PROCESSOR]);
  });

  it("turns 128-sample blocks at the device's rate into transferred 40 ms PCM16 frames at 24 kHz", async () => {
    const Processor = (await loadWorklet(48_000)).get(LIVE_CAPTURE_PROCESSOR)!;
    const processor = new Processor({ processorOptions: { targetRate: 24_000, frameSamples: 960 } });
    const block = new Float32Array(128).fill(0.5);
    for (let i = 0; i < 14; i++) expect(processor.process([[block]])).toBe(true);
    expect(processor.port.posted).toHaveLength(0); // 14 × 64 = 896 samples: not a frame yet
    processor.process([[block]]);
    expect(processor.port.posted).toHaveLength(1);
    const { message, transfer } = processor.port.posted[0]!;
    expect(message).toBeInstanceOf(ArrayBuffer);
    expect((message as ArrayBuffer).byteLength).toBe(1920);
    expect(transfer).toEqual([message]);
    expect(pcm16ToFloat(message as ArrayBuffer).every((v) => Math.abs(v - 0.5) < 1e-4)).toBe(true);
  });

  it("at 44.1 kHz posts one frame per 40 ms of input, on average", async () => {
    const Processor = (await loadWorklet(44_100)).get(LIVE_CAPTURE_PROCESSOR)!;
    const processor = new Processor({ processorOptions: { targetRate: 24_000, frameSamples: 960 } });
    const blocks = Math.ceil((44_100 * 2) / 128); // two seconds
    for (let i = 0; i < blocks; i++) processor.process([[new Float32Array(128)]]);
    expect(processor.port.posted).toHaveLength(50);
  });

  it("posts nothing while muted or without an input, and starts clean after unmuting", async () => {
    const Processor = (await loadWorklet(48_000)).get(LIVE_CAPTURE_PROCESSOR)!;
    const processor = new Processor({ processorOptions: { targetRate: 24_000, frameSamples: 960 } });
    for (let i = 0; i < 10; i++) processor.process([[new Float32Array(128).fill(-1)]]);
    processor.port.onmessage!({ data: { muted: true } });
    for (let i = 0; i < 100; i++) processor.process([[new Float32Array(128)]]);
    expect(processor.process([])).toBe(true);
    expect(processor.port.posted).toHaveLength(0);
    processor.port.onmessage!({ data: { muted: false } });
    for (let i = 0; i < 15; i++) processor.process([[new Float32Array(128).fill(0.25)]]);
    expect(processor.port.posted).toHaveLength(1);
    // Nothing of the audio from before the mute (−1) is in the first frame after it.
    expect(pcm16ToFloat(processor.port.posted[0]!.message as ArrayBuffer).every((v) => v > 0.2)).toBe(true);
  });
});

// --- startLiveCapture, with a fake context, node and stream ------------------------------------

function setup({ getUserMedia }: { getUserMedia?: (c: MediaStreamConstraints) => Promise<MediaStream> } = {}) {
  const tracks = [
    {
      stopped: false,
      stop: vi.fn(function (this: { stopped: boolean }) {
        this.stopped = true;
      }),
    },
  ];
  const stream = { getTracks: () => tracks } as unknown as MediaStream;
  const source = { connect: vi.fn(), disconnect: vi.fn() };
  const context = { audioWorklet: { addModule: vi.fn(async () => {}) }, createMediaStreamSource: vi.fn(() => source) };
  const posted: unknown[] = [];
  let nodeOptions: LiveCaptureProcessorOptions | null = null;
  const node: CaptureNode = {
    port: { postMessage: (m) => posted.push(m), onmessage: null, close: vi.fn() },
    disconnect: vi.fn(),
  };
  const frames: ArrayBuffer[] = [];
  const gum = vi.fn(getUserMedia ?? (async () => stream));
  const start = () =>
    startLiveCapture({
      context,
      targetRate: 24_000,
      frameSamples: 960,
      onFrame: (frame) => frames.push(frame),
      getUserMedia: gum,
      moduleUrl: "/worklet.js",
      createNode: (_context, options) => {
        nodeOptions = options;
        return node;
      },
    });
  const deliver = (frame = new ArrayBuffer(1920)) => node.port.onmessage?.({ data: frame } as MessageEvent);
  return { start, tracks, source, context, node, posted, frames, gum, deliver, options: () => nodeOptions };
}

describe("startLiveCapture", () => {
  it("asks for one echo-cancelled, noise-suppressed, gain-controlled channel", async () => {
    expect(liveMicrophoneConstraints).toEqual({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
    const t = setup();
    await t.start();
    expect(t.gum).toHaveBeenCalledWith(liveMicrophoneConstraints);
  });

  it("wires microphone → worklet (with the target rate and frame size) and hands over its frames", async () => {
    const t = setup();
    await t.start();
    expect(t.context.audioWorklet.addModule).toHaveBeenCalledWith("/worklet.js");
    expect(t.options()).toEqual({ targetRate: 24_000, frameSamples: 960 });
    expect(t.source.connect).toHaveBeenCalledWith(t.node);
    t.deliver();
    t.deliver();
    expect(t.frames).toHaveLength(2);
  });

  it("adds the worklet module to a context once", async () => {
    const t = setup();
    (await t.start()).stop();
    await t.start();
    expect(t.context.audioWorklet.addModule).toHaveBeenCalledTimes(1);
  });

  it("mute tells the worklet and drops frames already on their way; the track stays open", async () => {
    const t = setup();
    const capture = await t.start();
    capture.setMuted(true);
    expect(capture.muted).toBe(true);
    expect(t.posted).toEqual([{ muted: true }]);
    t.deliver();
    expect(t.frames).toHaveLength(0);
    expect(t.tracks[0]!.stopped).toBe(false);
    capture.setMuted(true);
    expect(t.posted).toHaveLength(1);
    capture.setMuted(false);
    expect(t.posted).toEqual([{ muted: true }, { muted: false }]);
    t.deliver();
    expect(t.frames).toHaveLength(1);
  });

  it("stop releases the microphone and the graph, and nothing arrives after it", async () => {
    const t = setup();
    const capture = await t.start();
    capture.stop();
    expect(t.tracks[0]!.stopped).toBe(true);
    expect(t.source.disconnect).toHaveBeenCalled();
    expect(t.node.disconnect).toHaveBeenCalled();
    expect(t.node.port.close).toHaveBeenCalled();
    t.deliver();
    expect(t.frames).toHaveLength(0);
    capture.stop();
    expect(t.tracks[0]!.stop).toHaveBeenCalledTimes(1);
  });

  it.each([
    ["NotAllowedError", "denied"],
    ["PermissionDeniedError", "denied"],
    ["NotFoundError", "not_found"],
    ["DevicesNotFoundError", "not_found"],
    ["NotReadableError", "other"],
    ["OverconstrainedError", "other"],
    ["TypeError", "other"],
  ])("a getUserMedia %s is %s", async (name, problem) => {
    const t = setup({ getUserMedia: () => Promise.reject(domError(name)) });
    const error = await t.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveCaptureError);
    expect((error as LiveCaptureError).problem).toBe(problem);
  });

  it("a worklet that does not load releases the microphone it opened", async () => {
    const t = setup();
    t.context.audioWorklet.addModule.mockRejectedValueOnce(domError("AbortError"));
    const error = await t.start().catch((e: unknown) => e);
    expect((error as LiveCaptureError).problem).toBe("other");
    expect(t.tracks[0]!.stopped).toBe(true);
    // …and the next attempt loads it again.
    await t.start();
    expect(t.context.audioWorklet.addModule).toHaveBeenCalledTimes(2);
  });
});
