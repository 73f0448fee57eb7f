/**
 * How much of a query a document says, by keyword: the share of the query's content terms (a
 * Latin word, or a bigram of a Chinese piece) that the document contains, itself or as one of its
 * variants (用户 ↔ user, plural ↔ singular). BM25 normalized per query cannot be a floor — the best
 * lexical match always scores 1 — so this is the absolute measure a keyword-only hit must reach
 * (MIN_KEYWORD_COVERAGE in src/features/memories/search.ts).
 */
import { CJK_CHAR, cjkBigrams } from "./cjk";
import type { QueryExpansion } from "./expand";
import { segment } from "./fts";
import { equivalentsInside, expandVariants } from "./variants";

export interface KeywordUnit {
  term: string;
  /** Other forms that count as the term (its keyword's variants, as index terms). */
  alternatives: string[];
}

const asTerms = (word: string) => (CJK_CHAR.test(word) ? cjkBigrams(word) : [word]);

/** The units of a query's keywords; with `plainTerms`, every term of the query (expansion off). */
export function keywordUnits(expansion: Pick<QueryExpansion, "keywords">): KeywordUnit[] {
  return expansion.keywords.flatMap((keyword) => {
    if (!CJK_CHAR.test(keyword)) return [{ term: keyword, alternatives: expandVariants(keyword).slice(1) }];
    // A dictionary word inside a Chinese piece stands in only for its own bigrams (密码 → password
    // covers 密码, not all of 数据库密码).
    const words = equivalentsInside(keyword);
    return asTerms(keyword).map((term, i) => ({
      term,
      alternatives: words.filter((w) => i >= w.at && i + 2 <= w.at + Math.max(2, w.length)).map((w) => w.en),
    }));
  });
}

/** A crude English stem for comparing forms (deploy/deploys/deployed/deploying): FTS5's porter stemmer is not reachable from here. */
function stem(word: string): string {
  return word.length > 4 ? word.replace(/(?:ing|ed|es|s)$/u, "") : word;
}

/** Share of the units the document contains, 0..1; 0 when the query has no unit. */
export function keywordCoverage(units: readonly KeywordUnit[], document: string): number {
  if (units.length === 0) return 0;
  const lower = document.normalize("NFKC").toLowerCase();
  const words = new Set(
    segment(lower)
      .filter((t) => !CJK_CHAR.test(t))
      .map(stem),
  );
  const has = (term: string) => (CJK_CHAR.test(term) ? lower.includes(term) : words.has(stem(term)));
  const covered = units.filter((u) => has(u.term) || u.alternatives.some(has)).length;
  return covered / units.length;
}
