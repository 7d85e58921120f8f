// Raw PCM for the live conversation: 16-bit little-endian mono both ways. The microphone's blocks
// (128 samples at the device's rate in an AudioWorklet) are resampled to the provider's rate and cut
// into frames of a fixed size; the provider's frames are turned back into floats for Web Audio.
// Pure: no browser globals, so the AudioWorklet bundle imports it as is.

const PCM16_MAX = 0x7fff;
const PCM16_MIN = 0x8000;

/** One float sample (−1…1, clipped) as a signed 16-bit integer. */
export function floatToPcm16Sample(sample: number): number {
  const clipped = sample > 1 ? 1 : sample < -1 ? -1 : sample || 0; // `|| 0`: NaN is silence
  return Math.round(clipped < 0 ? clipped * PCM16_MIN : clipped * PCM16_MAX);
}

/** Floats → PCM16 LE bytes. */
export function floatToPcm16(samples: Float32Array): ArrayBuffer {
  const buffer = new ArrayBuffer(samples.length * 2);
  const view = new DataView(buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, floatToPcm16Sample(samples[i]!), true);
  return buffer;
}

/** PCM16 LE bytes → floats in −1…1 (a trailing odd byte is ignored). */
export function pcm16ToFloat(pcm: ArrayBuffer | ArrayBufferView): Float32Array<ArrayBuffer> {
  const view = ArrayBuffer.isView(pcm) ? new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength) : new DataView(pcm);
  const out = new Float32Array(view.byteLength >> 1);
  for (let i = 0; i < out.length; i++) {
    const value = view.getInt16(i * 2, true);
    out[i] = value < 0 ? value / PCM16_MIN : value / PCM16_MAX;
  }
  return out;
}

/**
 * Streaming resampler (linear interpolation). It keeps the last input sample and the position of the next
 * output between blocks, so consecutive blocks resample as one continuous signal whatever their sizes.
 */
export class Resampler {
  /** Input samples per output sample. */
  readonly step: number;
  /** Where the next output sample falls, in input samples, counted from the previous block's last sample (index 0). */
  private position = 1;
  private previous = 0;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
  ) {
    if (!(fromRate > 0 && toRate > 0)) throw new RangeError("sample rates must be positive");
    this.step = fromRate / toRate;
  }

  /** The most output samples a block of `inputLength` can give (size `output` for it). */
  maxOutputLength(inputLength: number): number {
    return Math.ceil(inputLength / this.step) + 1;
  }

  /** Resamples one block into `output` (allocated when absent) and returns the part written. */
  process(input: Float32Array, output: Float32Array = new Float32Array(this.maxOutputLength(input.length))): Float32Array {
    const n = input.length;
    if (output.length < this.maxOutputLength(n)) throw new RangeError("output is too small for this block");
    let written = 0;
    let position = this.position;
    // Sample k of the joined signal is `previous` for k = 0 and input[k − 1] after it.
    while (position < n) {
      const k = Math.floor(position);
      const left = k === 0 ? this.previous : input[k - 1]!;
      output[written++] = left + (input[k]! - left) * (position - k);
      position += this.step;
    }
    if (n > 0) this.previous = input[n - 1]!;
    this.position = position - n;
    return output.subarray(0, written);
  }

  /** Forgets the signal (e.g. after the microphone was muted). */
  reset(): void {
    this.position = 1;
    this.previous = 0;
  }
}

/** Cuts a stream of float samples into PCM16 LE frames of exactly `frameSamples` samples. */
export class PcmFramer {
  private frame: ArrayBuffer;
  private view: DataView;
  private filled = 0;

  constructor(
    readonly frameSamples: number,
    private readonly onFrame: (frame: ArrayBuffer) => void,
  ) {
    if (!(Number.isInteger(frameSamples) && frameSamples > 0)) throw new RangeError("frameSamples must be a positive integer");
    this.frame = new ArrayBuffer(frameSamples * 2);
    this.view = new DataView(this.frame);
  }

  push(samples: Float32Array): void {
    for (let i = 0; i < samples.length; i++) {
      this.view.setInt16(this.filled * 2, floatToPcm16Sample(samples[i]!), true);
      if (++this.filled === this.frameSamples) {
        const full = this.frame;
        // A new buffer per frame: the full one is handed over (transferred) and no longer ours.
        this.frame = new ArrayBuffer(this.frameSamples * 2);
        this.view = new DataView(this.frame);
        this.filled = 0;
        this.onFrame(full);
      }
    }
  }

  /** Drops a partly filled frame. */
  reset(): void {
    this.filled = 0;
  }
}
