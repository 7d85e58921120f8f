import { describe, expect, it } from "vitest";
import { liveTimings } from "./config.server";
import { heardPart, liveInstructions } from "./live.server";
import { LIVE_LIMITS, liveSocketPath, parseClientMessage } from "./protocol";

describe("parseClientMessage", () => {
  it("accepts exactly the browser's messages", () => {
    expect(parseClientMessage('{"type":"end"}')).toEqual({ type: "end" });
    expect(parseClientMessage('{"type":"interrupted","itemId":"item_1","playedMs":412.7}')).toEqual({
      type: "interrupted",
      itemId: "item_1",
      playedMs: 412,
    });
  });

  it("refuses anything else: other types, wrong fields, broken JSON, arrays", () => {
    for (const text of [
      '{"type":"response.create"}',
      '{"type":"mute","muted":true}',
      '{"type":"interrupted","itemId":"","playedMs":1}',
      '{"type":"interrupted","itemId":"a","playedMs":-1}',
      `{"type":"interrupted","itemId":"a","playedMs":${LIVE_LIMITS.maxSessionMs + 1}}`,
      `{"type":"interrupted","itemId":"${"a".repeat(101)}","playedMs":1}`,
      "{nope",
      "[]",
      "null",
    ]) {
      expect(parseClientMessage(text), text).toBeNull();
    }
  });

  it("builds the socket path, with the session to resume", () => {
    expect(liveSocketPath("c1")).toBe("/resources/live/c1");
    expect(liveSocketPath("c1", "s 1")).toBe("/resources/live/c1?resume=s%201");
  });
});

describe("heardPart", () => {
  const words = "one two three four five six seven eight nine ten";
  it("keeps the words in proportion to the audio played, marked as cut", () => {
    expect(heardPart(words, 1000, 4000)).toBe("one two…");
    expect(heardPart(words, 2000, 4000)).toBe("one two three four five…");
  });
  it("keeps everything when all was played, nothing when nothing was", () => {
    expect(heardPart(words, 4000, 4000)).toBe(words);
    expect(heardPart(words, 5000, 4000)).toBe(words);
    expect(heardPart(words, 0, 4000)).toBe("");
  });
});

describe("liveInstructions", () => {
  it("is the mode's own prompt, told it is spoken, with the turns so far", () => {
    const text = liveInstructions("english", [
      { role: "user", text: "I like football" },
      { role: "nika", text: "Great!" },
    ]);
    expect(text).toContain("SPOKEN CONVERSATION");
    expect(text).toContain("Learner: I like football\nNika: Great!");
    expect(liveInstructions("lesson", [], { title: "Verb to be" })).toContain('"Verb to be"');
  });
});

describe("liveTimings", () => {
  it("is a real minute unless APP_ENV=test shortens it, every limit in proportion", () => {
    expect(liveTimings({ APP_ENV: "production", LIVE_MINUTE_MS: "600" })).toEqual({
      minuteMs: 60_000,
      maxSessionMs: 900_000,
      silenceMs: 60_000,
      resumeMs: 10_000,
    });
    expect(liveTimings({ APP_ENV: "test", LIVE_MINUTE_MS: "600" })).toEqual({
      minuteMs: 600,
      maxSessionMs: 9_000,
      silenceMs: 600,
      resumeMs: 100,
    });
  });
});
