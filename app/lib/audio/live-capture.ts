// The live conversation's microphone: getUserMedia (echo cancellation, noise suppression, automatic gain)
// → MediaStreamSource → the capture AudioWorklet (./live-capture.worklet.ts), on the page's one AudioContext.
// The worklet is not connected to the speakers; it posts fixed PCM16 frames at the target rate.
// Browser globals are reached only when called (SSR-safe to import).
import type { LiveCaptureCommand, LiveCaptureProcessorOptions } from "./live-capture.worklet";
import workletUrl from "./live-capture.worklet.ts?worker&url";
import { classifyMicrophoneError } from "./recorder";

/** The name live-capture.worklet.ts registers its processor under. */
export const LIVE_CAPTURE_PROCESSOR = "live-capture";

export const liveMicrophoneConstraints = {
  audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
} satisfies MediaStreamConstraints;

/** Why the microphone could not be used: the learner refused it, there is none, or anything else. */
export type LiveCaptureProblem = "denied" | "not_found" | "other";

export class LiveCaptureError extends Error {
  constructor(
    readonly problem: LiveCaptureProblem,
    readonly cause?: unknown,
  ) {
    super(`microphone: ${problem}`);
    this.name = "LiveCaptureError";
  }
}

/** What of Web Audio the capture uses (an AudioContext; tests pass a fake). */
export interface CaptureContext {
  readonly audioWorklet: { addModule(url: string): Promise<void> };
  createMediaStreamSource(stream: MediaStream): { connect(node: unknown): unknown; disconnect(): void };
}

export interface CaptureNode {
  readonly port: { postMessage(message: LiveCaptureCommand): void; onmessage: ((event: MessageEvent) => void) | null; close(): void };
  disconnect(): void;
}

export interface LiveCaptureOptions {
  context: CaptureContext;
  /** The rate and frame size the worklet posts. */
  targetRate: number;
  frameSamples: number;
  /** One frame of PCM16 LE (ownership passes to the callee). */
  onFrame: (frame: ArrayBuffer) => void;
  /** Injection points for tests; default to the browser's. */
  getUserMedia?: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  createNode?: (context: CaptureContext, options: LiveCaptureProcessorOptions) => CaptureNode;
  moduleUrl?: string;
}

export interface LiveCapture {
  /** Muted: the worklet stops posting; the track stays open so unmuting is instant. */
  setMuted(muted: boolean): void;
  readonly muted: boolean;
  /** Releases the microphone (the browser's indicator goes off). */
  stop(): void;
}

const problemOf = (error: unknown): LiveCaptureProblem => {
  const problem = classifyMicrophoneError(error);
  return problem === "denied" ? "denied" : problem === "notFound" ? "not_found" : "other";
};

/** The worklet module is added to a context once (addModule again would register the processor twice). */
const loadedModules = new WeakMap<CaptureContext, Promise<void>>();

function loadModule(context: CaptureContext, url: string): Promise<void> {
  let loading = loadedModules.get(context);
  if (!loading) {
    loading = context.audioWorklet.addModule(url);
    loadedModules.set(context, loading);
    loading.catch(() => loadedModules.delete(context));
  }
  return loading;
}

const browserNode = (context: CaptureContext, options: LiveCaptureProcessorOptions): CaptureNode =>
  new AudioWorkletNode(context as unknown as BaseAudioContext, LIVE_CAPTURE_PROCESSOR, {
    numberOfInputs: 1,
    // No output: the node is pulled for its input alone and plays nothing.
    numberOfOutputs: 0,
    channelCount: 1,
    channelCountMode: "explicit",
    processorOptions: options,
  });

/** Opens the microphone and starts posting frames; rejects with a LiveCaptureError. */
export async function startLiveCapture(options: LiveCaptureOptions): Promise<LiveCapture> {
  const getUserMedia = options.getUserMedia ?? ((c: MediaStreamConstraints) => navigator.mediaDevices.getUserMedia(c));
  let stream: MediaStream;
  try {
    stream = await getUserMedia(liveMicrophoneConstraints);
  } catch (error) {
    throw new LiveCaptureError(problemOf(error), error);
  }
  const release = () => stream.getTracks().forEach((track) => track.stop());
  let node: CaptureNode;
  let source: ReturnType<CaptureContext["createMediaStreamSource"]>;
  try {
    await loadModule(options.context, options.moduleUrl ?? workletUrl);
    node = (options.createNode ?? browserNode)(options.context, { targetRate: options.targetRate, frameSamples: options.frameSamples });
    source = options.context.createMediaStreamSource(stream);
    source.connect(node);
  } catch (error) {
    release();
    throw new LiveCaptureError("other", error);
  }
  let muted = false;
  let stopped = false;
  node.port.onmessage = (event) => {
    if (!stopped && !muted && event.data instanceof ArrayBuffer) options.onFrame(event.data);
  };
  return {
    get muted() {
      return muted;
    },
    setMuted(next) {
      if (stopped || next === muted) return;
      muted = next;
      node.port.postMessage({ muted });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      node.port.onmessage = null;
      source.disconnect();
      node.disconnect();
      node.port.close();
      release();
    },
  };
}
