// The shipped pronunciation content: where a level's reference audio lives and what each band trains. An admin's
// upload (R2, /media/<key>) wins over the shipped recording, whose fingerprinted file the build writes to
// public/content/pronunciation (static assets, immutable) and lists in content.generated.json
// (scripts/content/content-assets.mjs, from content/pronunciation/levels.json). Only this module reads it.
import { publicPath } from "~/server/storage.server";
import manifest from "./content.generated.json";

export type Band = {
  band: number;
  /** A stable name of the sound, e.g. "th". */
  key: string;
  /** Short pt-BR title, e.g. "O som do TH". */
  title: string;
  /** What the band trains (pt-BR, IPA where useful). */
  sound: string;
  /** A short pt-BR tip for a Brazilian speaker about this sound. */
  tip: string;
  /** Source of a case-insensitive regular expression picking the words where the sound occurs; null: every word. */
  wordPattern: string | null;
};

const audioByAsset = new Map<string, string>(Object.entries(manifest.levels));
const bands = new Map<number, Band>(manifest.bands.map((band: Band) => [band.band, band]));
const patterns = new Map<number, RegExp | null>(
  manifest.bands.map((band: Band) => [band.band, band.wordPattern === null ? null : new RegExp(band.wordPattern, "i")]),
);

/** The tip for a mispronounced or omitted word outside its band's sound. */
export const GENERIC_TIP: string = manifest.genericTip;

export type LevelAudioRefs = { audioAsset: string | null; audioKey: string | null };

/** The level's reference audio: an admin's upload, else the shipped recording; null when neither exists. */
export function levelAudioUrl(level: LevelAudioRefs): string | null {
  if (level.audioKey) return publicPath(level.audioKey);
  return (level.audioAsset && audioByAsset.get(level.audioAsset)) ?? null;
}

/** The band (1–10) a level trains. Levels are constrained to bands 1–10; anything else gets a neutral band. */
export function bandOf(band: number): Band {
  return bands.get(band) ?? { band, key: "other", title: `Banda ${band}`, sound: "", tip: GENERIC_TIP, wordPattern: null };
}

/** A word as the scorer reports it, reduced to what the patterns read: lower case, no surrounding punctuation. */
function bare(word: string): string {
  return word
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/^[^a-z']+|[^a-z']+$/g, "")
    .replace(/^'+|'+$/g, "");
}

/** Whether the band's sound occurs in the word (always, for a band without a pattern). */
export function wordHasBandSound(band: number, word: string): boolean {
  const pattern = patterns.get(band);
  if (pattern === undefined) return false;
  const bareWord = bare(word);
  return bareWord !== "" && (pattern === null || pattern.test(bareWord));
}

/** The pt-BR tip for a mispronounced or omitted word: the band's, when the word carries its sound; else the generic one. */
export function tipFor(band: number, word: string): string {
  return wordHasBandSound(band, word) ? bandOf(band).tip : GENERIC_TIP;
}

/** Whether a shipped recording exists for this key (admin tools offer "back to the shipped audio"). */
export const hasShippedLevel = (asset: string) => audioByAsset.has(asset);
