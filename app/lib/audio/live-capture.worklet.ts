// The microphone's AudioWorklet for the live conversation: on the audio thread, each 128-sample block at the
// device's rate is resampled to the target rate, turned into PCM16 and cut into fixed frames, posted (transferred)
// to the page. Bundled by Vite as its own script (`?worker&url`), so it shares ./pcm with the tests.
import { PcmFramer, Resampler } from "./pcm";

// The AudioWorkletGlobalScope's globals (not in TypeScript's DOM library).
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
  constructor(options?: unknown);
}
declare function registerProcessor(name: string, processor: new (options: { processorOptions?: unknown }) => AudioWorkletProcessor): void;

/** The name live-capture.ts creates its AudioWorkletNode with. */
const PROCESSOR = "live-capture";

export type LiveCaptureProcessorOptions = { targetRate: number; frameSamples: number };
/** Page → worklet. */
export type LiveCaptureCommand = { muted: boolean };

class LiveCaptureProcessor extends AudioWorkletProcessor {
  private readonly resampler: Resampler;
  private readonly framer: PcmFramer;
  private output: Float32Array;
  private muted = false;

  constructor(options: { processorOptions?: unknown }) {
    super(options);
    const { targetRate, frameSamples } = options.processorOptions as LiveCaptureProcessorOptions;
    this.resampler = new Resampler(sampleRate, targetRate);
    this.framer = new PcmFramer(frameSamples, (frame) => this.port.postMessage(frame, [frame]));
    this.output = new Float32Array(this.resampler.maxOutputLength(128));
    this.port.onmessage = (event: MessageEvent<LiveCaptureCommand>) => {
      this.muted = event.data.muted;
      // Unmuted audio starts a new signal: nothing from before the mute leaks into it.
      this.resampler.reset();
      this.framer.reset();
    };
  }

  process(inputs: Float32Array[][]): boolean {
    const channel = inputs[0]?.[0];
    if (!channel || this.muted) return true;
    if (this.output.length < this.resampler.maxOutputLength(channel.length)) {
      this.output = new Float32Array(this.resampler.maxOutputLength(channel.length));
    }
    this.framer.push(this.resampler.process(channel, this.output));
    return true;
  }
}

registerProcessor(PROCESSOR, LiveCaptureProcessor);
