import { describe, expect, it } from "vitest";
import { encodeWav, floatToInt16, pureTo16kMono, readWavHeader, renderTo16kMono, resampleLinear, toMono, type AudioBufferLike } from "./wav";

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

function sine(freq: number, rate: number, seconds: number, amp = 0.8): Float32Array<ArrayBuffer> {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = amp * Math.sin((2 * Math.PI * freq * i) / rate);
  return out;
}

function zeroCrossings(samples: Float32Array): number {
  let n = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) n++;
  return n;
}

describe("encodeWav", () => {
  const samples = new Float32Array([0, 0.5, -0.5, 1, -1]);
  const wav = encodeWav(samples, 16000);

  it("writes the 44-byte RIFF/WAVE header byte by byte", () => {
    expect(ascii(wav, 0)).toBe("RIFF");
    expect(u32(wav, 4)).toBe(36 + 10);
    expect(ascii(wav, 8)).toBe("WAVE");
    expect(ascii(wav, 12)).toBe("fmt ");
    expect(u32(wav, 16)).toBe(16);
    expect(u16(wav, 20)).toBe(1); // PCM
    expect(u16(wav, 22)).toBe(1); // mono
    expect(u32(wav, 24)).toBe(16000);
    expect(u32(wav, 28)).toBe(32000); // byte rate
    expect(u16(wav, 32)).toBe(2); // block align
    expect(u16(wav, 34)).toBe(16);
    expect(ascii(wav, 36)).toBe("data");
    expect(u32(wav, 40)).toBe(10);
    // exact raw bytes of the fixed-format fields
    expect(Array.from(wav.subarray(20, 36))).toEqual([1, 0, 1, 0, 0x80, 0x3e, 0, 0, 0x00, 0x7d, 0, 0, 2, 0, 16, 0]);
  });

  it("has data length = 2 × samples and total = 44 + data", () => {
    for (const n of [0, 1, 7, 16000]) {
      const out = encodeWav(new Float32Array(n), 16000);
      expect(out.length).toBe(44 + 2 * n);
      expect(u32(out, 40)).toBe(2 * n);
      expect(u32(out, 4)).toBe(out.length - 8);
    }
  });

  it("writes little-endian, rounded 16-bit samples", () => {
    const view = new DataView(wav.buffer, 44);
    expect([0, 1, 2, 3, 4].map((i) => view.getInt16(i * 2, true))).toEqual([0, 16384, -16384, 32767, -32768]);
    expect(floatToInt16(0.00001)).toBe(0);
    expect(floatToInt16(0.0001)).toBe(3); // 3.2767 → 3
    expect(floatToInt16(-0.0001)).toBe(-3);
    expect(floatToInt16(Number.NaN)).toBe(0);
  });

  it("clamps ±1.5 to the 16-bit limits", () => {
    const out = encodeWav(new Float32Array([1.5, -1.5, Infinity, -Infinity]), 16000);
    const view = new DataView(out.buffer, 44);
    expect([0, 1, 2, 3].map((i) => view.getInt16(i * 2, true))).toEqual([32767, -32768, 32767, -32768]);
  });

  it("parses back through readWavHeader", () => {
    const out = encodeWav(sine(440, 16000, 0.25), 16000);
    expect(readWavHeader(out)).toEqual({
      riff: "RIFF",
      riffSize: out.length - 8,
      wave: "WAVE",
      fmt: "fmt ",
      fmtSize: 16,
      audioFormat: 1,
      channels: 1,
      sampleRate: 16000,
      byteRate: 32000,
      blockAlign: 2,
      bitsPerSample: 16,
      data: "data",
      dataSize: 8000,
    });
    expect(() => readWavHeader(out.subarray(0, 10))).toThrow(RangeError);
  });

  it("rejects a bad sample rate", () => {
    expect(() => encodeWav(new Float32Array(1), 0)).toThrow(RangeError);
    expect(() => encodeWav(new Float32Array(1), 44100.5)).toThrow(RangeError);
  });
});

describe("toMono", () => {
  it("averages channels and passes a single channel through", () => {
    const mono = new Float32Array([0.1, 0.2]);
    expect(toMono([mono])).toBe(mono);
    expect(Array.from(toMono([new Float32Array([1, 0.5]), new Float32Array([0, -0.5])]))).toEqual([0.5, 0]);
    expect(Array.from(toMono([new Float32Array([3]), new Float32Array([0]), new Float32Array([0])]))).toEqual([1]);
    expect(toMono([]).length).toBe(0);
  });
});

describe("resampleLinear", () => {
  it("keeps a 440 Hz sine through 44.1k → 16k (length and zero crossings)", () => {
    const input = sine(440, 44100, 1);
    const out = resampleLinear(input, 44100, 16000);
    expect(out.length).toBe(16000);
    // 440 Hz for 1 s crosses zero 880 times (±2 for edges/sampling of exact zeros)
    expect(Math.abs(zeroCrossings(out) - zeroCrossings(input))).toBeLessThanOrEqual(2);
    expect(Math.abs(zeroCrossings(out) - 880)).toBeLessThanOrEqual(2);
    // amplitude preserved within linear-interpolation error
    const peak = out.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(peak).toBeGreaterThan(0.79);
    expect(peak).toBeLessThanOrEqual(0.8 + 1e-6);
  });

  it("interpolates linearly and handles identity/empty", () => {
    expect(Array.from(resampleLinear(new Float32Array([0, 1]), 1, 2))).toEqual([0, 0.5, 1, 1]);
    const same = new Float32Array([0.25, 0.5]);
    const copy = resampleLinear(same, 16000, 16000);
    expect(copy).not.toBe(same);
    expect(Array.from(copy)).toEqual([0.25, 0.5]);
    expect(resampleLinear(new Float32Array(0), 44100, 16000).length).toBe(0);
    expect(() => resampleLinear(same, 0, 16000)).toThrow(RangeError);
  });
});

describe("renderTo16kMono", () => {
  const stereo = [sine(440, 44100, 0.5), sine(440, 44100, 0.5)];
  const buffer: AudioBufferLike = {
    duration: 0.5,
    length: stereo[0]!.length,
    numberOfChannels: 2,
    sampleRate: 44100,
    getChannelData: (c: number) => stereo[c]!,
  };

  it("falls back to the pure path without OfflineAudioContext (node)", async () => {
    const out = await renderTo16kMono(buffer, undefined);
    expect(out.length).toBe(8000);
    expect(Array.from(out)).toEqual(Array.from(pureTo16kMono(buffer)));
  });

  it("uses OfflineAudioContext(1, ceil(duration*16000), 16000) when given", async () => {
    const calls: unknown[][] = [];
    const rendered = new Float32Array(8000).fill(0.25);
    class FakeOffline {
      destination = {};
      constructor(...args: unknown[]) {
        calls.push(args);
      }
      createBufferSource() {
        return { buffer: null as unknown, connect() {}, start() {} };
      }
      startRendering() {
        return Promise.resolve({ getChannelData: () => rendered });
      }
    }
    const out = await renderTo16kMono(buffer, FakeOffline as unknown as typeof OfflineAudioContext);
    expect(calls).toEqual([[1, 8000, 16000]]);
    expect(out[0]).toBe(0.25);
    expect(out).not.toBe(rendered);
  });

  it("falls back when the OfflineAudioContext throws", async () => {
    class Broken {
      constructor() {
        throw new Error("NotSupportedError");
      }
    }
    const out = await renderTo16kMono(buffer, Broken as unknown as typeof OfflineAudioContext);
    expect(out.length).toBe(8000);
  });
});
