// Server-side WAV reading for the scorers that need 16 kHz mono 16-bit PCM (Azure's short-audio REST, the
// pronunciation-game webhook). The browser's recorder already sends that; a phone's own recorder (the no-JS
// upload) may send 44.1/48 kHz stereo or 24-bit WAV, which is converted with the shared audio helpers.
import { WAV_SAMPLE_RATE } from "~/lib/audio/validate";
import { encodeWav, resampleLinear, toMono } from "~/lib/audio/wav";
import { UnsupportedAudioError } from "./types";

export interface WavInfo {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataOffset: number;
  dataBytes: number;
  /** The file is exactly the canonical 44-byte header + data that `encodeWav` writes. */
  canonical: boolean;
}

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/** Reads a RIFF/WAVE header, walking its chunks. Throws UnsupportedAudioError for anything else. */
export function readWav(bytes: Uint8Array): WavInfo {
  if (bytes.length < 12 || ascii(bytes, 0) !== "RIFF" || ascii(bytes, 8) !== "WAVE") throw new UnsupportedAudioError("not a WAV file");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fmt: Omit<WavInfo, "dataOffset" | "dataBytes" | "canonical"> | null = null;
  let fmtAt = 0;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at);
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
        bitsPerSample: view.getUint16(body + 14, true),
      };
      fmtAt = at;
    } else if (id === "data" && fmt) {
      const dataBytes = Math.min(size, bytes.length - body);
      return { ...fmt, dataOffset: body, dataBytes, canonical: fmtAt === 12 && body === 44 && dataBytes === bytes.length - 44 };
    }
    at = body + size + (size % 2);
  }
  throw new UnsupportedAudioError("WAV without fmt/data chunks");
}

function channelData(bytes: Uint8Array, info: WavInfo): Float32Array[] {
  const { format, channels, bitsPerSample } = info;
  const width = bitsPerSample / 8;
  const pcm = format === 1 && [8, 16, 24, 32].includes(bitsPerSample);
  const float = format === 3 && bitsPerSample === 32;
  if (!(pcm || float) || channels < 1 || info.sampleRate < 1) {
    throw new UnsupportedAudioError(`unsupported WAV encoding (format ${format}, ${bitsPerSample} bits)`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset + info.dataOffset, info.dataBytes);
  const frames = Math.floor(info.dataBytes / (width * channels));
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let f = 0; f < frames; f++) {
    for (let c = 0; c < channels; c++) {
      const at = (f * channels + c) * width;
      let v: number;
      if (float) v = view.getFloat32(at, true);
      else if (width === 1) v = (view.getUint8(at) - 128) / 128;
      else if (width === 2) v = view.getInt16(at, true) / 32768;
      else if (width === 3) v = (((view.getUint8(at + 2) << 24) | (view.getUint8(at + 1) << 16) | (view.getUint8(at) << 8)) >> 8) / 8388608;
      else v = view.getInt32(at, true) / 2147483648;
      out[c]![f] = v;
    }
  }
  return out;
}

/** The audio as 16 kHz mono 16-bit PCM WAV: returned untouched when it already is one, converted otherwise. */
export function toWav16kMono(bytes: Uint8Array): Uint8Array {
  const info = readWav(bytes);
  if (info.canonical && info.format === 1 && info.channels === 1 && info.bitsPerSample === 16 && info.sampleRate === WAV_SAMPLE_RATE) {
    return bytes;
  }
  const mono = toMono(channelData(bytes, info));
  return encodeWav(resampleLinear(mono, info.sampleRate, WAV_SAMPLE_RATE), WAV_SAMPLE_RATE);
}

/** An Ogg stream whose first page carries an Opus header (Azure reads Ogg only with Opus inside). */
export function isOggOpus(bytes: Uint8Array): boolean {
  if (bytes.length < 36 || ascii(bytes, 0) !== "OggS") return false;
  const head = bytes.subarray(0, Math.min(bytes.length, 128));
  return String.fromCharCode(...head).includes("OpusHead");
}
