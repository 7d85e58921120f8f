// Streaming playback of the live conversation: Nika's PCM16 frames, as they arrive, are scheduled back to back
// as AudioBuffers on the page's one AudioContext. An item starts once a little audio is queued (or its stream
// pauses), and starts over that way after running dry, so network jitter does not turn into clicks. stop()
// silences everything at once and says how much of the item being heard was actually heard (from the
// context's clock), which the relay needs to cut Nika's reply where the learner interrupted it.
import { pcm16ToFloat } from "./pcm";

export interface PlayerBuffer {
  readonly duration: number;
  copyToChannel(source: Float32Array<ArrayBuffer>, channel: number): void;
}

export interface PlayerSource {
  buffer: PlayerBuffer | null;
  onended: ((event: Event) => void) | null;
  connect(destination: never): unknown;
  start(when: number): void;
  stop(): void;
  disconnect(): void;
}

/** What of an AudioContext the player uses (tests pass a fake with a clock they move). */
export interface PlayerContext {
  readonly currentTime: number;
  /** Seconds between the context's clock and the speakers, where the browser knows it. */
  readonly outputLatency?: number;
  readonly destination: unknown;
  createBuffer(channels: number, length: number, sampleRate: number): PlayerBuffer;
  createBufferSource(): PlayerSource;
}

export interface LivePlayerOptions {
  /** The rate of the PCM16 pushed. */
  sampleRate: number;
  /** An item (or a stream that ran dry) starts once this much is queued… */
  startBufferMs?: number;
  /** …or once its stream paused this long. */
  startWaitMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

export type StoppedItem = { itemId: string; playedMs: number };

export const DEFAULT_START_BUFFER_MS = 80;
export const DEFAULT_START_WAIT_MS = 40;
/** Audio is scheduled at least this far ahead of the clock; closer than this the queue counts as run dry. */
const LEAD_SECONDS = 0.015;

type Segment = { start: number; duration: number };
type Item = { id: string; segments: Segment[]; pendingSeconds: number };

export type LivePlayer = ReturnType<typeof createLivePlayer>;

export function createLivePlayer(context: PlayerContext, options: LivePlayerOptions) {
  const startBuffer = (options.startBufferMs ?? DEFAULT_START_BUFFER_MS) / 1000;
  const startWait = options.startWaitMs ?? DEFAULT_START_WAIT_MS;
  const setTimer = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimeout ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const listeners = new Set<() => void>();
  const sources = new Set<PlayerSource>();
  /** Items in the order they play; the last one is the one frames are arriving for. */
  let items: Item[] = [];
  let pending: { item: Item; samples: Float32Array<ArrayBuffer> }[] = [];
  let pendingSeconds = 0;
  let scheduledEnd = 0;
  let timer: unknown = null;
  let speaking = false;
  let closed = false;

  function setSpeaking(next: boolean) {
    if (next === speaking) return;
    speaking = next;
    [...listeners].forEach((listener) => listener());
  }

  const heardUntil = () => context.currentTime - (context.outputLatency ?? 0);
  const played = (item: Item, at: number) => item.segments.reduce((sum, s) => sum + Math.min(Math.max(at - s.start, 0), s.duration), 0);
  const queued = (item: Item) => item.segments.reduce((sum, s) => sum + s.duration, 0) + item.pendingSeconds;

  function clearWait() {
    if (timer !== null) clearTimer(timer);
    timer = null;
  }

  function schedule(item: Item, samples: Float32Array<ArrayBuffer>, at: number) {
    const buffer = context.createBuffer(1, samples.length, options.sampleRate);
    buffer.copyToChannel(samples, 0);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination as never);
    source.onended = () => {
      if (!sources.delete(source)) return;
      source.disconnect();
      if (sources.size === 0 && pending.length === 0) setSpeaking(false);
    };
    source.start(at);
    sources.add(source);
    const last = item.segments.at(-1);
    if (last && Math.abs(last.start + last.duration - at) < 1e-6) last.duration += buffer.duration;
    else item.segments.push({ start: at, duration: buffer.duration });
    scheduledEnd = at + buffer.duration;
  }

  /** Starts what is waiting, right after what is already queued. */
  function flush() {
    clearWait();
    let at = Math.max(context.currentTime + LEAD_SECONDS, scheduledEnd);
    for (const { item, samples } of pending) {
      item.pendingSeconds -= samples.length / options.sampleRate;
      schedule(item, samples, at);
      at = scheduledEnd;
    }
    pending = [];
    pendingSeconds = 0;
  }

  /** Queues one frame of PCM16 LE for `itemId`. */
  function push(itemId: string, pcm: ArrayBuffer | ArrayBufferView): void {
    if (closed) return;
    const samples = pcm16ToFloat(pcm);
    if (samples.length === 0) return;
    let item = items.at(-1);
    if (item?.id !== itemId) {
      // Earlier items already heard in full are done with.
      const now = heardUntil();
      items = items.filter((each) => each.pendingSeconds > 0 || played(each, now) < queued(each));
      item = { id: itemId, segments: [], pendingSeconds: 0 };
      items.push(item);
    }
    if (pending.length === 0 && scheduledEnd > context.currentTime + LEAD_SECONDS) {
      schedule(item, samples, scheduledEnd);
    } else {
      const seconds = samples.length / options.sampleRate;
      pending.push({ item, samples });
      pendingSeconds += seconds;
      item.pendingSeconds += seconds;
      if (pendingSeconds >= startBuffer) flush();
      else {
        clearWait();
        timer = setTimer(() => {
          timer = null;
          flush();
        }, startWait);
      }
    }
    setSpeaking(true);
  }

  /** Silences everything now. Returns the item being heard and how much of it was heard, or null when nothing was playing or waiting to. */
  function stop(): StoppedItem | null {
    const now = heardUntil();
    const heard = items.find((item) => played(item, now) < queued(item) - 1e-6);
    const result = heard ? { itemId: heard.id, playedMs: Math.round(played(heard, now) * 1000) } : null;
    clearWait();
    for (const source of [...sources]) {
      sources.delete(source);
      source.onended = null;
      try {
        source.stop();
      } catch {
        // not started yet in some browsers' eyes: disconnecting silences it anyway
      }
      source.disconnect();
    }
    items = [];
    pending = [];
    pendingSeconds = 0;
    scheduledEnd = 0;
    setSpeaking(false);
    return result;
  }

  return {
    push,
    stop,
    /** Stops and refuses anything more (the session is over). */
    close(): void {
      stop();
      closed = true;
    },
    isSpeaking: (): boolean => speaking,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
