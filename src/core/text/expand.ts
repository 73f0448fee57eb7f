/**
 * expandQuery (seed 003, Phase 4): the content words of a query, and an FTS5-safe OR query over
 * them. English: words minus stopwords (stemming is FTS5's porter tokenizer's job). Chinese:
 * runs cut at stopwords (stopwords.ts), each piece searched as its bigrams. A Latin run inside
 * Chinese (我用iPhone手机) stays one word. The variants (variants.ts) are ORed after the query's own terms.
 */
import { CJK_CHAR, cjkBigrams } from "./cjk";
import { orMatchExpression, MAX_TERM_LENGTH, SEGMENT } from "./fts";
import { detectLang, type Lang } from "./lang";
import { normalizeText } from "./normalize";
import { isEnglishStopword, splitAtChineseStopwords } from "./stopwords";
import { expandVariants } from "./variants";

export interface QueryExpansion {
  /** Content words, in order, distinct. */
  keywords: string[];
  /** Other forms of the keywords (seed 003's expand_variants: singular/plural, English ↔ Chinese), distinct. */
  variants: string[];
  /** FTS5 MATCH expression over the keywords, then the variants; null when the query has no content word. */
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
  const own = new Set(distinct);
  const variants = [...new Set(distinct.flatMap((k) => expandVariants(k).slice(1)))].filter((v) => !own.has(v));
  return {
    keywords: distinct,
    variants,
    orQuery: orMatchExpression(expansionTerms({ keywords: distinct, variants })),
    lang: detectLang(text),
    truncated,
  };
}

/** The terms an expansion searches for: its keywords, then their variants, CJK ones as bigrams (what FTS5 and Postgres index). */
export function expansionTerms(expansion: Pick<QueryExpansion, "keywords" | "variants">): string[] {
  return [...expansion.keywords, ...expansion.variants].flatMap((k) => (CJK_CHAR.test(k) ? cjkBigrams(k) : [k]));
}
