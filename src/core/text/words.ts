import { CJK_CHAR } from "./cjk";

const TOKEN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[\p{L}\p{N}\p{M}]+(?:[-_.'’/][\p{L}\p{N}\p{M}]+)*/gu;

/**
 * Counts words for seed 001's "too short" floor. A Latin (or other space-separated) token is one
 * word. In a CJK run each character counts: a character carries about what a short English word
 * does, and a complete question can be three of them (我几岁 "how old am I", 我叫啥 "what's my
 * name"), while 好的 and 收到 stay under the floor.
 */
export function countWords(text: string): number {
  let words = 0;
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    words += CJK_CHAR.test(token) ? Array.from(token).length : 1;
  }
  return words;
}
