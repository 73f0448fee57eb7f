/**
 * The weighted hybrid memory score of seed 000:
 *
 *   score = 0.48 · vector + 0.12 · text + 0.20 · recency + 0.10 · frequency + 0.10 · importance
 *
 * (seed 000: 0.45 / 0.15; the split of their sum is fitted, RELEVANCE_VECTOR_SHARE).
 *
 * Every signal is in [0, 1]:
 * - vector: cosine similarity to the query, clamped to [0, 1] (ordering only, so raw cosine);
 * - text: BM25 normalized per query — FTS5's bm25() is negative, better when lower; each
 *   candidate's −bm25 is divided by the best −bm25 among the candidates, so the best lexical
 *   match scores 1 and a memory with no lexical match 0 (normalizeBm25);
 * - recency: 0.5^(age / half-life), half-life RECENCY_HALF_LIFE_DAYS;
 * - frequency: log(1 + count) / log(1 + FREQUENCY_SATURATION), capped at 1, where count is how
 *   often the memory was re-asked or recalled;
 * - importance: the memory's own 0..1.
 * A signal missing for the whole query (no vector when the embedder is down or cannot embed the
 * language; no text when the query has no content word) drops out and the remaining weights are
 * rescaled to sum to 1, so scores stay comparable. A candidate without a vector of its own is
 * judged on text with the whole relevance weight. A per-candidate `bonus` (e.g. a memory card
 * answering the question) is added on top in units of the relevance weight in effect (vector +
 * text after rescaling): a bonus of 0.5 is worth half the best possible relevance whatever the
 * weights, so it ranks a card answer the same way with text alone as with text and vector. As a
 * plain addition it outweighed relevance when text was the only relevance signal (Chinese on the
 * English-only model: 0.5 against a text weight of 0.23), which cost lcqmc NDCG@10 0.847 → 0.816.
 */

export interface HybridWeights {
  vector: number;
  text: number;
  recency: number;
  frequency: number;
  importance: number;
}

/**
 * Seed 000's weights: relevance (vector + text) 0.60, recency 0.20, frequency 0.10, importance
 * 0.10. The split of the relevance weight between vector and text is fitted (seed 000: 0.45 /
 * 0.15): RELEVANCE_VECTOR_SHARE.
 */
export const RELEVANCE_WEIGHT = 0.6;
/**
 * The vector signal's share of RELEVANCE_WEIGHT: the median of a 5-fold cross-validation over
 * the English dev sets' queries (`npm run fit:memory`, docs/design/ranking-and-decisions.md; every fold
 * chose 0.80, seed 000's 0.45 / 0.15 is 0.75).
 */
export const RELEVANCE_VECTOR_SHARE = 0.8;
export const DEFAULT_HYBRID_WEIGHTS: Readonly<HybridWeights> = {
  vector: RELEVANCE_WEIGHT * RELEVANCE_VECTOR_SHARE,
  text: RELEVANCE_WEIGHT * (1 - RELEVANCE_VECTOR_SHARE),
  recency: 0.2,
  frequency: 0.1,
  importance: 0.1,
};
/** A memory loses half its recency score every 30 days. */
export const RECENCY_HALF_LIFE_DAYS = 30;
/** Recalls at which the frequency score reaches 1. */
export const FREQUENCY_SATURATION = 10;

const DAY_MS = 24 * 3600 * 1000;

export interface HybridCandidate {
  id: string;
  /** Cosine to the query, or null when not known for this candidate. */
  vector: number | null;
  /** FTS5 bm25() (≤ 0, lower is better), or null when the memory did not match lexically. */
  bm25: number | null;
  createdAt: number;
  recallCount: number;
  importance: number;
  /** Added to the weighted sum (card answers, …); 0 by default. */
  bonus?: number;
}

export interface HybridSignals {
  vector: number;
  text: number;
  recency: number;
  frequency: number;
  importance: number;
}

export interface HybridScored {
  id: string;
  score: number;
  signals: HybridSignals;
}

export interface HybridOptions {
  weights?: Partial<HybridWeights>;
  now: number;
  /** Which signals exist for this query; a missing one's weight is spread over the others. */
  available?: { vector: boolean; text: boolean };
  recencyHalfLifeDays?: number;
  frequencySaturation?: number;
}

export function recencyScore(ageMs: number, halfLifeDays: number = RECENCY_HALF_LIFE_DAYS): number {
  return 0.5 ** (Math.max(0, ageMs) / (halfLifeDays * DAY_MS));
}

export function frequencyScore(count: number, saturation: number = FREQUENCY_SATURATION): number {
  return Math.min(1, Math.log1p(Math.max(0, count)) / Math.log1p(saturation));
}

/** −bm25 / best −bm25 among the candidates; 0 for no lexical match. */
export function normalizeBm25(bm25: readonly (number | null)[]): number[] {
  const best = Math.max(0, ...bm25.map((s) => (s === null ? 0 : -s)));
  return bm25.map((s) => (s === null || best === 0 ? 0 : Math.max(0, -s) / best));
}

/** Scores and sorts the candidates, best first; ties keep input order. */
export function rankHybrid(candidates: readonly HybridCandidate[], options: HybridOptions): HybridScored[] {
  const weights = effectiveWeights({ ...DEFAULT_HYBRID_WEIGHTS, ...options.weights }, options.available);
  const relevanceWeight = weights.vector + weights.text;
  const text = normalizeBm25(candidates.map((c) => c.bm25));
  const scored = candidates.map((c, i) => {
    const signals: HybridSignals = {
      vector: Math.min(1, Math.max(0, c.vector ?? 0)),
      text: text[i]!,
      recency: recencyScore(options.now - c.createdAt, options.recencyHalfLifeDays),
      frequency: frequencyScore(c.recallCount, options.frequencySaturation),
      importance: Math.min(1, Math.max(0, c.importance)),
    };
    // A candidate with no vector of this model (text it cannot embed, or not embedded yet) is
    // judged on its words alone, with the whole relevance weight. Scored 0 on the vector side, an
    // exact keyword hit (我用iPhone手机 for "iphone") ranked below memories sharing no word at all.
    const relevance =
      c.vector === null && weights.vector > 0
        ? relevanceWeight * signals.text
        : weights.vector * signals.vector + weights.text * signals.text;
    const score =
      relevance +
      weights.recency * signals.recency +
      weights.frequency * signals.frequency +
      weights.importance * signals.importance +
      relevanceWeight * (c.bonus ?? 0);
    return { id: c.id, score, signals };
  });
  return scored.sort((a, b) => b.score - a.score);
}

function effectiveWeights(weights: HybridWeights, available = { vector: true, text: true }): HybridWeights {
  const w = { ...weights };
  if (!available.vector) w.vector = 0;
  if (!available.text) w.text = 0;
  const total = w.vector + w.text + w.recency + w.frequency + w.importance;
  if (total <= 0) return w;
  return {
    vector: w.vector / total,
    text: w.text / total,
    recency: w.recency / total,
    frequency: w.frequency / total,
    importance: w.importance / total,
  };
}
