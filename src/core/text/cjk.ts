/** Han, Hiragana, Katakana and Hangul: scripts written without spaces between words. */
export const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function containsCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/**
 * Overlapping character bigrams of a CJK run ("安卓玩机" → 安卓 卓玩 玩机); a one-character run
 * is kept as itself. This is the Elasticsearch `cjk` analyzer's approach: it needs no
 * dictionary and matches two-character words, which a trigram index cannot.
 */
export function cjkBigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length < 2) return chars;
  const grams: string[] = [];
  for (let i = 0; i < chars.length - 1; i++) grams.push(chars[i]! + chars[i + 1]!);
  return grams;
}
