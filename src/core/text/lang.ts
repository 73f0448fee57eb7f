import { CJK_CHAR } from "./cjk";

export type Lang = "en" | "zh" | "mixed" | "none";

const LATIN_LETTERS = /\p{Script=Latin}/gu;
const CJK_CHARS = new RegExp(CJK_CHAR.source, "gu");
/** A text is mixed when the minority script has at least this share of the letters. */
const MIXED_SHARE = 0.2;

/**
 * The text's language by script: CJK characters count as Chinese ("zh" covers Japanese kana and
 * Hangul too, which the same bigram rules serve), Latin letters as English. Numbers and
 * punctuation do not count.
 */
export function detectLang(text: string): Lang {
  // Counted by one scan per script, not a regex test per character: every query is classified.
  const cjk = text.match(CJK_CHARS)?.length ?? 0;
  const latin = text.match(LATIN_LETTERS)?.length ?? 0;
  const total = cjk + latin;
  if (total === 0) return "none";
  // A CJK character carries about as much as a short Latin word, so weigh one against three letters.
  const cjkShare = (cjk * 3) / (cjk * 3 + latin);
  if (cjkShare >= 1 - MIXED_SHARE) return "zh";
  if (cjkShare <= MIXED_SHARE) return "en";
  return "mixed";
}
