import { describe, expect, it } from "vitest";
import { chunk, fmtChunk, listChunk, riffWave, toneChunk } from "../../../tests/fixtures/wav";
import { encodeWav, floatToInt16, pureTo16kMono, readWav, renderTo16kMono, resampleLinear, toMono, type AudioBufferLike } from "./wav";

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

  it("rejects a bad sample rate", () => {
    expect(() => encodeWav(new Float32Array(1), 0)).toThrow(RangeError);
    expect(() => encodeWav(new Float32Array(1), 44100.5)).toThrow(RangeError);
  });
});

describe("readWav (walks the chunks)", () => {
  it("reads back what encodeWav writes: canonical, its length from the data chunk", () => {
    const out = encodeWav(sine(440, 16000, 0.25), 16000);
    expect(readWav(out)).toEqual({
      format: 1,
      channels: 1,
      sampleRate: 16000,
      bitsPerSample: 16,
      byteRate: 32000,
      dataOffset: 44,
      dataBytes: 8000,
      seconds: 0.25,
      canonical: true,
    });
  });

  it("finds the sound after a LIST chunk, and measures it without the metadata", () => {
    const sound = toneChunk(2);
    const wav = riffWave(fmtChunk(), listChunk("gravado no celular ".repeat(100)), sound);
    const info = readWav(wav)!;
    expect(info).toMatchObject({ format: 1, channels: 1, sampleRate: 16000, bitsPerSample: 16, dataBytes: 64000, seconds: 2, canonical: false });
    expect(info.dataOffset).toBe(wav.length - 64000);
    // the same with the LIST (and any other chunk) before fmt
    expect(readWav(riffWave(listChunk("antes do formato"), chunk("JUNK", new Uint8Array(28)), fmtChunk(), sound))).toMatchObject({ seconds: 2 });
  });

  it("skips the pad byte after an odd-sized chunk", () => {
    const odd = chunk("bext", new Uint8Array(7).fill(0x64)); // 8 + 7 + 1 pad byte
    expect(odd.length).toBe(16);
    const wav = riffWave(fmtChunk({ channels: 2, sampleRate: 48000 }), odd, toneChunk(0.5, { channels: 2, sampleRate: 48000 }));
    expect(readWav(wav)).toMatchObject({ channels: 2, sampleRate: 48000, dataOffset: 12 + 24 + 16 + 8, dataBytes: 96000, seconds: 0.5 });
    // without the pad byte the walk would land one byte off and never find the data chunk
    const unpadded = riffWave(fmtChunk(), odd.subarray(0, 15), toneChunk(0.5));
    expect(readWav(unpadded)).toBeNull();
  });

  it("counts whole frames at the sample rate; a data chunk cut short is read as far as it goes", () => {
    const wav = riffWave(fmtChunk({ sampleRate: 8000, bitsPerSample: 24, channels: 2 }), chunk("data", new Uint8Array(6 * 8000 + 5)));
    expect(readWav(wav)?.seconds).toBe(1);
    const cut = encodeWav(new Float32Array(16000), 16000).subarray(0, 44 + 16000);
    expect(readWav(cut)).toMatchObject({ dataBytes: 16000, seconds: 0.5, canonical: false });
    expect(readWav(riffWave(fmtChunk(), chunk("data", new Uint8Array(0))))?.seconds).toBe(0);
  });

  it("refuses truncated and garbage input", () => {
    const wav = encodeWav(sine(440, 16000, 0.1), 16000);
    expect(readWav(new Uint8Array(0))).toBeNull();
    expect(readWav(wav.subarray(0, 10))).toBeNull(); // before WAVE
    expect(readWav(wav.subarray(0, 30))).toBeNull(); // inside fmt
    expect(readWav(wav.subarray(0, 40))).toBeNull(); // no data chunk header
    expect(readWav(new TextEncoder().encode("não sou um áudio ".repeat(100)))).toBeNull();
    expect(readWav(riffWave(chunk("LIST", new Uint8Array(2000))))).toBeNull(); // no fmt, no data
    expect(readWav(riffWave(toneChunk(1), fmtChunk()))).toBeNull(); // data before its format
    expect(readWav(riffWave(fmtChunk({ channels: 0 }), toneChunk(1)))).toBeNull();
    expect(readWav(riffWave(fmtChunk({ sampleRate: 0 }), toneChunk(1)))).toBeNull();
    // a chunk claiming more bytes than the file holds ends the walk
    const liar = riffWave(fmtChunk(), chunk("LIST", new Uint8Array(4)), toneChunk(1));
    new DataView(liar.buffer).setUint32(40, 0xfffffff0, true);
    expect(readWav(liar)).toBeNull();
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
