// How alike two words sound, 0–1. Phonemes come from a small generated slice of the CMU Pronouncing
// Dictionary (dictionary.generated.ts: the game's sentences and ~3 000 frequent words) or, for any other
// word, from a few letter-to-sound rules. Phoneme sequences are compared with an edit distance in which the
// confusions typical of Brazilian learners (th/t/f/s, dh/d/z, ɪ/iː, æ/ɛ, ʊ/uː, h/r, …) cost less than any
// other substitution. Words missing from the dictionary mix that with plain letter similarity.
import { CODE, ENTRIES, PHONEMES } from "./dictionary.generated";
import { wordKey } from "./normalize";

export type Phoneme = (typeof PHONEMES)[number];

let lexicon: Map<string, readonly string[]> | null = null;

function loadLexicon(): Map<string, readonly string[]> {
  if (lexicon) return lexicon;
  lexicon = new Map();
  for (const entry of ENTRIES.split(" ")) {
    const eq = entry.indexOf("=");
    const code = entry.slice(eq + 1);
    const phonemes: string[] = [];
    for (const ch of code) phonemes.push(PHONEMES[CODE.indexOf(ch)]!);
    lexicon.set(entry.slice(0, eq), phonemes);
  }
  return lexicon;
}

/** The dictionary's phonemes of a normalised word, or null when it is not in the generated slice. */
export function dictionaryPhonemes(word: string): readonly string[] | null {
  const map = loadLexicon();
  return map.get(word) ?? map.get(wordKey(word)) ?? null;
}

export const dictionarySize = () => loadLexicon().size;

// ——— letter-to-sound fallback (rough on purpose: it only has to make similar spellings sound similar) ———
const GRAPHEMES: [string, string[]][] = [
  ["tion", ["SH", "AH", "N"]],
  ["sion", ["ZH", "AH", "N"]],
  ["igh", ["AY"]],
  ["tch", ["CH"]],
  ["dge", ["JH"]],
  ["th", ["TH"]],
  ["sh", ["SH"]],
  ["ch", ["CH"]],
  ["ph", ["F"]],
  ["wh", ["W"]],
  ["ck", ["K"]],
  ["ng", ["NG"]],
  ["qu", ["K", "W"]],
  ["ee", ["IY"]],
  ["ea", ["IY"]],
  ["ie", ["IY"]],
  ["oo", ["UW"]],
  ["ou", ["AW"]],
  ["ow", ["OW"]],
  ["oa", ["OW"]],
  ["oi", ["OY"]],
  ["oy", ["OY"]],
  ["ai", ["EY"]],
  ["ay", ["EY"]],
  ["au", ["AO"]],
  ["aw", ["AO"]],
  ["er", ["ER"]],
  ["ir", ["ER"]],
  ["ur", ["ER"]],
  ["ar", ["AA", "R"]],
  ["or", ["AO", "R"]],
];
const LETTERS: Record<string, string[]> = {
  a: ["AE"],
  b: ["B"],
  c: ["K"],
  d: ["D"],
  e: ["EH"],
  f: ["F"],
  g: ["G"],
  h: ["HH"],
  i: ["IH"],
  j: ["JH"],
  k: ["K"],
  l: ["L"],
  m: ["M"],
  n: ["N"],
  o: ["AA"],
  p: ["P"],
  q: ["K"],
  r: ["R"],
  s: ["S"],
  t: ["T"],
  u: ["AH"],
  v: ["V"],
  w: ["W"],
  x: ["K", "S"],
  y: ["Y"],
  z: ["Z"],
};

/** Rough phonemes from spelling, for words outside the dictionary slice. */
export function guessPhonemes(word: string): string[] {
  let w = wordKey(word).replace(/[^a-z]/g, "");
  if (w.length > 3 && w.endsWith("e") && !/[aeiou]e$/.test(w)) w = w.slice(0, -1); // silent final e
  const out: string[] = [];
  let i = 0;
  while (i < w.length) {
    const rule = GRAPHEMES.find(([g]) => w.startsWith(g, i));
    if (rule) {
      out.push(...rule[1]);
      i += rule[0].length;
      continue;
    }
    const ch = w[i]!;
    // c and g soften before e, i, y; a doubled consonant is one sound; y after a consonant is a vowel.
    if (ch === "c" && /[eiy]/.test(w[i + 1] ?? "")) out.push("S");
    else if (ch === "y" && i > 0) out.push(i === w.length - 1 ? "IY" : "IH");
    else if (ch !== w[i - 1] || /[aeiou]/.test(ch)) out.push(...(LETTERS[ch] ?? []));
    i++;
  }
  return out;
}

// ——— phoneme distance ———
const VOWELS = new Set(["AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"]);

/** Pairs a learner (or a recogniser) confuses: cheaper substitutions. */
const CLOSE_PAIRS = [
  "IH IY",
  "AE EH",
  "AE AA",
  "AE AH",
  "AH AA",
  "AH AO",
  "AA AO",
  "AO OW",
  "UH UW",
  "UH AH",
  "EH EY",
  "EH IH",
  "ER AH",
  "TH T",
  "TH F",
  "TH S",
  "DH D",
  "DH Z",
  "DH V",
  "S Z",
  "T D",
  "P B",
  "K G",
  "F V",
  "CH SH",
  "JH ZH",
  "CH JH",
  "SH ZH",
  "SH S",
  "HH R",
  "M N",
  "N NG",
  "L R",
  "W V",
  "CH T",
  "JH D",
];
const close = new Set(CLOSE_PAIRS.flatMap((p) => [p, p.split(" ").reverse().join(" ")]));

export function substitutionCost(a: string, b: string): number {
  if (a === b) return 0;
  if (close.has(`${a} ${b}`)) return 0.4;
  const va = VOWELS.has(a);
  if (va !== VOWELS.has(b)) return 1;
  return va ? 0.7 : 0.85;
}

/** Weighted edit distance → similarity in 0–1 (1 = same phonemes). */
export function phonemeSimilarity(a: readonly string[], b: readonly string[]): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + substitutionCost(a[i - 1]!, b[j - 1]!));
    }
    prev = row;
  }
  return Math.max(0, 1 - prev[b.length]! / longest);
}

/** Plain Levenshtein on letters → similarity in 0–1. */
export function letterSimilarity(a: string, b: string): number {
  const x = wordKey(a);
  const y = wordKey(b);
  const longest = Math.max(x.length, y.length);
  if (longest === 0) return 1;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return 1 - prev[y.length]! / longest;
}

/**
 * How alike two normalised words sound, 0–1. Same word → 1; homophones in the dictionary ("two"/"too") → 1;
 * both in the dictionary → phoneme similarity; otherwise the mean of (guessed) phoneme and letter similarity.
 */
export function wordSimilarity(reference: string, recognised: string): number {
  if (wordKey(reference) === wordKey(recognised)) return 1;
  const a = dictionaryPhonemes(reference);
  const b = dictionaryPhonemes(recognised);
  if (a && b) return phonemeSimilarity(a, b);
  const phonetic = phonemeSimilarity(a ?? guessPhonemes(reference), b ?? guessPhonemes(recognised));
  return Math.min(0.99, (phonetic + letterSimilarity(reference, recognised)) / 2);
}
