import { describe, expect, it } from "vitest";
import { CHAT_MODE_INFO, CHAT_MODES, isChatMode, MENU_MODES, menuModeFromSlug, parseLessonKey } from "./modes";
import { CHAT_MODE_IDS } from "./tables";

describe("chat modes", () => {
  it("lists the four menu cards in order with their titles, paths and flags", () => {
    expect(MENU_MODES.map((m) => [m.title, m.path, m.flag])).toEqual([
      ["Começar em Português", "/chat-with-nika/portuguese", "feature_chat_portuguese"],
      ["Tópico em Inglês", "/chat-with-nika/english", "feature_chat_english"],
      ["Game", "/chat-with-nika/game", "feature_chat_game"],
      ["Role Play", "/chat-with-nika/roleplay", "feature_chat_roleplay"],
    ]);
  });

  it("gates the level test by its flag and never gates lesson practice", () => {
    expect(CHAT_MODE_INFO["english-test"]).toMatchObject({ flag: "feature_chat_english_test", path: "/english-level-test", inMenu: false });
    expect(CHAT_MODE_INFO.lesson.flag).toBeNull();
    expect(CHAT_MODE_INFO.portuguese.language).toBe("pt");
    expect(CHAT_MODE_INFO.english.language).toBe("en");
  });

  it("matches the database's mode check", () => {
    expect([...CHAT_MODES]).toEqual([...CHAT_MODE_IDS]);
    expect(isChatMode("roleplay")).toBe(true);
    expect(isChatMode("Roleplay")).toBe(false);
    expect(menuModeFromSlug("game")).toBe("game");
    expect(menuModeFromSlug("english-test")).toBeNull();
    expect(menuModeFromSlug("lesson")).toBeNull();
    expect(menuModeFromSlug(undefined)).toBeNull();
  });

  it("parses lesson keys M{2 digits}A{2 digits}", () => {
    expect(parseLessonKey("M01A02")).toEqual({ module: 1, lesson: 2 });
    expect(parseLessonKey("M12A10")).toEqual({ module: 12, lesson: 10 });
    expect(parseLessonKey("M123A04")).toEqual({ module: 123, lesson: 4 });
    for (const bad of ["M1A02", "m01a02", "M01A2", "M01B02", " M01A02", "M01A02x", "", null, undefined]) {
      expect(parseLessonKey(bad)).toBeNull();
    }
  });
});
