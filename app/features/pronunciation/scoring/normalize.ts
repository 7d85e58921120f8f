// Words of a sentence or a transcript, as the alignment compares them: lower-case, curly apostrophes
// straightened, punctuation dropped, hyphenated words split ("well-known" → well, known), numbers spelled
// out ("25" → twenty, five; "3rd" → third) so "ten" and "10" meet. Contractions stay one word ("don't");
// comparison ignores their apostrophe (`wordKey`), so a recogniser's "dont" still equals "don't".

const ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const ORDINAL_IRREGULAR: Record<string, string> = {
  one: "first",
  two: "second",
  three: "third",
  five: "fifth",
  eight: "eighth",
  nine: "ninth",
  twelve: "twelfth",
};

/** 0–999 999 in words ("105" → one hundred five); larger numbers digit by digit. */
export function numberToWords(n: number): string[] {
  if (!Number.isInteger(n) || n < 0) return [];
  if (n >= 1_000_000)
    return String(n)
      .split("")
      .map((d) => ONES[Number(d)]!);
  if (n < 20) return [ONES[n]!];
  if (n < 100) return n % 10 === 0 ? [TENS[Math.floor(n / 10)]!] : [TENS[Math.floor(n / 10)]!, ONES[n % 10]!];
  if (n < 1000) return [ONES[Math.floor(n / 100)]!, "hundred", ...(n % 100 ? numberToWords(n % 100) : [])];
  return [...numberToWords(Math.floor(n / 1000)), "thousand", ...(n % 1000 ? numberToWords(n % 1000) : [])];
}

function ordinal(word: string): string {
  if (ORDINAL_IRREGULAR[word]) return ORDINAL_IRREGULAR[word];
  if (word.endsWith("y")) return `${word.slice(0, -1)}ieth`;
  return `${word}th`;
}

/** One raw token (already lower-case, no spaces) → its words. */
function expand(token: string): string[] {
  const number = /^(\d+)(st|nd|rd|th)?$/.exec(token);
  if (number) {
    const words = numberToWords(Number(number[1]));
    if (number[2] && words.length > 0) words[words.length - 1] = ordinal(words[words.length - 1]!);
    return words;
  }
  return token
    .split(/[^a-z0-9']+/)
    .map((w) => w.replace(/^'+|'+$/g, ""))
    .filter((w) => /[a-z0-9]/.test(w))
    .flatMap((w) => (/^\d+$/.test(w) ? numberToWords(Number(w)) : [w]));
}

export interface WordToken {
  /** How the text wrote it, punctuation stripped ("Don't", "I"); a spelled-out number shows its words. */
  display: string;
  /** The normalised form the alignment compares ("don't", "i"). */
  word: string;
}

/** A text's words with their written form. `"I'm 25!"` → I'm/i'm, twenty/twenty, five/five. */
export function tokenize(text: string): WordToken[] {
  return text
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/(\d),(\d{3})\b/g, "$1$2") // 1,000 → 1000
    .split(/[\s\-\u2013\u2014/]+/)
    .map((t) => t.replace(/^[^A-Za-z0-9']+|[^A-Za-z0-9']+$/g, "").replace(/^'+|'+$/g, ""))
    .flatMap((raw) => {
      if (!raw) return [];
      const words = expand(raw.toLowerCase());
      return words.length === 1 && words[0] === raw.toLowerCase()
        ? [{ display: raw, word: words[0] }]
        : words.map((word) => ({ display: word, word }));
    });
}

/** A text's normalised words. `"Don't stop — it's 10 o'clock!"` → don't, stop, it's, ten, o'clock. */
export function normalizeWords(text: string): string[] {
  return tokenize(text).map((t) => t.word);
}

/** What two words are compared by: no apostrophes ("don't" = "dont"). */
export function wordKey(word: string): string {
  return word.replace(/'/g, "");
}
