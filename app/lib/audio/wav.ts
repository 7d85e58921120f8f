// 16 kHz mono 16-bit PCM WAV for voice messages (spec §9 "Audio"; ARCHITECTURE "Browser audio").
// SSR-safe: no browser global is touched at import time; `renderTo16kMono` looks for
// OfflineAudioContext only when called and otherwise falls back to the pure path below.
import { WAV_SAMPLE_RATE } from "./validate";

export const WAV_HEADER_BYTES = 44;

/** 16-bit PCM mono RIFF/WAVE: 44-byte header followed by little-endian samples. */
export function encodeWav(samples: Float32Array, sampleRate: number): Uint8Array<ArrayBuffer> {
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) {
    throw new RangeError(`Invalid sample rate: ${sampleRate}`);
  }
  const channels = 1;
  const bytesPerSample = 2;
  const blockAlign = channels * bytesPerSample;
  const dataBytes = samples.length * bytesPerSample;
  const out = new Uint8Array(WAV_HEADER_BYTES + dataBytes);
  const view = new DataView(out.buffer);

  writeAscii(out, 0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true); // RIFF chunk size = file size - 8
  writeAscii(out, 8, "WAVE");
  writeAscii(out, 12, "fmt ");
  view.setUint32(16, 16, true); // fmt chunk size (PCM)
  view.setUint16(20, 1, true); // audio format 1 = PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * blockAlign, true); // byte rate
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, bytesPerSample * 8, true); // bits per sample
  writeAscii(out, 36, "data");
  view.setUint32(40, dataBytes, true);

  let offset = WAV_HEADER_BYTES;
  for (let i = 0; i < samples.length; i++) {
    view.setInt16(offset, floatToInt16(samples[i]!), true);
    offset += 2;
  }
  return out;
}

/** Clamps to [-1, 1] and rounds to the nearest 16-bit value (asymmetric range: -32768..32767). */
export function floatToInt16(sample: number): number {
  if (!(sample === sample)) return 0; // NaN
  const s = sample > 1 ? 1 : sample < -1 ? -1 : sample;
  return s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
}

function writeAscii(target: Uint8Array, offset: number, text: string): void {
  for (let i = 0; i < text.length; i++) target[offset + i] = text.charCodeAt(i);
}

export interface WavInfo {
  /** 1 = integer PCM, 3 = IEEE float (WAVE_FORMAT_EXTENSIBLE is read through to its sub-format). */
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Average bytes per second as the fmt chunk states it (what a compressed format's length is read by). */
  byteRate: number;
  dataOffset: number;
  /** The data chunk's bytes present in the file (its stated size, cut to what the file holds). */
  dataBytes: number;
  /** How long the sound is, from the data chunk and the format (not from the file's size). */
  seconds: number;
  /** The file is exactly the canonical 44-byte header + data that `encodeWav` writes, its sizes true. */
  canonical: boolean;
}

const fourCC = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/**
 * Reads a RIFF/WAVE file's format and where its sound is, walking its chunks: recorders put LIST, bext,
 * JUNK or fact chunks before or between `fmt ` and `data`, and an odd-sized chunk is followed by a pad byte.
 * Null when the bytes are not a WAV file whose format and data chunks can be read.
 */
export function readWav(bytes: Uint8Array): WavInfo | null {
  if (bytes.length < 12 || fourCC(bytes, 0) !== "RIFF" || fourCC(bytes, 8) !== "WAVE") return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fmt: Pick<WavInfo, "format" | "channels" | "sampleRate" | "bitsPerSample" | "byteRate"> | null = null;
  let fmtAt = 0;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = fourCC(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt " && size >= 16 && body + 16 <= bytes.length) {
      let format = view.getUint16(body, true);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID.
      if (format === 0xfffe && size >= 40 && body + 26 <= bytes.length) format = view.getUint16(body + 24, true);
      fmt = {
        format,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        byteRate: view.getUint32(body + 8, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
      fmtAt = at;
    } else if (id === "data" && fmt) {
      const dataBytes = Math.min(size, bytes.length - body);
      const seconds = soundSeconds(fmt, dataBytes);
      if (seconds === null) return null;
      return {
        ...fmt,
        dataOffset: body,
        dataBytes,
        seconds,
        canonical: fmtAt === 12 && body === WAV_HEADER_BYTES && size === bytes.length - WAV_HEADER_BYTES,
      };
    }
    at = body + size + (size % 2);
  }
  return null;
}

/** PCM and float by whole frames at the sample rate; any other format by its stated byte rate. Null when unknowable. */
function soundSeconds(fmt: Pick<WavInfo, "format" | "channels" | "sampleRate" | "bitsPerSample" | "byteRate">, dataBytes: number) {
  if (fmt.channels < 1 || fmt.sampleRate < 1) return null;
  if (fmt.format === 1 || fmt.format === 3) {
    if (fmt.bitsPerSample < 1) return null;
    const frameBytes = Math.ceil(fmt.bitsPerSample / 8) * fmt.channels;
    return Math.floor(dataBytes / frameBytes) / fmt.sampleRate;
  }
  return fmt.byteRate < 1 ? null : dataBytes / fmt.byteRate;
}

/** Averages channels into one; a single channel is returned as-is. */
export function toMono(channels: Float32Array[]): Float32Array {
  if (channels.length === 0) return new Float32Array(0);
  if (channels.length === 1) return channels[0]!;
  const length = Math.min(...channels.map((c) => c.length));
  const out = new Float32Array(length);
  const n = channels.length;
  if (n === 2) {
    const [l, r] = channels as [Float32Array, Float32Array];
    for (let i = 0; i < length; i++) out[i] = (l[i]! + r[i]!) * 0.5;
    return out;
  }
  for (const ch of channels) for (let i = 0; i < length; i++) out[i]! += ch[i]!;
  for (let i = 0; i < length; i++) out[i]! /= n;
  return out;
}

/** Linear-interpolation resampler: the pure fallback when no OfflineAudioContext exists. */
export function resampleLinear(samples: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate <= 0 || toRate <= 0) throw new RangeError("Sample rates must be positive");
  if (fromRate === toRate) return samples.slice();
  const outLength = Math.ceil((samples.length * toRate) / fromRate);
  const out = new Float32Array(outLength);
  if (samples.length === 0) return out;
  const step = fromRate / toRate;
  const last = samples.length - 1;
  for (let i = 0; i < outLength; i++) {
    const pos = i * step;
    const i0 = Math.floor(pos);
    if (i0 >= last) {
      out[i] = samples[last]!;
      continue;
    }
    const frac = pos - i0;
    const a = samples[i0]!;
    out[i] = a + (samples[i0 + 1]! - a) * frac;
  }
  return out;
}

/** The subset of AudioBuffer this module reads (lets tests pass a plain object). */
export type AudioBufferLike = Pick<AudioBuffer, "duration" | "length" | "numberOfChannels" | "sampleRate" | "getChannelData">;

/** Renders any decoded buffer to 16 kHz mono, through OfflineAudioContext when available. */
export async function renderTo16kMono(
  audioBuffer: AudioBufferLike,
  Offline: typeof OfflineAudioContext | undefined = globalThis.OfflineAudioContext,
): Promise<Float32Array> {
  const frames = Math.ceil(audioBuffer.duration * WAV_SAMPLE_RATE);
  if (Offline && frames > 0) {
    try {
      const ctx = new Offline(1, frames, WAV_SAMPLE_RATE);
      const source = ctx.createBufferSource();
      source.buffer = audioBuffer as AudioBuffer;
      source.connect(ctx.destination);
      source.start(0);
      const rendered = await ctx.startRendering();
      return rendered.getChannelData(0).slice();
    } catch {
      // Fall through to the pure path (e.g. old Safari rejecting the rate).
    }
  }
  return pureTo16kMono(audioBuffer);
}

/** toMono + resampleLinear over every channel of the buffer. */
export function pureTo16kMono(audioBuffer: AudioBufferLike): Float32Array {
  const channels: Float32Array[] = [];
  for (let c = 0; c < audioBuffer.numberOfChannels; c++) channels.push(audioBuffer.getChannelData(c));
  return resampleLinear(toMono(channels), audioBuffer.sampleRate, WAV_SAMPLE_RATE);
}
