import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getAiProviders, NIKA_UNAVAILABLE } from "~/server/ai/index.server";
import { createOpenAiProviders } from "~/server/ai/openai.server";
import { ProviderError, type ChatProvider, type ProviderErrorKind } from "~/server/ai/types";
import { createWebhookProviders } from "~/server/ai/webhook.server";
import { freePort, startFakeUpstream } from "./fake-upstream";

// The AI providers against the fake upstream, which speaks the OpenAI HTTP protocol and the spec §7 webhooks.
// A free port of its own (parallel runs and Stryker workers may run this file at once).
const PORT = await freePort();
const API = `http://127.0.0.1:${PORT}`;
const KEY = "right-openai-key";
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;

beforeAll(async () => {
  upstream = await startFakeUpstream(PORT, ["--openai-key", KEY]);
});
afterAll(() => upstream?.stop());
beforeEach(async () => {
  await fetch(`${API}/__ai/reset`, { method: "POST" });
});

const hook = (query: string) => fetch(`${API}/__ai/next?${query}`, { method: "POST" });
const requests = async () => (await (await fetch(`${API}/__ai/requests`)).json()) as { path: string; body: Record<string, unknown> }[];
const messages = [
  { role: "system" as const, content: "You are Nika." },
  { role: "user" as const, content: "I like football" },
];

async function collect(chat: ChatProvider, signal?: AbortSignal): Promise<{ pieces: string[]; times: number[] }> {
  const pieces: string[] = [];
  const times: number[] = [];
  for await (const piece of chat.streamChat({
    messages,
    maxTokens: 200,
    signal,
    context: { sessionId: "s-1", mode: "english", userId: "u-1" },
  })) {
    pieces.push(piece);
    times.push(performance.now());
  }
  return { pieces, times };
}

async function expectKind(promise: Promise<unknown>, kind: ProviderErrorKind) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `expected ProviderError ${kind}`).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).kind).toBe(kind);
}

const openai = (options: Parameters<typeof createOpenAiProviders>[1] = {}, apiKey = KEY) =>
  createOpenAiProviders({ baseUrl: `${API}/v1/`, apiKey, chatModel: "fake-chat" }, options);

describe("OpenAI-compatible provider", () => {
  it("streams the reply in order, in several pieces, as they arrive", async () => {
    await fetch(`${API}/__ai/config?tokenDelay=30`, { method: "POST" });
    const { pieces, times } = await collect(openai().chat);
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join("")).toBe('Você disse: "I like football". Muito bem, continue praticando!');
    // pieces arrive spread over time, not all at the end
    expect(times.at(-1)! - times[0]!).toBeGreaterThan(30 * (pieces.length - 2));
    const [sent] = await requests();
    expect(sent!.body).toMatchObject({ model: "fake-chat", stream: true, max_tokens: 200, messages });
  });

  it("transcribes with verbose_json and word timestamps", async () => {
    const wav = new Uint8Array(2048).fill(1);
    const result = await openai().stt!.transcribe({ bytes: wav, mimeType: "audio/wav" });
    expect(result.text).toBe("I like to play football");
    expect(result.words?.map((w) => w.word)).toEqual(["I", "like", "to", "play", "football"]);
    expect(result.words![1]).toMatchObject({ start: 0.4, end: 0.75 });
    const [sent] = await requests();
    expect(sent!.body).toMatchObject({
      model: "whisper-1",
      response_format: "verbose_json",
      "timestamp_granularities[]": ["word"],
      file: { name: "audio.wav", type: "audio/wav", size: 2048 },
    });
  });

  it("synthesises speech into audio bytes", async () => {
    const audio = await openai().tts!.synthesize("Hello, Maria!");
    expect(audio.mimeType).toBe("audio/mpeg");
    expect(audio.bytes.length).toBeGreaterThan(100);
    expect([...audio.bytes.slice(0, 2)]).toEqual([0xff, 0xfb]); // MPEG frame sync
  });

  it("times out a slow chat (before the first byte and mid-stream)", async () => {
    await hook("mode=slow&delay=1500");
    await expectKind(collect(openai({ chatTimeoutMs: 200 }).chat), "timeout");
    await hook("mode=stall&delay=1500");
    await expectKind(collect(openai({ chatTimeoutMs: 300 }).chat), "timeout");
  });

  it("times out slow audio calls", async () => {
    await hook("mode=slow&delay=1500&count=2");
    const p = openai({ audioTimeoutMs: 200 });
    await expectKind(p.stt!.transcribe({ bytes: new Uint8Array(1024), mimeType: "audio/wav" }), "timeout");
    await expectKind(p.tts!.synthesize("hi"), "timeout");
  });

  it("reports malformed streams, JSON and audio as bad_response", async () => {
    await hook("mode=malformed&count=3");
    const p = openai();
    await expectKind(collect(p.chat), "bad_response");
    await expectKind(p.stt!.transcribe({ bytes: new Uint8Array(1024), mimeType: "audio/wav" }), "bad_response");
    await expectKind(p.tts!.synthesize("hi"), "bad_response");
  });

  it("reports a wrong key as refused, a server error and a closed port as unreachable", async () => {
    const wrong = openai({}, "wrong-key");
    await expectKind(collect(wrong.chat), "refused");
    await expectKind(wrong.stt!.transcribe({ bytes: new Uint8Array(1024), mimeType: "audio/wav" }), "refused");
    await expectKind(wrong.tts!.synthesize("hi"), "refused");
    await hook("mode=error");
    await expectKind(collect(openai().chat), "unreachable");
    await expectKind(collect(createOpenAiProviders({ baseUrl: "http://127.0.0.1:9/v1", apiKey: KEY }).chat), "unreachable");
  });

  it("stops when the caller aborts", async () => {
    await fetch(`${API}/__ai/config?tokenDelay=50`, { method: "POST" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 120);
    const error = await collect(openai().chat, controller.signal).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).not.toBe("timeout");
  });
});

describe("webhook provider (spec §7)", () => {
  const webhook = (options: Parameters<typeof createWebhookProviders>[1] = {}) =>
    createWebhookProviders({ chatUrl: `${API}/webhook/nika-chat`, userAudioUrl: `${API}/webhook/user-audio` }, options);

  it("sends the contract's body and yields the whole reply as one piece", async () => {
    const { pieces } = await collect(webhook().chat!);
    expect(pieces).toEqual(['Você disse: "I like football". Muito bem, continue praticando!']);
    const [sent] = await requests();
    expect(sent!.body).toEqual({ sessionID: "s-1", mode: "english", userText: "I like football", userAudio: null, userId: "u-1" });
  });

  it("transcribes through the user-audio webhook with base64 audio", async () => {
    const bytes = new Uint8Array([82, 73, 70, 70, 1, 2, 3]);
    const result = await webhook().stt!.transcribe({
      bytes,
      mimeType: "audio/wav",
      context: { sessionId: "s-2", mode: "english", userId: "u-2" },
    });
    expect(result).toEqual({ text: "I like to play football" });
    const [sent] = await requests();
    expect(sent!.body).toEqual({ sessionID: "s-2", mode: "english", userAudio: Buffer.from(bytes).toString("base64"), userId: "u-2" });
  });

  it("times out and reports malformed replies", async () => {
    await hook("mode=slow&delay=1500&count=2");
    const slow = webhook({ chatTimeoutMs: 200, audioTimeoutMs: 200 });
    await expectKind(collect(slow.chat!), "timeout");
    await expectKind(slow.stt!.transcribe({ bytes: new Uint8Array(8), mimeType: "audio/wav" }), "timeout");
    await hook("mode=malformed&count=2");
    await expectKind(collect(webhook().chat!), "bad_response");
    await expectKind(webhook().stt!.transcribe({ bytes: new Uint8Array(8), mimeType: "audio/wav" }), "bad_response");
  });
});

describe("getAiProviders", () => {
  it("chooses OpenAI-compatible first, then Workers AI, then webhooks, else null", () => {
    const hooks = { NIKA_CHAT_WEBHOOK_URL: `${API}/webhook/nika-chat` };
    const ai = { run: async () => ({}) } as unknown as Ai;
    expect(getAiProviders({ OPENAI_BASE_URL: `${API}/v1`, AI: ai, ...hooks })!.chat.name).toBe("openai");
    expect(getAiProviders({ AI: ai, ...hooks })!.chat.name).toBe("workers-ai");
    const viaHook = getAiProviders(hooks)!;
    expect(viaHook.chat.name).toBe("webhook");
    expect(viaHook.stt).toBeNull();
    expect(viaHook.tts).toBeNull();
    expect(getAiProviders({})).toBeNull();
    expect(NIKA_UNAVAILABLE).toBe("Nika não está disponível");
  });

  it("streams from the fake upstream when only OPENAI_BASE_URL and the key are set", async () => {
    const providers = getAiProviders({ OPENAI_BASE_URL: `${API}/v1`, OPENAI_API_KEY: KEY, OPENAI_CHAT_MODEL: "m" })!;
    const { pieces } = await collect(providers.chat);
    expect(pieces.join("")).toContain("I like football");
  });
});
