/**
 * isQuestion (seed 000, extended to Chinese): a question mark anywhere (? or ？), or a leading
 * question word — wh-words and the modal/be/do/have verbs that open English questions — or,
 * in Chinese, a sentence-final particle (吗/呢/么) or a question word (什么, 怎么, 如何, 为什么,
 * 哪, 谁, 多少, 几…) anywhere, since Chinese does not move question words to the front.
 */
import { normalizeText } from "./normalize";

export const ENGLISH_QUESTION_OPENERS: ReadonlySet<string> = new Set([
  "what",
  "why",
  "how",
  "when",
  "where",
  "who",
  "which",
  "whom",
  "whose",
  "can",
  "should",
  "would",
  "could",
  "will",
  "shall",
  "may",
  "might",
  "must",
  "is",
  "are",
  "am",
  "was",
  "were",
  "do",
  "does",
  "did",
  "have",
  "has",
  "had",
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  "don't",
  "doesn't",
  "didn't",
  "can't",
  "won't",
  "shouldn't",
  "couldn't",
  "wouldn't",
]);

export const CHINESE_QUESTION_WORDS = [
  "什么",
  "怎么",
  "怎样",
  "如何",
  "为什么",
  "为何",
  "哪",
  "谁",
  "多少",
  "几个",
  "几点",
  "几时",
  "几岁",
  "是否",
  "能否",
  "可否",
  "有没有",
  "是不是",
  "要不要",
  "咋",
] as const;

const CHINESE_FINAL_PARTICLE = /[吗呢么嘛][\s\p{P}]*$/u;
/** Leading quotes, markdown markers (>, -, *, #, numbering) and brackets before the first word. */
const LEADING_NOISE = /^[\s"'“”‘’`>#*\-–—•(（[【]+|^\d+[.)]\s+/u;

export function isQuestion(input: string): boolean {
  const { text } = normalizeText(input);
  if (!text) return false;
  if (text.includes("?") || text.includes("？")) return true;
  let body = text;
  for (let previous = ""; previous !== body;) {
    previous = body;
    body = body.replace(LEADING_NOISE, "");
  }
  const first = /^[\p{L}']+/u.exec(body)?.[0]?.toLowerCase().replace("’", "'");
  if (first && ENGLISH_QUESTION_OPENERS.has(first)) return true;
  if (CHINESE_FINAL_PARTICLE.test(body)) return true;
  return CHINESE_QUESTION_WORDS.some((word) => body.includes(word));
}
