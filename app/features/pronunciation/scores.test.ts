import { describe, expect, it } from "vitest";
import { nextLevelPath, parseLevel, starsOf, tierOf } from "./scores";

describe("pronunciation score tiers (spec §9, one reading)", () => {
  it("gives 0 stars without a score, 1 up to 30, 2 up to 70, 3 above 70", () => {
    expect([null, 0, 30, 30.4, 31, 70, 70.2, 71, 100].map((s) => starsOf(s))).toEqual([0, 1, 1, 2, 2, 2, 3, 3, 3]);
  });
  it("colours by the same split", () => {
    expect([0, 30, 31, 70, 71].map(tierOf)).toEqual(["poor", "poor", "fair", "fair", "good"]);
  });
});

describe("level paths", () => {
  it("accepts 1–100 written plainly and nothing else", () => {
    expect(["1", "9", "10", "100"].map(parseLevel)).toEqual([1, 9, 10, 100]);
    expect(["0", "101", "abc", "01", "1.5", "-1", "", "1e2", " 1", undefined].map(parseLevel)).toEqual(Array(10).fill(null));
  });
  it("goes to the next level, and back to the list after 100", () => {
    expect([nextLevelPath(1), nextLevelPath(99), nextLevelPath(100)]).toEqual([
      "/pronunciation-game/2",
      "/pronunciation-game/100",
      "/pronunciation-game",
    ]);
  });
});
