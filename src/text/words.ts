import { CJK_CHAR } from "./cjk";

const TOKEN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[\p{L}\p{N}\p{M}]+(?:[-_.'’/][\p{L}\p{N}\p{M}]+)*/gu;

/**
 * Counts words the way a reader would. A Latin (or other space-separated) token is one word. A
 * CJK run has no spaces; modern Chinese words are mostly two characters long, so a run of n
 * characters counts as ceil(n / 2) words: 好的 → 1, 在哪 → 1, 我是什么用户 → 3.
 */
export function countWords(text: string): number {
  let words = 0;
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    words += CJK_CHAR.test(token) ? Math.ceil(Array.from(token).length / 2) : 1;
  }
  return words;
}
