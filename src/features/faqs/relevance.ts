/**
 * The `score` a person reads on an FAQ search result: 0..1, in the results' order.
 *
 * The fused score that orders the results (src/core/ranking/fusion.ts) is relative to the query's
 * candidates: a lone result, or an average one, scores 0, which reads "no match". What reads
 * true is how much of the query a result matches: its calibrated similarity (the scale every
 * threshold uses), or for words, the share of the query's content words its question or
 * matched variant holds, whichever is higher. The ranking is kept: a result never scores below
 * one ranked under it (a running maximum from the bottom), because the fusion, which weighs both
 * signals against the other candidates, put it above.
 */
import { lexicalTerms } from "../../core/ranking/lexical";

export interface RankedEvidence {
  /** Calibrated similarity to the query, null when the result has no vector to compare. */
  similarity: number | null;
  /** The texts the result matched on: its question and matched variant. */
  texts: readonly string[];
}

/** The share of `query`'s content words that one of `texts` holds (the best text), 0..1. */
export function keywordCoverage(queryTerms: readonly string[], texts: readonly string[]): number {
  if (queryTerms.length === 0) return 0;
  let best = 0;
  for (const text of texts) {
    const terms = new Set(lexicalTerms(text));
    best = Math.max(best, queryTerms.filter((t) => terms.has(t)).length / queryTerms.length);
  }
  return best;
}

/** One 0..1 score per result, best first as given, never rising down the list. */
export function readableScores(query: string, results: readonly RankedEvidence[]): number[] {
  const queryTerms = lexicalTerms(query);
  const evidence = results.map((r) => Math.max(r.similarity ?? 0, keywordCoverage(queryTerms, r.texts)));
  const scores = new Array<number>(results.length);
  let below = 0;
  for (let i = results.length - 1; i >= 0; i--) {
    below = Math.max(below, Math.min(1, evidence[i]!));
    scores[i] = Math.round(below * 10_000) / 10_000;
  }
  return scores;
}
