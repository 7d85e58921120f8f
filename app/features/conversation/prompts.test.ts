import { describe, expect, it } from "vitest";
import { CHAT_MODES } from "./modes";
import { markerHider } from "./prompts";
import {
  buildChatMessages,
  HISTORY_TURNS,
  parseLevelMarker,
  PROMPT_VERSION,
  REPLY_MAX_TOKENS,
  START_TURN,
  systemPrompt,
  type HistoryTurn,
} from "./prompts";

const turns = (n: number): HistoryTurn[] => Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? "user" : "nika", text: `turn ${i}` }));

describe("system prompts", () => {
  it("has one prompt per mode, each bounding the reply length", () => {
    const prompts = CHAT_MODES.map((mode) => systemPrompt(mode, { title: "Greetings" }));
    expect(new Set(prompts).size).toBe(CHAT_MODES.length);
    for (const prompt of prompts) {
      expect(prompt).toContain("Nika");
      expect(prompt).toContain("Brazilian");
      expect(prompt).toMatch(/at most 3 short paragraphs/);
    }
    expect(PROMPT_VERSION).toMatch(/v\d+$/);
  });

  it("writes each mode for its purpose", () => {
    expect(systemPrompt("portuguese")).toMatch(/mainly in Brazilian Portuguese[\s\S]*beginner/);
    expect(systemPrompt("english")).toMatch(/correct it gently/);
    expect(systemPrompt("game")).toMatch(/word games/i);
    expect(systemPrompt("roleplay")).toMatch(/real-life situations/);
    expect(systemPrompt("english-test")).toContain("[[NIKA_LEVEL:XX]]");
    expect(systemPrompt("english-test")).toMatch(/A1, A2, B1, B2, C1, C2/);
  });

  it("puts the lesson title and description into the lesson prompt", () => {
    const prompt = systemPrompt("lesson", { title: "Present Perfect", description: "Have you ever…?" });
    expect(prompt).toContain('"Present Perfect"');
    expect(prompt).toContain("Lesson description: Have you ever…?");
    expect(systemPrompt("lesson", { title: "X", description: null })).not.toContain("Lesson description");
  });
});

describe("a conversation's focus", () => {
  const focus = [{ entryId: "e1", kind: "grammar", wrong: "people is", right: "people are" }];

  it("carries the due entries with the mode's way to bring them back, and nothing without any", () => {
    for (const mode of ["portuguese", "english", "game", "roleplay", "lesson"] as const) {
      const prompt = systemPrompt(mode, { title: "X" }, focus);
      expect(prompt).toContain('"people are" (the learner once said "people is")');
      expect(prompt).toMatch(/Let the learner try first/);
      expect(prompt).toMatch(/recast once/);
      expect(prompt).toMatch(/Never list these mistakes/);
      expect(systemPrompt(mode, { title: "X" }, [])).toBe(systemPrompt(mode, { title: "X" }));
    }
    expect(systemPrompt("roleplay", undefined, focus)).toMatch(/as the other person in the scene/);
    expect(buildChatMessages({ mode: "game", focus, history: [], userText: "hi" }).messages[0]!.content).toContain("PRACTICE FOCUS");
  });

  it("is never in the level test: it measures", () => {
    expect(systemPrompt("english-test", undefined, focus)).toBe(systemPrompt("english-test"));
  });
});

describe("buildChatMessages", () => {
  it("assembles system prompt, history (user/nika → user/assistant) and the new text", () => {
    const built = buildChatMessages({ mode: "english", history: turns(2), userText: "I like football" });
    expect(built.maxTokens).toBe(REPLY_MAX_TOKENS);
    expect(built.maxTokens).toBe(400);
    expect(built.promptVersion).toBe(PROMPT_VERSION);
    expect(built.messages).toEqual([
      { role: "system", content: systemPrompt("english") },
      { role: "user", content: "turn 0" },
      { role: "assistant", content: "turn 1" },
      { role: "user", content: "I like football" },
    ]);
  });

  it("keeps only the last 12 turns and skips empty ones", () => {
    const history = [...turns(30), { role: "nika" as const, text: "   " }];
    const built = buildChatMessages({ mode: "game", history, userText: "next" });
    expect(HISTORY_TURNS).toBe(12);
    expect(built.messages).toHaveLength(1 + 12 + 1);
    expect(built.messages[1]!.content).toBe("turn 18");
    expect(built.messages.at(-2)!.content).toBe("turn 29");
  });

  it("sends the start turn for the greeting", () => {
    const built = buildChatMessages({ mode: "lesson", lesson: { title: "Colors" }, history: [], userText: null });
    expect(built.messages).toHaveLength(2);
    expect(built.messages[0]!.content).toContain('"Colors"');
    expect(built.messages[1]).toEqual({ role: "user", content: START_TURN });
  });
});

describe("parseLevelMarker", () => {
  it("reads the level and removes the marker line", () => {
    expect(parseLevelMarker("Thanks, that was the last question!\n[[NIKA_LEVEL:B1]]\nVocê está no nível B1.")).toEqual({
      level: "B1",
      cleanText: "Thanks, that was the last question!\nVocê está no nível B1.",
    });
  });

  it("tolerates case and whitespace inside the marker", () => {
    expect(parseLevelMarker("[[ nika_level : c2 ]] Excelente!")).toEqual({ level: "C2", cleanText: "Excelente!" });
    expect(parseLevelMarker("  [[NIKA_LEVEL:a2]]  \n\n\n Bom começo.")?.level).toBe("A2");
    expect(parseLevelMarker("  [[NIKA_LEVEL:a2]]  \n\n\n Bom começo.")?.cleanText).toBe("Bom começo.");
  });

  it("rejects missing or invalid markers", () => {
    for (const text of [
      "Você está no nível B1.",
      "[[NIKA_LEVEL:D1]]",
      "[[NIKA_LEVEL:B7]]",
      "[[NIKA_LEVEL:]]",
      "[NIKA_LEVEL:B1]",
      "[[LEVEL:B1]]",
      "NIKA_LEVEL:B1",
      "",
    ]) {
      expect(parseLevelMarker(text), text).toBeNull();
    }
  });
});

describe("markerHider (english-test streaming)", () => {
  const run = (pieces: string[]) => {
    const hider = markerHider();
    return pieces.map((p) => hider.push(p)).join("") + hider.flush();
  };
  it("never lets a marker split across tokens reach the stream", () => {
    expect(run(["Fim do teste.\n", "[", "[NIKA_", "LEVEL:", "B2]", "]\nVocê ", "é B2."])).toBe("Fim do teste.\n\nVocê é B2.");
  });
  it("passes other brackets through", () => {
    expect(run(["a [b] ", "[[not a marker]] c", " ["])).toBe("a [b] [[not a marker]] c [");
  });
});
