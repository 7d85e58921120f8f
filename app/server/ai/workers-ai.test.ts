import { describe, expect, it } from "vitest";
import { ProviderError } from "./types";
import { createWorkersAiProviders, parseWhisper, workersAiTokens, type AiRunner } from "./workers-ai.server";

const enc = new TextEncoder();
function byteStream(text: string, pieceSize: number): ReadableStream<Uint8Array> {
  const bytes = enc.encode(text);
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, (at += pieceSize)));
    },
  });
}
const bindingOutput =
  'data: {"response":"Olá","p":"abc"}\n\n' +
  'data: {"response":", Maria! "}\n\n' +
  'data: {"response":"Ótimo 👍"}\n\n' +
  'data: {"response":"","usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}\n\n' +
  "data: [DONE]\n\n";

async function all(it: AsyncIterable<string>) {
  const out: string[] = [];
  for await (const s of it) out.push(s);
  return out;
}

describe("Workers AI stream", () => {
  it("yields the response pieces in order, whatever the byte split", async () => {
    for (const size of [1, 2, 3, 7, 1000]) {
      expect(await all(workersAiTokens(byteStream(bindingOutput, size)))).toEqual(["Olá", ", Maria! ", "Ótimo 👍"]);
    }
  });

  it("accepts OpenAI-shaped chunks", async () => {
    const text = 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\n';
    expect(await all(workersAiTokens(byteStream(text, 5)))).toEqual(["Hi"]);
  });

  it("rejects malformed and empty streams as bad_response", async () => {
    await expect(all(workersAiTokens(byteStream("data: {oops\n\n", 4)))).rejects.toMatchObject({ kind: "bad_response" });
    await expect(all(workersAiTokens(byteStream("data: [DONE]\n\n", 4)))).rejects.toBeInstanceOf(ProviderError);
  });

  it("runs the chat model with stream and max_tokens through the binding", async () => {
    const calls: unknown[] = [];
    const ai: AiRunner = {
      run: async (model, inputs) => {
        calls.push({ model, inputs });
        return byteStream(bindingOutput, 9);
      },
    };
    const { chat } = createWorkersAiProviders(ai);
    expect((await all(chat.streamChat({ messages: [{ role: "user", content: "oi" }], maxTokens: 300 }))).join("")).toBe("Olá, Maria! Ótimo 👍");
    expect(calls[0]).toMatchObject({ inputs: { stream: true, max_tokens: 300, messages: [{ role: "user", content: "oi" }] } });
  });

  it("times out a binding that never answers", async () => {
    const ai: AiRunner = { run: () => new Promise(() => {}) };
    const { chat } = createWorkersAiProviders(ai, { chatTimeoutMs: 50 });
    await expect(all(chat.streamChat({ messages: [], maxTokens: 10 }))).rejects.toMatchObject({ kind: "timeout" });
  });
});

describe("Whisper answers", () => {
  it("reads words from v3-turbo segments and from the top level", () => {
    expect(
      parseWhisper({
        text: " I like ",
        segments: [
          {
            words: [
              { word: " I", start: 0, end: 0.2 },
              { word: "like", start: 0.2, end: 0.5 },
            ],
          },
        ],
      }),
    ).toEqual({
      text: "I like",
      words: [
        { word: "I", start: 0, end: 0.2 },
        { word: "like", start: 0.2, end: 0.5 },
      ],
    });
    expect(parseWhisper({ text: "hi", words: [{ word: "hi", start: 0, end: 1 }] }).words).toHaveLength(1);
    expect(() => parseWhisper({ nope: 1 })).toThrow(ProviderError);
  });
});
