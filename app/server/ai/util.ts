// Small helpers shared by the providers (runtime-neutral: workerd and Node).
import { AUDIO_TIMEOUT_MS, CHAT_TIMEOUT_MS, type ProviderOptions } from "./types";

/** A provider's options with the defaults filled in: the global fetch and the timeouts of spec §7. */
export function withProviderDefaults(options: ProviderOptions): Required<ProviderOptions> {
  return {
    fetch: options.fetch ?? fetch,
    chatTimeoutMs: options.chatTimeoutMs ?? CHAT_TIMEOUT_MS,
    audioTimeoutMs: options.audioTimeoutMs ?? AUDIO_TIMEOUT_MS,
  };
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function extensionFor(mimeType: string): string {
  const type = mimeType.split(";")[0]!.trim().toLowerCase();
  const known: Record<string, string> = {
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
    "audio/mp4": "m4a",
    "audio/x-m4a": "m4a",
    "audio/webm": "webm",
    "audio/ogg": "ogg",
    "audio/flac": "flac",
  };
  return known[type] ?? "wav";
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function trimBase(url: string): string {
  return url.replace(/\/+$/, "");
}
