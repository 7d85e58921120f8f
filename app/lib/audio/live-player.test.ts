import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLivePlayer, type PlayerBuffer, type PlayerContext, type PlayerSource } from "./live-player";
import { floatToPcm16 } from "./pcm";

const RATE = 24_000;

class FakeBuffer implements PlayerBuffer {
  data = new Float32Array(0);
  constructor(readonly length: number) {}
  get duration() {
    return this.length / RATE;
  }
  copyToChannel(source: Float32Array) {
    this.data = source.slice();
  }
}

class FakeSource implements PlayerSource {
  buffer: PlayerBuffer | null = null;
  onended: ((event: Event) => void) | null = null;
  startedAt: number | null = null;
  stopped = false;
  connected = false;
  connect() {
    this.connected = true;
  }
  start(when: number) {
    this.startedAt = when;
  }
  stop() {
    this.stopped = true;
  }
  disconnect() {
    this.connected = false;
  }
  get end() {
    return this.startedAt! + this.buffer!.duration;
  }
}

class FakeContext implements PlayerContext {
  currentTime = 10;
  outputLatency = 0;
  destination = {};
  sources: FakeSource[] = [];
  createBuffer(channels: number, length: number, sampleRate: number) {
    expect(channels).toBe(1);
    expect(sampleRate).toBe(RATE);
    return new FakeBuffer(length);
  }
  createBufferSource() {
    const source = new FakeSource();
    this.sources.push(source);
    return source;
  }
  /** Moves the clock and ends the sources it passed, as the audio thread would. */
  advance(seconds: number) {
    this.currentTime += seconds;
    for (const source of this.sources)
      if (source.startedAt !== null && !source.stopped && source.end <= this.currentTime) source.onended?.(new Event("ended"));
  }
  get scheduled() {
    return this.sources.filter((s) => s.startedAt !== null);
  }
}

/** `ms` of PCM16 at 24 kHz, every sample `value`. */
const frame = (ms: number, value = 0.5) => floatToPcm16(new Float32Array((RATE * ms) / 1000).fill(value));

function setup() {
  const context = new FakeContext();
  const player = createLivePlayer(context, { sampleRate: RATE, startBufferMs: 80, startWaitMs: 40 });
  return { context, player };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("jitter buffer", () => {
  it("starts an item only once 80 ms are queued, then plays the frames back to back", () => {
    const { context, player } = setup();
    player.push("a", frame(40));
    expect(context.scheduled).toHaveLength(0);
    player.push("a", frame(40));
    expect(context.scheduled).toHaveLength(2);
    const [first, second] = context.scheduled;
    expect(first!.startedAt).toBeGreaterThan(context.currentTime); // a little ahead of the clock, never behind it
    expect(first!.startedAt).toBeLessThan(context.currentTime + 0.03);
    expect(second!.startedAt).toBeCloseTo(first!.end, 9);
    expect(first!.connected).toBe(true);
    expect((first!.buffer as FakeBuffer).data.every((v) => Math.abs(v - 0.5) < 1e-4)).toBe(true);
  });

  it("starts a short item once its stream pauses", () => {
    const { context, player } = setup();
    player.push("a", frame(20));
    vi.advanceTimersByTime(39);
    player.push("a", frame(20));
    vi.advanceTimersByTime(39);
    expect(context.scheduled).toHaveLength(0); // each frame restarts the wait
    vi.advanceTimersByTime(1);
    expect(context.scheduled).toHaveLength(2);
  });

  it("once running, schedules each frame as it comes, right after the previous one", () => {
    const { context, player } = setup();
    player.push("a", frame(80));
    context.advance(0.03);
    player.push("a", frame(40));
    expect(context.scheduled).toHaveLength(2);
    expect(context.scheduled[1]!.startedAt).toBeCloseTo(context.scheduled[0]!.end, 9);
  });

  it("after running dry it buffers again before going on", () => {
    const { context, player } = setup();
    player.push("a", frame(80));
    context.advance(0.2);
    player.push("a", frame(40));
    expect(context.scheduled).toHaveLength(1);
    player.push("a", frame(40));
    expect(context.scheduled).toHaveLength(3);
    expect(context.scheduled[1]!.startedAt).toBeGreaterThan(context.currentTime);
  });

  it("a new item arriving while the previous one plays follows it without waiting", () => {
    const { context, player } = setup();
    player.push("a", frame(80));
    player.push("b", frame(20));
    expect(context.scheduled).toHaveLength(2);
    expect(context.scheduled[1]!.startedAt).toBeCloseTo(context.scheduled[0]!.end, 9);
  });
});

describe("stop", () => {
  it("stops every scheduled source at once and reports what was heard by the clock, not what was queued", () => {
    const { context, player } = setup();
    for (let i = 0; i < 10; i++) player.push("a", frame(40)); // 400 ms queued
    const start = context.scheduled[0]!.startedAt!;
    context.advance(start - context.currentTime + 0.123);
    expect(player.stop()).toEqual({ itemId: "a", playedMs: 123 });
    const unfinished = context.scheduled.filter((s) => s.end > context.currentTime);
    expect(unfinished).toHaveLength(7);
    expect(unfinished.every((s) => s.stopped)).toBe(true);
    expect(context.scheduled.every((s) => !s.connected)).toBe(true);
  });

  it("counts the speakers' latency as not heard yet", () => {
    const { context, player } = setup();
    player.push("a", frame(400));
    context.outputLatency = 0.02;
    context.advance(context.scheduled[0]!.startedAt! - context.currentTime + 0.1);
    expect(player.stop()).toEqual({ itemId: "a", playedMs: 80 });
  });

  it("does not count the gap of a stream that ran dry", () => {
    const { context, player } = setup();
    player.push("a", frame(80));
    context.advance(0.5); // all 80 ms heard, then silence
    player.push("a", frame(80));
    const restart = context.scheduled[1]!.startedAt!;
    context.advance(restart - context.currentTime + 0.03);
    expect(player.stop()).toEqual({ itemId: "a", playedMs: 110 });
  });

  it("reports the item being heard when the next one is already queued", () => {
    const { context, player } = setup();
    player.push("a", frame(80));
    player.push("b", frame(80));
    context.advance(context.scheduled[0]!.startedAt! - context.currentTime + 0.05);
    expect(player.stop()).toEqual({ itemId: "a", playedMs: 50 });

    player.push("c", frame(80));
    player.push("d", frame(80));
    context.advance(context.scheduled[2]!.startedAt! - context.currentTime + 0.1);
    expect(player.stop()).toEqual({ itemId: "d", playedMs: 20 });
  });

  it("an item still buffering was heard for 0 ms; nothing queued or all heard is null", () => {
    const { context, player } = setup();
    expect(player.stop()).toBeNull();
    player.push("a", frame(40));
    expect(player.stop()).toEqual({ itemId: "a", playedMs: 0 });
    vi.advanceTimersByTime(100);
    expect(context.scheduled).toHaveLength(0); // the waiting frame went with it

    player.push("b", frame(80));
    context.advance(1);
    expect(player.stop()).toBeNull();
  });

  it("after stop, new frames start a fresh buffer", () => {
    const { context, player } = setup();
    player.push("a", frame(80));
    player.stop();
    player.push("b", frame(40));
    expect(context.scheduled).toHaveLength(1);
    player.push("b", frame(40));
    expect(context.scheduled).toHaveLength(3);
  });
});

describe("speaking", () => {
  it("is true from the first frame until the last source ends, and false at once on stop", () => {
    const { context, player } = setup();
    const listener = vi.fn();
    player.subscribe(listener);
    expect(player.isSpeaking()).toBe(false);
    player.push("a", frame(40));
    expect(player.isSpeaking()).toBe(true);
    player.push("a", frame(40));
    context.advance(0.06);
    expect(player.isSpeaking()).toBe(true);
    context.advance(0.1);
    expect(player.isSpeaking()).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);

    player.push("b", frame(80));
    const ended = context.scheduled.at(-1)!;
    player.stop();
    expect(player.isSpeaking()).toBe(false);
    ended.onended?.(new Event("ended")); // a late 'ended' from a stopped source changes nothing
    expect(listener).toHaveBeenCalledTimes(4);
  });

  it("close() stops and refuses more audio", () => {
    const { context, player } = setup();
    player.push("a", frame(80));
    player.close();
    player.push("a", frame(80));
    expect(context.scheduled).toHaveLength(1);
    expect(context.scheduled[0]!.stopped).toBe(true);
    expect(player.isSpeaking()).toBe(false);
  });
});
