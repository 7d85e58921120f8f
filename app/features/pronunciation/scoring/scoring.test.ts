import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { normalizeWords, numberToWords, tokenize } from "./normalize";
import { dictionaryPhonemes, dictionarySize, guessPhonemes, phonemeSimilarity, wordSimilarity } from "./phonetic";
import { alignWords, assessTranscription, nothingRecognised, overallScore, round1 } from "./scoring";

describe("overallScore (Azure's weighting)", () => {
  it("reproduces Azure's documented sample: accuracy 100, fluency 74, completeness 100 → PronScore 84.4", () => {
    // sorted [74, 100, 100] → 0.6·74 + 0.2·100 + 0.2·100 = 44.4 + 20 + 20 = 84.4
    expect(overallScore({ accuracy: 100, fluency: 74, completeness: 100 })).toBe(84.4);
  });

  it("weights the lowest score most, whichever it is", () => {
    // sorted [50, 80, 90] → 30 + 16 + 18 = 64
    expect(overallScore({ accuracy: 90, fluency: 80, completeness: 50 })).toBe(64);
    expect(overallScore({ accuracy: 50, fluency: 90, completeness: 80 })).toBe(64);
  });

  it("with prosody: 0.4·lowest + 0.2 × each of the other three", () => {
    // sorted [70, 80, 90, 100] → 28 + 0.2·270 = 82
    expect(overallScore({ accuracy: 90, fluency: 80, completeness: 100, prosody: 70 })).toBe(82);
  });

  it("rounds to one decimal and clamps to 0–100", () => {
    expect(round1(84.39999)).toBe(84.4);
    expect(round1(-3)).toBe(0);
    expect(round1(100.04)).toBe(100);
  });
});

describe("normalisation", () => {
  it("lower-cases, drops punctuation, keeps contractions, splits hyphens and spells numbers", () => {
    expect(normalizeWords("Don’t stop — it's 10 o'clock! The 3rd of 1,500 well-known “cats”.")).toEqual([
      "don't",
      "stop",
      "it's",
      "ten",
      "o'clock",
      "the",
      "third",
      "of",
      "one",
      "thousand",
      "five",
      "hundred",
      "well",
      "known",
      "cats",
    ]);
    expect(numberToWords(25)).toEqual(["twenty", "five"]);
    expect(numberToWords(105)).toEqual(["one", "hundred", "five"]);
  });

  it("keeps the written form for display", () => {
    expect(tokenize("I'm 25, Maria!")).toEqual([
      { display: "I'm", word: "i'm" },
      { display: "twenty", word: "twenty" },
      { display: "five", word: "five" },
      { display: "Maria", word: "maria" },
    ]);
  });
});

describe("word similarity", () => {
  it("is 1 for the same word or a homophone, high for a learner's confusion, low for another word", () => {
    expect(wordSimilarity("dont", "don't")).toBe(1);
    expect(wordSimilarity("two", "too")).toBe(1);
    // TH IH NG K vs S IH NG K: one close substitution (0.4) over 4 phonemes → 0.9
    expect(wordSimilarity("think", "sink")).toBeCloseTo(0.9, 5);
    // SH IH P vs SH IY P: IH/IY close (0.4) over 3 → 0.8667
    expect(wordSimilarity("ship", "sheep")).toBeCloseTo(0.8667, 3);
    // D AO G vs K AE T: all three differ → far below the 0.6 threshold
    expect(wordSimilarity("dog", "cat")).toBeLessThan(0.3);
  });

  it("falls back to spelling rules for words outside the dictionary slice", () => {
    expect(dictionaryPhonemes("zzyzx")).toBeNull();
    expect(guessPhonemes("thinking")).toEqual(["TH", "IH", "N", "K", "IH", "NG"]);
    expect(wordSimilarity("flibber", "flibbers")).toBeGreaterThan(0.8);
    expect(wordSimilarity("flibber", "dog")).toBeLessThan(0.4);
    expect(phonemeSimilarity([], [])).toBe(1);
  });
});

describe("alignment", () => {
  it("pairs words, leaves out omissions and adds insertions in reading order", () => {
    expect(alignWords(["i", "really", "like", "dogs"], ["i", "like", "uh", "dogs"]).map((s) => s.op)).toEqual([
      "match",
      "omission",
      "match",
      "insertion",
      "match",
    ]);
  });

  it("never pairs two different words: an omission plus an insertion instead", () => {
    const steps = alignWords(["the", "dog"], ["the", "cat"]);
    expect(steps.map((s) => s.op)).toEqual(["match", "omission", "insertion"]);
  });
});

describe("assessTranscription (worked examples)", () => {
  it("a perfect reading scores 100 everywhere", () => {
    const result = assessTranscription("The big dog.", { text: "the big dog" });
    expect(result).toEqual({
      overallScore: 100,
      accuracyScore: 100,
      fluencyScore: 100,
      completenessScore: 100,
      pronunciationScore: 100,
      words: [
        { word: "The", accuracyScore: 100, errorType: "None" },
        { word: "big", accuracyScore: 100, errorType: "None" },
        { word: "dog", accuracyScore: 100, errorType: "None" },
      ],
      recognizedText: "the big dog",
    });
  });

  it("an omitted word lowers completeness, not accuracy", () => {
    const result = assessTranscription("He has a red hat", { text: "He has red hat" });
    expect(result.words[2]).toEqual({ word: "a", accuracyScore: 0, errorType: "Omission" });
    // completeness 4/5 = 80; accuracy over the 4 said = 100; fluency (no timings) 4/(4+0) = 100
    // overall: sorted [80, 100, 100] → 48 + 20 + 20 = 88
    expect(result).toMatchObject({ completenessScore: 80, accuracyScore: 100, fluencyScore: 100, overallScore: 88 });
  });

  it("an inserted word is listed where it was said and lowers fluency without timings", () => {
    const result = assessTranscription("I like dogs", { text: "I like um dogs" });
    expect(result.words.map((w) => `${w.word}:${w.errorType}`)).toEqual(["I:None", "like:None", "um:Insertion", "dogs:None"]);
    // fluency 3 matched / (3 + 1 inserted) = 75; overall sorted [75, 100, 100] → 45 + 40 = 85
    expect(result).toMatchObject({ completenessScore: 100, accuracyScore: 100, fluencyScore: 75, overallScore: 85 });
  });

  it("a similar word is a Mispronunciation; a different word is an Omission plus an Insertion", () => {
    const similar = assessTranscription("I think so", { text: "I sink so" });
    // think/sink similarity 0.9 → 30 + 40·(0.9 − 0.6)/0.4 = 60
    expect(similar.words[1]).toEqual({ word: "think", accuracyScore: 60, errorType: "Mispronunciation" });
    // accuracy (100 + 60 + 100)/3 = 86.7; overall sorted [86.7, 100, 100] → 52.02 + 40 = 92.0
    expect(similar).toMatchObject({ accuracyScore: 86.7, completenessScore: 100, overallScore: 92 });

    const different = assessTranscription("I think so", { text: "I dog so" });
    expect(different.words.map((w) => `${w.word}:${w.errorType}`)).toEqual(["I:None", "think:Omission", "dog:Insertion", "so:None"]);
    // completeness 2/3 = 66.7; fluency 2/(2+1) = 66.7; accuracy 100 → 0.6·66.7 + 0.2·66.7 + 0.2·100 = 73.4
    expect(different).toMatchObject({ completenessScore: 66.7, fluencyScore: 66.7, accuracyScore: 100, overallScore: 73.4 });
  });

  it("ignores punctuation and case on both sides", () => {
    const result = assessTranscription("Hello, Maria! How are you?", { text: "hello maria how are you" });
    expect(result.words.every((w) => w.errorType === "None")).toBe(true);
    expect(result.words.map((w) => w.word)).toEqual(["Hello", "Maria", "How", "are", "you"]);
    expect(result.overallScore).toBe(100);
  });

  it("uses the recogniser's confidence, and a low-confidence word becomes a Mispronunciation (Azure's < 60 rule)", () => {
    const result = assessTranscription("big dog", {
      text: "big dog",
      words: [
        { word: "big", start: 0, end: 0.4, confidence: 0.9 },
        { word: "dog", start: 0.4, end: 0.8, confidence: 0.1 },
      ],
    });
    // big 100·(0.5 + 0.45) = 95; dog 100·(0.5 + 0.05) = 55 → below 60
    expect(result.words).toEqual([
      { word: "big", accuracyScore: 95, errorType: "None" },
      { word: "dog", accuracyScore: 55, errorType: "Mispronunciation" },
    ]);
  });

  it("fluency from timings: pauses and a slow rate lower it", () => {
    const timed = (gap: number) =>
      assessTranscription("the big dog", {
        text: "the big dog",
        words: [
          { word: "the", start: 0, end: 0.3 },
          { word: "big", start: 0.3 + gap, end: 0.6 + gap },
          { word: "dog", start: 0.6 + gap, end: 0.9 + gap },
        ],
      }).fluencyScore;
    expect(timed(0)).toBe(100); // 0.9 s spoken of 0.9 s, 200 wpm
    // gap 0.9 s: 0.9 of 1.8 s spoken = 0.5; 3 words in 1.8 s = 100 wpm ≥ 70 → 50
    expect(timed(0.9)).toBe(50);
    // gap 3.6 s: 0.9 of 4.5 s = 0.2; 40 wpm → ×40/70 → 11.4
    expect(timed(3.6)).toBe(11.4);
  });

  it("nothing recognised → every word omitted, every score 0", () => {
    const result = nothingRecognised("Good morning.");
    expect(result.words).toEqual([
      { word: "Good", accuracyScore: 0, errorType: "Omission" },
      { word: "morning", accuracyScore: 0, errorType: "Omission" },
    ]);
    expect([result.overallScore, result.accuracyScore, result.fluencyScore, result.completenessScore]).toEqual([0, 0, 0, 0]);
  });
});

describe("the generated dictionary", () => {
  it("is a small slice (not the whole CMU dictionary) with the game's words", () => {
    expect(dictionarySize()).toBeGreaterThan(2000);
    expect(dictionarySize()).toBeLessThan(10_000);
    expect(dictionaryPhonemes("three")).toEqual(["TH", "R", "IY"]);
    expect(dictionaryPhonemes("don't")).toEqual(["D", "OW", "N", "T"]);
  });

  it("covers every word of content/pronunciation/levels.json (rerun generate-dictionary.mjs after editing levels)", () => {
    const path = "content/pronunciation/levels.json";
    if (!existsSync(path)) return;
    const raw: unknown = JSON.parse(readFileSync(path, "utf8"));
    const levels = (Array.isArray(raw) ? raw : ((raw as { levels?: unknown[] }).levels ?? [])) as { sentence?: string }[];
    const missing = new Set<string>();
    for (const level of levels)
      for (const w of normalizeWords(level.sentence ?? "")) if (!dictionaryPhonemes(w) && !/^\d/.test(w)) missing.add(w);
    // Words the CMU dictionary itself lacks (names) use the spelling rules; anything else means a stale slice.
    expect([...missing].filter((w) => w.length > 0 && guessPhonemes(w).length === 0)).toEqual([]);
    expect(missing.size, `not in dictionary.generated.ts: ${[...missing].join(", ")}`).toBeLessThanOrEqual(3);
  });
});
