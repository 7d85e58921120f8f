import { describe, expect, it } from "vitest";
import { gameAssets, gamePath, mergeAnswers, type FeedbackAssets } from "./game-view";
import type { AnswerView, QuestionView } from "./game.server";
import { questionFromSearch } from "./page.server";

const feedback: FeedbackAssets = {
  sounds: { correct: "/s/correct.mp3", incorrect: "/s/incorrect.mp3" },
  tiers: {
    perfect: { imageUrl: "/t/perfect.svg", soundUrl: "/t/perfect.mp3" },
    good: { imageUrl: "/t/good.svg", soundUrl: "/t/good.mp3" },
    okay: { imageUrl: "/t/okay.svg", soundUrl: "/t/okay.mp3" },
    poor: { imageUrl: "/t/poor.svg", soundUrl: "/t/poor.mp3" },
  },
};

function question(position: number, answer: AnswerView | null = null): QuestionView {
  return {
    position,
    imageUrl: `/q/${position}.svg`,
    correction: null,
    // the third option has no recording (spoken by the browser): nothing to preload
    options: [0, 1, 2, 3].map((i) => ({
      id: `${position}-${i}`,
      word: `w${position}${i}`,
      audioUrl: i === 2 ? null : `/a/${position}-${i}.mp3`,
    })),
    answer,
  };
}

describe("gameAssets", () => {
  const questions = [0, 1, 2].map((p) => question(p));

  it("marks critical the shown card's picture and its options' sounds, the feedback sounds and the tier pictures (spec §9)", () => {
    const assets = gameAssets(questions, 1, feedback);
    expect(assets.filter((a) => a.critical).map((a) => a.url)).toEqual([
      "/q/1.svg",
      "/a/1-0.mp3",
      "/a/1-1.mp3",
      "/a/1-3.mp3",
      "/s/correct.mp3",
      "/s/incorrect.mp3",
      "/t/perfect.svg",
      "/t/good.svg",
      "/t/okay.svg",
      "/t/poor.svg",
    ]);
  });

  it("then the coming pictures, the ones before, their sounds and the tier sounds", () => {
    const rest = gameAssets(questions, 1, feedback).filter((a) => !a.critical);
    expect(rest.slice(0, 2).map((a) => a.url)).toEqual(["/q/2.svg", "/q/0.svg"]);
    expect(rest.filter((a) => a.kind === "audio").map((a) => a.url)).toEqual([
      "/a/2-0.mp3",
      "/a/2-1.mp3",
      "/a/2-3.mp3",
      "/a/0-0.mp3",
      "/a/0-1.mp3",
      "/a/0-3.mp3",
      "/t/perfect.mp3",
      "/t/good.mp3",
      "/t/okay.mp3",
      "/t/poor.mp3",
    ]);
    expect(rest.every((a) => (a.url.endsWith(".svg") ? a.kind === "image" : a.kind === "audio"))).toBe(true);
  });
});

describe("mergeAnswers", () => {
  it("keeps the loader's answers and adds those given since", () => {
    const before: AnswerView = { chosenId: "0-1", correctId: "0-0", correct: false, word: "w00", translation: "p" };
    const now: AnswerView = { chosenId: "1-2", correctId: "1-2", correct: true, word: "w12", translation: "q" };
    expect(mergeAnswers([question(0, before), question(1), question(2)], { 1: now })).toEqual([before, now, null]);
  });
});

describe("addresses", () => {
  it("a game and its question n (1-based)", () => {
    expect(gamePath("abc")).toBe("/flashcard-v2/abc");
    expect(gamePath("abc", 3)).toBe("/flashcard-v2/abc?q=3");
  });

  it("?q names a question of the game, or nothing", () => {
    expect(questionFromSearch("1", 10)).toBe(0);
    expect(questionFromSearch("10", 10)).toBe(9);
    for (const bad of [null, "", "0", "11", "-1", "2.5", "abc", "1e1", "0003000"]) expect(questionFromSearch(bad, 10), String(bad)).toBeNull();
  });
});
