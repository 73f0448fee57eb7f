/**
 * isQuestion (seed 000, extended to Chinese): a question mark anywhere (? or ？), or a leading
 * question word — wh-words and the modal/be/do/have verbs that open English questions — or,
 * in Chinese, a sentence-final particle (吗/呢/么) or a question word (什么, 怎么, 如何, 为什么,
 * 哪, 谁, 多少, 几…) anywhere, since Chinese does not move question words to the front.
 *
 * Beyond the seed's list, two English forms people ask in without a question mark:
 * - a question clause after a comma, semicolon or colon ("I like markdown, can I use it in Google
 *   Docs", "…my data may get lost, how can I back it up"): an interrogative followed by what
 *   makes it a question (a subject after a modal, a verb after "what"), so relative clauses
 *   (", which is", ", where I work") stay statements;
 * - an indirect question or a request for a way to do something at the start ("I wonder whether…",
 *   "I'd like to know…", "I'm looking for a website that…", "any way to…").
 * Measured on labelled text (bench/question-detection.mjs): questions from stackfaq (fitted) and
 * semeval (held out), statements from the card sets.
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

const SUBJECT = String.raw`(?:i|we|you|it|one|someone|anyone|there|this|that|they)`;
const QUESTION_CLAUSE = new RegExp(
  String.raw`[,;:]\s*(?:how\b|what(?:'s|\s+(?:is|are|was|were|would|should|could|can|will|do|does|did|happens|happened|if))\b|` +
    String.raw`(?:can|could|should|would|will|do|does|did|is|are|may|must|shall)\s+${SUBJECT}\b|is\s+it\s+possible\b|any\s+(?:way|idea|ideas|tips)\b)`,
  "iu",
);
const INDIRECT_OPENER = new RegExp(
  String.raw`^(?:i\s+(?:wonder|was\s+wondering|am\s+wondering)|i'm\s+wondering|wondering|` +
    String.raw`i(?:'d|\s+would)\s+like\s+to\s+know|i\s+(?:want|need)\s+to\s+know|tell\s+me|please\s+(?:tell|explain|help|recommend|suggest|advise)|explain\b|help\s+me|` +
    String.raw`(?:i'm|i\s+am)\s+(?:looking|searching)\s+for\s+(?:a|an|some)\s+(?:way|website|web\s+site|site|tool|app|application|service|program|method)|` +
    String.raw`i\s+need\s+(?:a|an)\s+(?:way|website|web\s+site|site|tool|app|application|service|program|method)|` +
    String.raw`any\s+(?:way|idea|ideas|tips)\b|(?:i\s+)?(?:can't|cannot)\s+(?:figure\s+out|find\s+(?:out\s+)?)how)`,
  "iu",
);

export function isQuestion(input: string): boolean {
  const { text } = normalizeText(input);
  if (!text) return false;
  if (text.includes("?") || text.includes("？")) return true;
  const body = withoutLeadingNoise(text);
  // Each sentence or line, not only the first: a title line, then the question ("Good bank\nWhich bank…").
  const sentences = input
    .split(/[\r\n]+/u)
    .flatMap((line) => normalizeText(line).text.split(/(?<=[.!;])\s+/u))
    .map(withoutLeadingNoise);
  if (sentences.some(opensAQuestion)) return true;
  if (QUESTION_CLAUSE.test(body.replace(/[’‘]/gu, "'"))) return true;
  if (CHINESE_FINAL_PARTICLE.test(body)) return true;
  return CHINESE_QUESTION_WORDS.some((word) => body.includes(word));
}

function withoutLeadingNoise(text: string): string {
  let body = text;
  for (let previous = ""; previous !== body;) {
    previous = body;
    body = body.replace(LEADING_NOISE, "");
  }
  return body;
}

function opensAQuestion(sentence: string): boolean {
  const english = sentence.replace(/[’‘]/gu, "'");
  const first = /^[\p{L}']+/u.exec(english)?.[0]?.toLowerCase();
  return (first !== undefined && ENGLISH_QUESTION_OPENERS.has(first)) || INDIRECT_OPENER.test(english);
}
