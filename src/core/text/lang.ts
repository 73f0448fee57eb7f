import { CJK_CHAR } from "./cjk";

export type Lang = "en" | "zh" | "mixed" | "none";

const LATIN_LETTER = /\p{Script=Latin}/u;
/** A text is mixed when the minority script has at least this share of the letters. */
const MIXED_SHARE = 0.2;

/**
 * The text's language by script: CJK characters count as Chinese ("zh" covers Japanese kana and
 * Hangul too, which the same bigram rules serve), Latin letters as English. Numbers and
 * punctuation do not count.
 */
export function detectLang(text: string): Lang {
  let cjk = 0;
  let latin = 0;
  for (const ch of text) {
    if (CJK_CHAR.test(ch)) cjk++;
    else if (LATIN_LETTER.test(ch)) latin++;
  }
  const total = cjk + latin;
  if (total === 0) return "none";
  // A CJK character carries about as much as a short Latin word, so weigh one against three letters.
  const cjkShare = (cjk * 3) / (cjk * 3 + latin);
  if (cjkShare >= 1 - MIXED_SHARE) return "zh";
  if (cjkShare <= MIXED_SHARE) return "en";
  return "mixed";
}
