import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { freePort, startFakeUpstream } from "./fake-upstream";

// The fake upstream's OpenAI Realtime provider (tests/fake-upstream/realtime.mjs) driven over a real WebSocket the
// way the app's relay drives it: the upgrade's checks, a spoken turn through its VAD, the reply's audio and
// captions, barge-in with and without the provider's own interruption, cancel, truncate, and each failure hook.
const PORT = await freePort();
const HTTP = `http://127.0.0.1:${PORT}`;
const URL_ = `ws://127.0.0.1:${PORT}/v1/realtime?model=gpt-realtime`;
const KEY = "test-openai-key";
const RATE = 24_000;
const FRAME_MS = 40;

let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
const clients: Client[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream(PORT);
});
afterAll(() => {
  for (const client of clients) client.ws.terminate();
  upstream?.stop();
});
beforeEach(async () => {
  await post("/__live/reset");
});

type Event = { type: string; [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function post(path: string, body?: unknown) {
  const res = await fetch(`${HTTP}${path}`, { method: "POST", body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function sessions(): Promise<Event[]> {
  return (await fetch(`${HTTP}/__live/sessions`)).json();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One provider connection that keeps every event it receives, in order. */
class Client {
  events: Event[] = [];
  closed: Promise<number>;
  private listeners = new Set<() => void>();

  constructor(readonly ws: WebSocket) {
    clients.push(this);
    ws.on("message", (data) => {
      this.events.push(JSON.parse(String(data)));
      for (const listener of this.listeners) listener();
    });
    this.closed = new Promise((resolve) => ws.on("close", (code) => resolve(code)));
  }

  static async open(session?: Record<string, unknown>) {
    const ws = new WebSocket(URL_, { headers: { Authorization: `Bearer ${KEY}` } });
    const client = new Client(ws);
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    await client.next("session.created");
    if (session) {
      client.send({ type: "session.update", session: { type: "realtime", ...session } });
      await client.next("session.updated");
    }
    return client;
  }

  send(event: Record<string, unknown>) {
    this.ws.send(JSON.stringify(event));
  }

  /** Appends `ms` of audio in 40 ms frames: a 300 Hz tone at `amplitude` of full scale, or silence at 0. */
  speak(ms: number, amplitude = 0.25) {
    for (let at = 0; at < ms; at += FRAME_MS)
      this.send({ type: "input_audio_buffer.append", audio: pcm(FRAME_MS, amplitude).toString("base64") });
  }

  /** The first event of `type` (matching `where`) received so far or from now on. */
  next(type: string, where: (event: Event) => boolean = () => true, timeout = 5000): Promise<Event> {
    const find = () => this.events.find((event) => event.type === type && where(event));
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (!found) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`no ${type} within ${timeout} ms; got ${this.types().join(", ")}`));
      }, timeout);
      this.listeners.add(check);
      check();
    });
  }

  types() {
    return this.events.map((event) => event.type);
  }

  of(type: string) {
    return this.events.filter((event) => event.type === type);
  }
}

function pcm(ms: number, amplitude: number) {
  const samples = (RATE * ms) / 1000;
  const buf = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) buf.writeInt16LE(Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * 300 * i) / RATE)), i * 2);
  return buf;
}

/** The HTTP status an upgrade is answered with (101 when it opens). */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once("open", () => {
      ws.terminate();
      resolve(101);
    });
    ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.once("error", reject);
  });
}

const TURN = {
  audio: {
    input: {
      transcription: { model: "gpt-4o-mini-transcribe" },
      turn_detection: { type: "server_vad", silence_duration_ms: 500, threshold: 0.5, interrupt_response: false, create_response: true },
    },
    output: { voice: "marin" },
  },
  instructions: "You are Nika.",
};

describe("upgrade", () => {
  it("needs the key and a model", async () => {
    expect(await upgradeStatus(URL_, {})).toBe(401);
    expect(await upgradeStatus(URL_, { Authorization: "Bearer wrong" })).toBe(401);
    expect(await upgradeStatus(`ws://127.0.0.1:${PORT}/v1/realtime`, { Authorization: `Bearer ${KEY}` })).toBe(400);
    expect(await upgradeStatus(`ws://127.0.0.1:${PORT}/v1/other?model=m`, { Authorization: `Bearer ${KEY}` })).toBe(404);
    expect(await upgradeStatus(URL_, { Authorization: `Bearer ${KEY}` })).toBe(101);
    expect(await sessions()).toHaveLength(1);
  });

  it("creates a session and merges session.update into it", async () => {
    const client = await Client.open(TURN);
    const created = client.of("session.created")[0];
    expect(created.session).toMatchObject({
      type: "realtime",
      model: "gpt-realtime",
      audio: { input: { format: { type: "audio/pcm", rate: 24000 } } },
    });
    const updated = client.of("session.updated")[0].session;
    expect(updated.instructions).toBe("You are Nika.");
    expect(updated.audio.input.turn_detection).toMatchObject({ silence_duration_ms: 500, interrupt_response: false, prefix_padding_ms: 300 });
    expect(updated.audio.output).toMatchObject({ voice: "marin", format: { type: "audio/pcm", rate: 24000 } });
    expect((await sessions())[0].sessionUpdate).toEqual({ type: "realtime", ...TURN });
  });

  it("refuses a session.update without type or with another audio format, and unknown or malformed events", async () => {
    const client = await Client.open();
    client.send({ type: "session.update", session: { instructions: "x" } });
    expect((await client.next("error")).error).toMatchObject({ type: "invalid_request_error", param: "session.type" });
    client.send({ type: "session.update", session: { type: "realtime", audio: { input: { format: { type: "audio/pcm", rate: 16000 } } } } });
    await client.next("error", (e) => e.error.param === "session.audio.input.format");
    client.send({ type: "response.explode" });
    await client.next("error", (e) => e.error.code === "invalid_value" && e.error.param === "type");
    client.ws.send("{not json");
    await client.next("error", (e) => e.error.code === "invalid_json");
    client.send({ type: "input_audio_buffer.append", audio: Buffer.alloc(3).toString("base64") });
    await client.next("error", (e) => e.error.param === "audio");
    expect(client.of("session.updated")).toHaveLength(0);
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
  });
});

describe("a spoken turn", () => {
  it("is detected from the audio, transcribed and answered with paced audio and captions", async () => {
    await post("/__live/config", { replyMs: 600 });
    const client = await Client.open(TURN);
    client.speak(600);
    client.speak(800, 0);
    const started = await client.next("input_audio_buffer.speech_started");
    const stopped = await client.next("input_audio_buffer.speech_stopped");
    expect(started.audio_start_ms).toBe(0);
    expect(stopped).toMatchObject({ audio_end_ms: 600, item_id: started.item_id });
    expect(await client.next("input_audio_buffer.committed")).toMatchObject({ item_id: started.item_id, previous_item_id: null });
    expect(await client.next("conversation.item.input_audio_transcription.completed")).toMatchObject({
      item_id: started.item_id,
      content_index: 0,
      transcript: "Hello Nika, how are you?",
    });
    const done = await client.next("response.done");
    const types = client.types();
    const order = [
      "response.created",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_audio.delta",
      "response.output_audio.done",
      "response.output_audio_transcript.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.done",
    ];
    expect(order.map((type) => types.indexOf(type))).toEqual(order.map((type) => types.indexOf(type)).sort((a, b) => a - b));
    const itemId = client.of("response.output_item.added")[0].item.id;
    const deltas = client.of("response.output_audio.delta");
    expect(deltas.every((d) => d.item_id === itemId && d.response_id === done.response.id)).toBe(true);
    const audio = Buffer.concat(deltas.map((d) => Buffer.from(d.delta, "base64")));
    expect(audio.length).toBe(600 * 48); // 600 ms of PCM16 at 24 kHz
    expect(deltas).toHaveLength(6);
    const samples = new Int16Array(audio.buffer, audio.byteOffset, audio.length / 2);
    const rms = Math.sqrt(samples.reduce((sum, s) => sum + (s / 32768) ** 2, 0) / samples.length);
    expect(rms).toBeGreaterThan(0.2); // clearly audible
    const captions = client.of("response.output_audio_transcript.delta");
    expect(captions.length).toBeGreaterThan(1);
    expect(captions.map((c) => c.delta).join("")).toBe("Hi! I'm fine, thank you. How are you today?");
    expect(client.of("response.output_audio_transcript.done")[0].transcript).toBe("Hi! I'm fine, thank you. How are you today?");
    expect(done.response).toMatchObject({ status: "completed", output: [{ id: itemId, role: "assistant", status: "completed" }] });

    const [log] = await sessions();
    expect(log.appendedBytes).toBe(35 * 1920);
    const appends = log.events.filter((e: Event) => e.type === "input_audio_buffer.append");
    expect(appends).toHaveLength(35);
    expect(appends[0]).toEqual({ type: "input_audio_buffer.append", at: expect.any(Number), bytes: 1920, firstSample: 0 });
    const [response] = log.responses;
    expect(response).toMatchObject({ id: done.response.id, itemId, status: "completed", cancelledAt: null });
    // paced at real time: the last of 600 ms of audio leaves about 500 ms after the first
    const elapsed = performance.timeOrigin + performance.now() - response.firstAudioAt;
    expect(elapsed).toBeGreaterThan(450);
  });

  it("hears silence and quiet audio as silence, unless the threshold is lowered", async () => {
    const client = await Client.open(TURN);
    client.speak(400, 0);
    client.speak(400, 0.01);
    client.speak(600, 0);
    client.send({ type: "input_audio_buffer.clear" });
    await client.next("input_audio_buffer.cleared");
    expect(client.of("input_audio_buffer.speech_started")).toHaveLength(0);
    await post("/__live/config", { vadThreshold: 0.005, replyMs: 100, pace: 0 });
    client.speak(400, 0.01);
    client.speak(600, 0);
    expect((await client.next("input_audio_buffer.speech_started")).audio_start_ms).toBe(1400);
    await client.next("response.done");
  });

  it("waits for silence_duration_ms of audio before the turn ends, and answers only when create_response allows", async () => {
    const client = await Client.open({
      audio: { input: { turn_detection: { type: "server_vad", silence_duration_ms: 1000, create_response: false } } },
    });
    client.speak(400);
    client.speak(960, 0);
    await client.next("input_audio_buffer.speech_started");
    await sleep(200);
    expect(client.of("input_audio_buffer.speech_stopped")).toHaveLength(0);
    client.speak(40, 0);
    await client.next("input_audio_buffer.committed");
    await sleep(200);
    expect(client.of("response.created")).toHaveLength(0);
    // no transcription configured: none sent, as the real API
    expect(client.of("conversation.item.input_audio_transcription.completed")).toHaveLength(0);
  });

  it("commits by hand: empty buffers refused, a response only on response.create without turn detection", async () => {
    await post("/__live/config", { replyMs: 2000, chunkMs: 50 });
    const client = await Client.open({ audio: { input: { transcription: { model: "whisper-1" }, turn_detection: null } } });
    client.send({ type: "input_audio_buffer.commit" });
    expect((await client.next("error")).error.code).toBe("input_audio_buffer_commit_empty");
    client.speak(400);
    client.send({ type: "input_audio_buffer.commit" });
    const committed = await client.next("input_audio_buffer.committed");
    await client.next("conversation.item.input_audio_transcription.completed", (e) => e.item_id === committed.item_id);
    expect(client.of("input_audio_buffer.speech_started")).toHaveLength(0);
    await sleep(100);
    expect(client.of("response.created")).toHaveLength(0);
    client.send({ type: "response.create" });
    await client.next("response.output_audio.delta");
    expect(client.of("response.output_audio.delta")[0].delta.length).toBe(Math.ceil((50 * 48) / 3) * 4);
    client.send({ type: "response.create" });
    await client.next("error", (e) => e.error.code === "conversation_already_has_active_response");
  });

  it("takes text items as context", async () => {
    const client = await Client.open();
    client.send({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "Oi" }] } });
    const done = await client.next("conversation.item.done");
    expect(done.item).toMatchObject({ role: "user", status: "completed", content: [{ text: "Oi" }] });
    client.send({ type: "conversation.item.create", item: { type: "function_call" } });
    await client.next("error", (e) => e.error.param === "item");
  });
});

describe("barge-in", () => {
  async function speaking(session: Record<string, unknown>) {
    const client = await Client.open(session);
    client.speak(600);
    client.speak(600, 0);
    await client.next("response.output_audio.delta");
    client.speak(200);
    await client.next("input_audio_buffer.speech_started", (e) => e.audio_start_ms === 1200);
    return client;
  }

  it("with interrupt_response false: speech_started only, the response plays on until response.cancel stops it at once", async () => {
    const client = await speaking(TURN);
    const before = client.of("response.output_audio.delta").length;
    await sleep(350);
    expect(client.of("response.output_audio.delta").length).toBeGreaterThan(before);
    expect(client.of("response.done")).toHaveLength(0);
    client.send({ type: "response.cancel" });
    const done = await client.next("response.done");
    expect(done.response).toMatchObject({ status: "cancelled", status_details: { type: "cancelled", reason: "client_cancelled" } });
    const after = client.of("response.output_audio.delta").length;
    await sleep(350);
    expect(client.of("response.output_audio.delta")).toHaveLength(after);
    expect(client.types().slice(client.types().indexOf("response.done"))).not.toContain("response.output_audio_transcript.delta");

    client.send({ type: "response.cancel" });
    expect((await client.next("error")).error).toMatchObject({ type: "invalid_request_error", code: "response_cancel_not_active" });
    const [log] = await sessions();
    expect(log.cancels).toBe(2);
    expect(log.responses[0]).toMatchObject({ status: "cancelled", cancelledAt: expect.any(Number) });
  });

  it("with interrupt_response on (the default): the provider cancels the response itself", async () => {
    const client = await speaking({ audio: { input: { turn_detection: { type: "server_vad" } } } });
    const done = await client.next("response.done");
    expect(done.response.status_details).toEqual({ type: "cancelled", reason: "turn_detected" });
    expect((await sessions())[0].cancels).toBe(0);
  });
});

describe("conversation.item.truncate", () => {
  it("echoes a truncate within the audio sent, refuses others", async () => {
    await post("/__live/config", { replyMs: 500, pace: 0 });
    const client = await Client.open(TURN);
    client.send({ type: "response.create" });
    const done = await client.next("response.done");
    const itemId = done.response.output[0].id;
    client.send({ type: "conversation.item.truncate", item_id: itemId, content_index: 0, audio_end_ms: 320 });
    expect(await client.next("conversation.item.truncated")).toMatchObject({ item_id: itemId, content_index: 0, audio_end_ms: 320 });
    client.send({ type: "conversation.item.truncate", item_id: itemId, content_index: 0, audio_end_ms: 400 });
    await client.next("error", (e) => e.error.param === "audio_end_ms");
    client.send({ type: "conversation.item.truncate", item_id: "item_nope", content_index: 0, audio_end_ms: 10 });
    await client.next("error", (e) => e.error.code === "item_truncate_invalid_item_id");
    expect((await sessions())[0].truncates).toEqual([{ item_id: itemId, audio_end_ms: 320 }]);
  });
});

describe("failure hooks", () => {
  it("refuse: the next connections' upgrades are answered 503", async () => {
    expect((await post("/__live/next?mode=refuse&count=2")).status).toBe(200);
    const auth = { Authorization: `Bearer ${KEY}` };
    expect(await upgradeStatus(URL_, auth)).toBe(503);
    expect(await upgradeStatus(URL_, auth)).toBe(503);
    expect(await upgradeStatus(URL_, auth)).toBe(101);
  });

  it("error: a server_error right after session.update, then close 1011", async () => {
    await post("/__live/next?mode=error");
    const ws = new WebSocket(URL_, { headers: { Authorization: `Bearer ${KEY}` } });
    const client = new Client(ws);
    await client.next("session.created");
    client.send({ type: "session.update", session: { type: "realtime", ...TURN } });
    expect((await client.next("error")).error).toMatchObject({ type: "server_error", code: "server_error" });
    expect(await client.closed).toBe(1011);
    expect(client.of("session.updated")).toHaveLength(0);
    // The server logs its side of the close when its socket ends, which may come just after the client's.
    await vi.waitFor(async () => expect((await sessions())[0]).toMatchObject({ closeCode: 1011, sessionUpdate: { type: "realtime" } }));
  });

  it("stall: answers session.update, then never anything again", async () => {
    await post("/__live/next?mode=stall");
    const client = await Client.open(TURN);
    const seen = client.events.length;
    client.speak(600);
    client.speak(800, 0);
    client.send({ type: "response.create" });
    client.send({ type: "nonsense" });
    await sleep(800);
    expect(client.events).toHaveLength(seen);
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    expect((await sessions())[0].appendedBytes).toBe(35 * 1920);
  });

  it("close: the connection dies with 1011 when the first response starts", async () => {
    await post("/__live/next?mode=close");
    const client = await Client.open(TURN);
    client.speak(600);
    client.speak(800, 0);
    expect(await client.closed).toBe(1011);
    expect(client.types()).toContain("input_audio_buffer.committed");
    expect(client.types()).not.toContain("response.created");
  });

  it("modes apply to the next connection only, and reset clears them", async () => {
    await post("/__live/next?mode=stall");
    await post("/__live/reset");
    await post("/__live/config", { replyMs: 100, pace: 0 });
    const client = await Client.open(TURN);
    client.send({ type: "response.create" });
    await client.next("response.done");
  });

  it("refuses unknown modes and settings", async () => {
    expect((await post("/__live/next?mode=explode")).status).toBe(400);
    expect((await post("/__live/config", { replyMs: -1 })).status).toBe(400);
    expect((await post("/__live/config", { speed: 2 })).status).toBe(400);
  });
});
