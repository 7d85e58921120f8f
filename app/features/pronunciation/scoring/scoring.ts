// Our own pronunciation scoring over a transcription (the "alignment" scorer), and the overall-score weighting
// shared by every scorer. All numbers are 0–100, rounded to one decimal.
//
// 1. Both texts are normalised into words (normalize.ts).
// 2. A word-level edit-distance alignment maps reference words to recognised words: leaving a reference word
//    out (Omission) or adding a recognised one (Insertion) costs 1, pairing two words costs 2·(1 − similarity)
//    and is allowed only when similarity ≥ SIMILAR (0.6): two different words are an Omission plus an Insertion.
// 3. Per reference word: the same word (or a homophone) → None, 100 × the confidence factor; a similar word →
//    Mispronunciation, 30 + 40 × (similarity − 0.6) / 0.4 (so 30–70, below the "good" tier) × the factor; no
//    partner → Omission, 0. The confidence factor is 0.5 + 0.5 × the recogniser's word confidence when it gives
//    one, else 1. As in Azure's own samples, a word left at None with accuracy below 60 becomes Mispronunciation.
// 4. accuracy = mean accuracy of the reference words that were not omitted (0 if all were);
//    completeness = share of reference words not omitted;
//    fluency, with word timestamps = Azure's sample recalculation (time spent in matched words ÷ time from the
//    first to the last recognised word, so pauses, hesitations and fillers lower it) × a speech-rate factor
//    min(1, words per minute ÷ 70); without timestamps = matched words ÷ (matched + inserted words);
//    overall = pronunciation = Azure's weighting of the rounded scores (`overallScore`).
import { tokenize, wordKey, type WordToken } from "./normalize";
import { wordSimilarity } from "./phonetic";
import type { PronouncedWord, PronunciationAssessment } from "./types";

/** Below this similarity two words are different words, not a mispronunciation. */
export const SIMILAR = 0.6;
/** Azure's samples: a word scored below 60 is a mispronunciation. */
export const MISPRONUNCIATION_BELOW = 60;
/** Speech rate under which fluency drops (a careful learner reads a short sentence at ~90–120 wpm). */
export const FLUENT_WORDS_PER_MINUTE = 70;

export const round1 = (x: number) => Math.round(Math.min(100, Math.max(0, x)) * 10) / 10;

/**
 * Azure's weighting (its scripted-assessment samples): sort [accuracy, fluency, completeness] ascending →
 * 0.6·lowest + 0.2·second + 0.2·third; with prosody, 0.4·lowest + 0.2 × each of the other three.
 */
export function overallScore(scores: { accuracy: number; fluency: number; completeness: number; prosody?: number }): number {
  const { accuracy, fluency, completeness, prosody } = scores;
  if (prosody === undefined) {
    const [a, b, c] = [accuracy, fluency, completeness].sort((x, y) => x - y) as [number, number, number];
    return round1(0.6 * a + 0.2 * b + 0.2 * c);
  }
  const [a, b, c, d] = [accuracy, fluency, completeness, prosody].sort((x, y) => x - y) as [number, number, number, number];
  return round1(0.4 * a + 0.2 * (b + c + d));
}

export interface RecognisedWord {
  word: string;
  start?: number;
  end?: number;
  confidence?: number;
}

export type AlignmentStep =
  { op: "match"; ref: number; hyp: number; similarity: number } | { op: "omission"; ref: number } | { op: "insertion"; hyp: number };

/** Minimum-cost word alignment (ties prefer pairing); steps in reading order. */
export function alignWords(reference: readonly string[], recognised: readonly string[]): AlignmentStep[] {
  const n = reference.length;
  const m = recognised.length;
  const sim = reference.map((r) => recognised.map((h) => wordSimilarity(r, h)));
  const pairCost = (i: number, j: number) => (sim[i]![j]! >= SIMILAR ? 2 * (1 - sim[i]![j]!) : Infinity);
  const cost: number[][] = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      cost[i]![j] = Math.min(cost[i - 1]![j - 1]! + pairCost(i - 1, j - 1), cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1);
    }
  }
  const steps: AlignmentStep[] = [];
  let i = n;
  let j = m;
  const EPS = 1e-9;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && Math.abs(cost[i]![j]! - (cost[i - 1]![j - 1]! + pairCost(i - 1, j - 1))) < EPS) {
      steps.push({ op: "match", ref: i - 1, hyp: j - 1, similarity: sim[i - 1]![j - 1]! });
      i--;
      j--;
    } else if (j > 0 && Math.abs(cost[i]![j]! - (cost[i]![j - 1]! + 1)) < EPS) {
      // (walking backwards: taking the insertion first puts a left-out word before the word said instead)
      steps.push({ op: "insertion", hyp: j - 1 });
      j--;
    } else {
      steps.push({ op: "omission", ref: i - 1 });
      i--;
    }
  }
  return steps.reverse();
}

/** Words of a transcription for the alignment, keeping each recogniser word's timing and confidence. */
export function recognisedWords(text: string, words?: readonly RecognisedWord[]): (RecognisedWord & WordToken)[] {
  if (!words || words.length === 0) return tokenize(text);
  return words.flatMap((w) => tokenize(w.word).map((token) => ({ ...w, ...token })));
}

function wordAccuracy(similarity: number, confidence: number | undefined): number {
  const factor = confidence === undefined ? 1 : 0.5 + 0.5 * Math.min(1, Math.max(0, confidence));
  const base = similarity >= 1 ? 100 : 30 + (40 * (similarity - SIMILAR)) / (1 - SIMILAR);
  return base * factor;
}

function fluency(steps: readonly AlignmentStep[], hyp: readonly RecognisedWord[]): number {
  const matched = steps.filter((s) => s.op === "match").length;
  const inserted = steps.filter((s) => s.op === "insertion").length;
  if (matched === 0) return 0;
  const timed = hyp.every((w) => typeof w.start === "number" && typeof w.end === "number" && w.end >= w.start);
  if (!timed) return (100 * matched) / (matched + inserted);
  // A recogniser word split into two normalised words ("25" → twenty five) carries the same timing twice.
  const intervals = new Map<string, number>();
  for (const s of steps) if (s.op === "match") intervals.set(`${hyp[s.hyp]!.start}-${hyp[s.hyp]!.end}`, hyp[s.hyp]!.end! - hyp[s.hyp]!.start!);
  const speaking = [...intervals.values()].reduce((a, b) => a + b, 0);
  const span = Math.max(...hyp.map((w) => w.end!)) - Math.min(...hyp.map((w) => w.start!));
  if (span <= 0) return (100 * matched) / (matched + inserted);
  const wordsPerMinute = (matched / span) * 60;
  return 100 * Math.min(1, speaking / span) * Math.min(1, wordsPerMinute / FLUENT_WORDS_PER_MINUTE);
}

/** The alignment scorer's whole result for a reference sentence and what the recogniser heard. */
export function assessTranscription(
  referenceText: string,
  transcription: { text: string; words?: readonly RecognisedWord[] },
): PronunciationAssessment {
  const ref = tokenize(referenceText);
  const hyp = recognisedWords(transcription.text, transcription.words);
  const steps = alignWords(
    ref.map((w) => w.word),
    hyp.map((w) => w.word),
  );

  const words: PronouncedWord[] = [];
  const accuracies: number[] = [];
  for (const step of steps) {
    if (step.op === "omission") {
      words.push({ word: ref[step.ref]!.display, accuracyScore: 0, errorType: "Omission" });
    } else if (step.op === "insertion") {
      words.push({ word: hyp[step.hyp]!.display, accuracyScore: 0, errorType: "Insertion" });
    } else {
      const accuracy = round1(wordAccuracy(step.similarity, hyp[step.hyp]!.confidence));
      const same = step.similarity >= 1 || wordKey(ref[step.ref]!.word) === wordKey(hyp[step.hyp]!.word);
      const errorType = same && accuracy >= MISPRONUNCIATION_BELOW ? "None" : "Mispronunciation";
      words.push({ word: ref[step.ref]!.display, accuracyScore: accuracy, errorType });
      accuracies.push(accuracy);
    }
  }
  const accuracy = round1(accuracies.length ? accuracies.reduce((a, b) => a + b, 0) / accuracies.length : 0);
  const completeness = round1(ref.length ? (100 * accuracies.length) / ref.length : 0);
  const fluencyScore = round1(fluency(steps, hyp));
  const overall = overallScore({ accuracy, fluency: fluencyScore, completeness });
  return {
    overallScore: overall,
    accuracyScore: accuracy,
    fluencyScore,
    completenessScore: completeness,
    pronunciationScore: overall,
    words,
    recognizedText: transcription.text.trim(),
  };
}

/** Nothing was recognised (silence, noise): every reference word omitted, every score 0. */
export function nothingRecognised(referenceText: string): PronunciationAssessment {
  return assessTranscription(referenceText, { text: "" });
}
