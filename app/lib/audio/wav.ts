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

export interface WavHeader {
  riff: string;
  riffSize: number;
  wave: string;
  fmt: string;
  fmtSize: number;
  audioFormat: number;
  channels: number;
  sampleRate: number;
  byteRate: number;
  blockAlign: number;
  bitsPerSample: number;
  data: string;
  dataSize: number;
}

/** Reads the canonical 44-byte header written by `encodeWav` (no chunk scanning). */
export function readWavHeader(bytes: Uint8Array): WavHeader {
  if (bytes.length < WAV_HEADER_BYTES) throw new RangeError("Too short for a WAV header");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  return {
    riff: ascii(0),
    riffSize: view.getUint32(4, true),
    wave: ascii(8),
    fmt: ascii(12),
    fmtSize: view.getUint32(16, true),
    audioFormat: view.getUint16(20, true),
    channels: view.getUint16(22, true),
    sampleRate: view.getUint32(24, true),
    byteRate: view.getUint32(28, true),
    blockAlign: view.getUint16(32, true),
    bitsPerSample: view.getUint16(34, true),
    data: ascii(36),
    dataSize: view.getUint32(40, true),
  };
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
