// Microphone capture for voice messages (spec §4 "Recording", §8 "Microphone", §9 "Audio").
// SSR-safe: browser globals are read only inside functions/methods, never at import time.
import { AUDIO_BLOB_MESSAGES, CHUNK_MS, HIDDEN_RELEASE_MS, WAV_SAMPLE_RATE, validateAudioBlob } from "./validate";
import { encodeWav, renderTo16kMono } from "./wav";

/** Spec §9 preference order: the first one the browser supports wins. */
export const MIME_PREFERENCE = ["audio/mp4", "audio/mpeg", "audio/wav", "audio/webm;codecs=opus", "audio/webm", "audio/ogg"] as const;

export const AUDIO_BITS_PER_SECOND = 128_000;

/** Returns the first supported type, or undefined to let MediaRecorder pick its default. */
export function pickMimeType(isTypeSupported: (type: string) => boolean): string | undefined {
  for (const type of MIME_PREFERENCE) {
    try {
      if (isTypeSupported(type)) return type;
    } catch {
      // Some browsers throw on unknown types; treat as unsupported.
    }
  }
  return undefined;
}

export const microphoneConstraints: MediaStreamConstraints = {
  audio: {
    sampleRate: 44_100,
    channelCount: 1,
    echoCancellation: true,
    noiseSuppression: true,
  },
};

export const MICROPHONE_TOAST_TITLE = "Erro no Microfone";

export const MICROPHONE_MESSAGES = {
  denied: "Microphone permission denied. Please allow microphone access and try again.",
  notFound: "No microphone found. Please connect a microphone and try again.",
  busy: "Microphone is being used by another application.",
  overconstrained: "Microphone settings not supported.",
  generic: "Failed to access microphone. Please check your permissions and try again.",
  deniedInSettings: "Microphone permission is denied. Please enable it in your browser settings.",
  recordingFailed: "Recording failed - please try again",
  processingFailed: "Failed to process recording",
} as const;

export type MicrophoneProblem = "denied" | "notFound" | "busy" | "overconstrained" | "generic";

/** What a getUserMedia rejection means (browsers name the same failures differently). */
export function classifyMicrophoneError(error: unknown): MicrophoneProblem {
  const name = error && typeof error === "object" && "name" in error && typeof error.name === "string" ? error.name : "";
  switch (name) {
    case "NotAllowedError":
    case "PermissionDeniedError":
      return "denied";
    case "NotFoundError":
    case "DevicesNotFoundError":
      return "notFound";
    case "NotReadableError":
    case "TrackStartError":
      return "busy";
    case "OverconstrainedError":
    case "ConstraintNotSatisfiedError":
      return "overconstrained";
    default:
      return "generic";
  }
}

/** Maps a getUserMedia rejection to the exact spec §8 text. */
export function mapMicrophoneError(error: unknown): string {
  return MICROPHONE_MESSAGES[classifyMicrophoneError(error)];
}

export type RecorderState = "idle" | "recording" | "stopped";

export interface RecorderOptions {
  onError?: (message: string) => void;
  onStateChange?: (state: RecorderState) => void;
  /** Injection points for tests; default to the browser globals at call time. */
  getUserMedia?: (c: MediaStreamConstraints) => Promise<MediaStream>;
  MediaRecorderImpl?: typeof MediaRecorder;
  doc?: Pick<Document, "addEventListener" | "removeEventListener" | "visibilityState">;
}

/** Thin MediaRecorder controller: start → chunks every 250 ms → stop resolves the Blob. */
export class Recorder {
  state: RecorderState = "idle";
  private stream: MediaStream | null = null;
  private recorder: MediaRecorder | null = null;
  private chunks: Blob[] = [];
  private hiddenTimer: ReturnType<typeof setTimeout> | null = null;
  private pendingStop: ((blob: Blob) => void) | null = null;

  constructor(private readonly options: RecorderOptions = {}) {}

  async start(): Promise<boolean> {
    if (this.state === "recording") return true;
    const getUserMedia = this.options.getUserMedia ?? ((c: MediaStreamConstraints) => navigator.mediaDevices.getUserMedia(c));
    try {
      this.stream = await getUserMedia(microphoneConstraints);
    } catch (error) {
      this.fail(mapMicrophoneError(error));
      return false;
    }
    try {
      const Impl = this.options.MediaRecorderImpl ?? MediaRecorder;
      const mimeType = pickMimeType((t) => Impl.isTypeSupported(t));
      const recorder = new Impl(this.stream, {
        ...(mimeType ? { mimeType } : {}),
        audioBitsPerSecond: AUDIO_BITS_PER_SECOND,
      });
      this.chunks = [];
      recorder.ondataavailable = (e) => {
        if (e.data.size > 0) this.chunks.push(e.data);
      };
      recorder.onerror = () => {
        this.release();
        this.fail(MICROPHONE_MESSAGES.recordingFailed);
      };
      recorder.onstop = () => {
        const blob = new Blob(this.chunks, { type: recorder.mimeType || mimeType || "audio/webm" });
        this.chunks = [];
        this.release();
        this.setState("stopped");
        this.pendingStop?.(blob);
        this.pendingStop = null;
      };
      recorder.start(CHUNK_MS);
      this.recorder = recorder;
      this.doc()?.addEventListener("visibilitychange", this.onVisibility);
      this.setState("recording");
      return true;
    } catch {
      this.release();
      this.fail(MICROPHONE_MESSAGES.recordingFailed);
      return false;
    }
  }

  /** Stops and resolves with the recorded Blob (empty Blob if nothing was recording). */
  stop(): Promise<Blob> {
    const recorder = this.recorder;
    if (!recorder || recorder.state === "inactive") {
      this.release();
      return Promise.resolve(new Blob([], { type: "audio/webm" }));
    }
    return new Promise((resolve) => {
      this.pendingStop = resolve;
      recorder.stop();
    });
  }

  /** Stops the tracks and forgets the recorder (also used on unmount). */
  release(): void {
    if (this.hiddenTimer) clearTimeout(this.hiddenTimer);
    this.hiddenTimer = null;
    this.doc()?.removeEventListener("visibilitychange", this.onVisibility);
    this.stream?.getTracks().forEach((t) => t.stop());
    this.stream = null;
    this.recorder = null;
  }

  private onVisibility = (): void => {
    const doc = this.doc();
    if (!doc) return;
    if (doc.visibilityState === "hidden") {
      if (!this.hiddenTimer) {
        this.hiddenTimer = setTimeout(() => {
          this.hiddenTimer = null;
          if (this.recorder && this.recorder.state !== "inactive") this.recorder.stop();
          else this.release();
        }, HIDDEN_RELEASE_MS);
      }
    } else if (this.hiddenTimer) {
      clearTimeout(this.hiddenTimer);
      this.hiddenTimer = null;
    }
  };

  private doc() {
    return this.options.doc ?? (typeof document === "undefined" ? undefined : document);
  }

  private setState(state: RecorderState): void {
    this.state = state;
    this.options.onStateChange?.(state);
  }

  private fail(message: string): void {
    this.setState("idle");
    this.options.onError?.(message);
  }
}

export function createRecorder(options?: RecorderOptions): Recorder {
  return new Recorder(options);
}

export type RecordToWavResult = { ok: true; wav: Blob } | { ok: false; message: string };

/** decodeAudioData → 16 kHz mono → WAV → spec §5 checks. */
export async function recordToWav(
  recorded: Blob,
  decode: (data: ArrayBuffer) => Promise<AudioBuffer> = defaultDecode,
): Promise<RecordToWavResult> {
  if (recorded.size === 0) return { ok: false, message: AUDIO_BLOB_MESSAGES.empty.en };
  try {
    const decoded = await decode(await recorded.arrayBuffer());
    const samples = await renderTo16kMono(decoded);
    const wav = new Blob([encodeWav(samples, WAV_SAMPLE_RATE)], { type: "audio/wav" });
    const check = validateAudioBlob(wav);
    if (check) return { ok: false, message: check.en };
    return { ok: true, wav };
  } catch {
    return { ok: false, message: MICROPHONE_MESSAGES.processingFailed };
  }
}

async function defaultDecode(data: ArrayBuffer): Promise<AudioBuffer> {
  const Ctx = globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) throw new Error("No AudioContext");
  const ctx = new Ctx();
  try {
    return await ctx.decodeAudioData(data);
  } finally {
    void ctx.close().catch(() => {});
  }
}
