import { describe, expect, it } from "vitest";
import { parseSse, type SseEvent } from "./sse";

const enc = new TextEncoder();

/** A stream delivering `bytes` split at the given offsets. */
function streamOf(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const points = [0, ...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length];
  const pieces = points.slice(1).map((end, i) => bytes.slice(points[i], end));
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

async function collect(text: string, cuts: number[] = [], options?: Parameters<typeof parseSse>[1]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const ev of parseSse(streamOf(enc.encode(text), cuts), options)) out.push(ev);
  return out;
}

const openAiStream =
  'data: {"choices":[{"delta":{"content":"Olá"}}]}\n\n' +
  ": keep-alive\n\n" +
  'data: {"choices":[{"delta":{"content":", você está ótima 😀"}}]}\n\n' +
  "data: [DONE]\n\n";

describe("parseSse", () => {
  it("parses a whole stream and stops at [DONE]", async () => {
    const events = await collect(openAiStream);
    expect(events.map((e) => JSON.parse(e.data).choices[0].delta.content)).toEqual(["Olá", ", você está ótima 😀"]);
  });

  it("gives the same events for every single split point (mid-line, mid-UTF-8 character)", async () => {
    const bytes = enc.encode(openAiStream);
    const expected = await collect(openAiStream);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await collect(openAiStream, [cut]), `cut at ${cut}`).toEqual(expected);
    }
  });

  it("survives a stream delivered one byte at a time", async () => {
    const bytes = enc.encode(openAiStream);
    const cuts = Array.from({ length: bytes.length }, (_, i) => i);
    expect(await collect(openAiStream, cuts)).toEqual(await collect(openAiStream));
  });

  it("accepts CRLF, lone CR and LF line endings, including CR|LF split across chunks", async () => {
    const text = "event: a\r\ndata: one\r\n\r\nevent: b\rdata: two\r\rdata: three\n\n";
    const expected = [{ event: "a", data: "one" }, { event: "b", data: "two" }, { data: "three" }];
    expect(await collect(text)).toEqual(expected);
    const crlf = text.indexOf("\r\n") + 1; // between CR and LF
    expect(await collect(text, [crlf])).toEqual(expected);
    for (let cut = 1; cut < text.length; cut++) expect(await collect(text, [cut])).toEqual(expected);
  });

  it("joins multi-line data with LF, keeps event and id, ignores comments and unknown fields", async () => {
    const text = ": hello\nid: 7\nevent: message\ndata: first\ndata:second\ndata:  spaced\nretry: 100\nfoo: bar\n\n";
    expect(await collect(text)).toEqual([{ event: "message", id: "7", data: "first\nsecond\n spaced" }]);
  });

  it("skips blank events without data and strips a leading BOM", async () => {
    expect(await collect("\uFEFFdata: a\n\nevent: nothing\n\n\n\ndata: b\n\n")).toEqual([{ data: "a" }, { data: "b" }]);
  });

  it("dispatches a final event the server closed without a blank line", async () => {
    expect(await collect("data: a\n\ndata: tail")).toEqual([{ data: "a" }, { data: "tail" }]);
  });

  it("can pass [DONE] through when asked", async () => {
    expect(await collect("data: x\n\ndata: [DONE]\n\n", [], { stopAtDone: false })).toEqual([{ data: "x" }, { data: "[DONE]" }]);
  });

  it("stops reading and cancels the stream at [DONE]", async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode("data: a\n\ndata: [DONE]\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    const out: string[] = [];
    for await (const ev of parseSse(stream)) out.push(ev.data);
    expect(out).toEqual(["a"]);
    expect(cancelled).toBe(true);
  });
});
