// The audio the scorers send: 16 kHz mono 16-bit PCM WAV (Azure's short-audio REST, the pronunciation-game
// webhook). The browser's recorder already sends that; a phone's own recorder (the no-JS upload) may send
// 44.1/48 kHz stereo or 24-bit WAV, which is read and converted with the shared audio helpers.
import { WAV_SAMPLE_RATE } from "~/lib/audio/validate";
import { encodeWav, readWav, resampleLinear, toMono, type WavInfo } from "~/lib/audio/wav";
import { UnsupportedAudioError } from "./types";

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
  if (!info) throw new UnsupportedAudioError("not a readable WAV file");
  if (info.canonical && info.format === 1 && info.channels === 1 && info.bitsPerSample === 16 && info.sampleRate === WAV_SAMPLE_RATE) {
    return bytes;
  }
  const mono = toMono(channelData(bytes, info));
  return encodeWav(resampleLinear(mono, info.sampleRate, WAV_SAMPLE_RATE), WAV_SAMPLE_RATE);
}

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/** An Ogg stream whose first page carries an Opus header (Azure reads Ogg only with Opus inside). */
export function isOggOpus(bytes: Uint8Array): boolean {
  if (bytes.length < 36 || ascii(bytes, 0) !== "OggS") return false;
  const head = bytes.subarray(0, Math.min(bytes.length, 128));
  return String.fromCharCode(...head).includes("OpusHead");
}
