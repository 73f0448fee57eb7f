/**
 * Normalised score fusion for hybrid search: each candidate's lexical score (−bm25, 0 when no
 * term matched) and raw cosine are turned into z-scores over the query's candidates, and mixed
 * as `vectorShare · z(cosine) + (1 − vectorShare) · z(lexical)`.
 *
 * Why not weighted RRF (seed 002): ranks throw away how far apart two candidates are, so no one
 * RRF weighting served both a set where keywords decide (stackfaq: best single mode lexical) and
 * one where meaning does (semeval: vector); z-scores keep the gaps and put both signals on one
 * scale per query. Measured on the shared dev sets with cross-validated `vectorShare`
 * (`npm run fit:fusion`, docs/design/ranking-and-decisions.md).
 */

export interface FusionCandidate {
  id: string;
  /** −bm25 (higher is better), 0 when the candidate matched no query term. */
  lexical: number;
  /** Raw cosine to the query; null when the candidate has no vector to compare. */
  cosine: number | null;
}

export interface FusedScore {
  id: string;
  /** In z-score units: 0 is an average candidate of this query, higher is better. */
  score: number;
}

/**
 * The vector signal's share in the mix: the median of a 5-fold cross-validation over the English
 * dev sets' queries (`npm run fit:fusion`, each set in its own Worker: every fold chose 0.70; the
 * vector floor, window and min-max variants of `-- --explore` were within noise of it).
 */
export const DEFAULT_VECTOR_SHARE = 0.7;

/**
 * Candidates best first. A candidate without a cosine counts as average on that signal (z = 0);
 * a signal that is constant over the candidates (no lexical match at all, or no vector) adds
 * nothing. Ties keep the candidates' order.
 */
export function fuseScores(candidates: readonly FusionCandidate[], vectorShare: number = DEFAULT_VECTOR_SHARE): FusedScore[] {
  const lexical = zScores(candidates.map((c) => c.lexical));
  const cosine = zScores(candidates.map((c) => c.cosine));
  return candidates
    .map((c, i) => ({ id: c.id, score: vectorShare * cosine[i]! + (1 - vectorShare) * lexical[i]! }))
    .sort((a, b) => b.score - a.score);
}

/** (x − mean) / standard deviation over the known values; unknown values and a zero spread give 0. */
export function zScores(values: readonly (number | null)[]): number[] {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return values.map(() => 0);
  const mean = known.reduce((sum, v) => sum + v, 0) / known.length;
  const sd = Math.sqrt(known.reduce((sum, v) => sum + (v - mean) ** 2, 0) / known.length);
  return values.map((v) => (v === null || sd === 0 ? 0 : (v - mean) / sd));
}
