import { describe, expect, it } from "vitest";
import { PcmFramer, Resampler, floatToPcm16, floatToPcm16Sample, pcm16ToFloat } from "./pcm";

const sine = (rate: number, hz: number, seconds: number, phase = 0) =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => Math.sin(2 * Math.PI * hz * (i / rate) + phase));

/** Splits `samples` into blocks of the sizes given, cycling through them. */
function blocks(samples: Float32Array, sizes: number[]): Float32Array[] {
  const out: Float32Array[] = [];
  for (let at = 0, i = 0; at < samples.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(samples.subarray(at, at + size));
    at += size;
  }
  return out;
}

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

describe("PCM16 conversion", () => {
  it("maps −1…1 onto the whole 16-bit range, clips beyond it and reads NaN as silence", () => {
    expect(floatToPcm16Sample(1)).toBe(32767);
    expect(floatToPcm16Sample(-1)).toBe(-32768);
    expect(floatToPcm16Sample(0)).toBe(0);
    expect(floatToPcm16Sample(0.5)).toBe(16384);
    expect(floatToPcm16Sample(-0.5)).toBe(-16384);
    expect(floatToPcm16Sample(3)).toBe(32767);
    expect(floatToPcm16Sample(-3)).toBe(-32768);
    expect(floatToPcm16Sample(Number.NaN)).toBe(0);
  });

  it("writes little-endian bytes", () => {
    const bytes = new Uint8Array(floatToPcm16(Float32Array.of(1, -1, 0, 256 / 32767)));
    expect([...bytes]).toEqual([0xff, 0x7f, 0x00, 0x80, 0x00, 0x00, 0x00, 0x01]);
  });

  it("reads little-endian bytes back to floats (a round trip is within one step)", () => {
    const samples = sine(24_000, 440, 0.05);
    const back = pcm16ToFloat(floatToPcm16(samples));
    expect(back).toHaveLength(samples.length);
    for (let i = 0; i < samples.length; i++) expect(Math.abs(back[i]! - samples[i]!)).toBeLessThanOrEqual(1 / 32767);
    expect([...pcm16ToFloat(Uint8Array.of(0x00, 0x80, 0xff, 0x7f))]).toEqual([-1, 1]);
  });

  it("reads a view at an offset and ignores a trailing odd byte", () => {
    const bytes = Uint8Array.of(9, 0xff, 0x7f, 0x00, 0x80, 7);
    expect([...pcm16ToFloat(bytes.subarray(1, 6))]).toEqual([1, -1]);
  });
});

describe("Resampler", () => {
  it.each([
    [48_000, 24_000],
    [44_100, 24_000],
    [16_000, 24_000],
    [24_000, 24_000],
  ])("%d Hz → %d Hz keeps the signal (a 440 Hz tone stays that tone)", (from, to) => {
    const resampler = new Resampler(from, to);
    const out = resampler.process(sine(from, 440, 1));
    expect(Math.abs(out.length - to)).toBeLessThanOrEqual(1);
    // Output k is the input at k / to seconds.
    let worst = 0;
    for (let k = 0; k < out.length; k++) worst = Math.max(worst, Math.abs(out[k]! - Math.sin((2 * Math.PI * 440 * k) / to)));
    expect(worst).toBeLessThan(0.01);
  });

  it.each([
    [48_000, [128]],
    [44_100, [128]],
    [44_100, [1, 127, 300, 5, 2048, 64]],
    [16_000, [7, 128, 3]],
  ])("%d Hz in blocks of %j gives exactly what one block gives (the phase carries across blocks)", (from, sizes) => {
    const input = sine(from, 523, 0.5, 0.3);
    const whole = new Resampler(from, 24_000).process(input);
    const streaming = new Resampler(from, 24_000);
    const pieces = concat(blocks(input, sizes).map((block) => streaming.process(block)));
    expect(pieces.length).toBe(whole.length);
    for (let i = 0; i < whole.length; i++) expect(pieces[i]).toBeCloseTo(whole[i]!, 6);
  });

  it("writes into a caller's buffer (no allocation per block) and refuses one too small", () => {
    const resampler = new Resampler(44_100, 24_000);
    const output = new Float32Array(resampler.maxOutputLength(128));
    const total = Array.from({ length: 100 }, () => resampler.process(new Float32Array(128).fill(0.25), output).length).reduce((a, b) => a + b);
    // Outputs fall at input positions 0, step, 2·step… (none lost or repeated at block edges).
    expect(total).toBe(Math.ceil((100 * 128 - 1) / (44_100 / 24_000)));
    expect(output[0]).toBeCloseTo(0.25);
    expect(() => resampler.process(new Float32Array(128), new Float32Array(10))).toThrow(RangeError);
  });

  it("reset() starts a new signal", () => {
    const resampler = new Resampler(48_000, 24_000);
    const first = resampler.process(sine(48_000, 300, 0.01));
    resampler.process(sine(48_000, 300, 0.0033));
    resampler.reset();
    expect([...resampler.process(sine(48_000, 300, 0.01))]).toEqual([...first]);
  });

  it("refuses rates that are not positive", () => {
    expect(() => new Resampler(0, 24_000)).toThrow(RangeError);
    expect(() => new Resampler(48_000, Number.NaN)).toThrow(RangeError);
  });
});

describe("PcmFramer", () => {
  it("emits frames of exactly the frame size from blocks of any size, in order and without loss", () => {
    const frames: ArrayBuffer[] = [];
    const framer = new PcmFramer(960, (frame) => frames.push(frame));
    const input = sine(24_000, 200, 0.5); // 12,000 samples: 12.5 frames
    for (const block of blocks(input, [64, 1, 500, 2000, 37])) framer.push(block);
    expect(frames).toHaveLength(12);
    expect(frames.every((frame) => frame.byteLength === 1920)).toBe(true);
    expect(new Set(frames).size).toBe(12); // a new buffer each time: a transferred one is gone
    const joined = new Uint8Array(12 * 1920);
    frames.forEach((frame, i) => joined.set(new Uint8Array(frame), i * 1920));
    expect(joined).toEqual(new Uint8Array(floatToPcm16(input.subarray(0, 12 * 960))));
  });

  it("keeps the rest for the next frame, and reset() drops it", () => {
    const frames: ArrayBuffer[] = [];
    const framer = new PcmFramer(4, (frame) => frames.push(frame));
    framer.push(Float32Array.of(1, 1, 1));
    expect(frames).toHaveLength(0);
    framer.reset();
    framer.push(Float32Array.of(-1, -1, -1, -1, 0.5));
    expect(frames).toHaveLength(1);
    expect([...pcm16ToFloat(frames[0]!)]).toEqual([-1, -1, -1, -1]);
    framer.push(Float32Array.of(0, 0, 0));
    expect([...pcm16ToFloat(frames[1]!)].map((v) => Math.round(v * 100) / 100)).toEqual([0.5, 0, 0, 0]);
  });

  it("refuses a frame size that is not a positive integer", () => {
    expect(() => new PcmFramer(0, () => {})).toThrow(RangeError);
    expect(() => new PcmFramer(1.5, () => {})).toThrow(RangeError);
  });
});
