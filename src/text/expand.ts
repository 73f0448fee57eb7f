/**
 * expandQuery (seed 003, Phase 4): the content words of a query, and an FTS5-safe OR query over
 * them. English: words minus stopwords (stemming is FTS5's porter tokenizer's job). Chinese:
 * runs cut at stopwords (stopwords.ts), each piece searched as its bigrams.
 */
import { CJK_CHAR, cjkBigrams } from "./cjk";
import { orMatchExpression, MAX_TERM_LENGTH, SEGMENT } from "./fts";
import { detectLang, type Lang } from "./lang";
import { normalizeText } from "./normalize";
import { isEnglishStopword, splitAtChineseStopwords } from "./stopwords";

export interface QueryExpansion {
  /** Content words, in order, distinct. */
  keywords: string[];
  /** FTS5 MATCH expression, or null when the query has no content word. */
  orQuery: string | null;
  lang: Lang;
  /** True when the input was longer than the analysed maximum and was cut. */
  truncated: boolean;
}

export function expandQuery(input: string): QueryExpansion {
  const { text, truncated } = normalizeText(input);
  const keywords: string[] = [];
  for (const match of text.toLowerCase().matchAll(SEGMENT)) {
    const run = match[0];
    if (CJK_CHAR.test(run)) keywords.push(...splitAtChineseStopwords(run));
    else if (!isEnglishStopword(run)) keywords.push(run.slice(0, MAX_TERM_LENGTH));
  }
  const distinct = [...new Set(keywords)];
  const terms = distinct.flatMap((k) => (CJK_CHAR.test(k) ? cjkBigrams(k) : [k]));
  return { keywords: distinct, orQuery: orMatchExpression(terms), lang: detectLang(text), truncated };
}
