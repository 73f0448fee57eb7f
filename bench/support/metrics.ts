/**
 * Retrieval metrics at a cutoff k, with binary relevance (a retrieved id is relevant when it is in
 * the query's `relevant` list):
 * - NDCG@k: Σ_{i≤k} rel_i / log2(i + 1), divided by the same sum for the ideal order (all
 *   relevant ids first, at most k of them);
 * - Recall@k: relevant ids retrieved in the top k ÷ all relevant ids;
 * - MRR@k: 1 / rank of the first relevant id in the top k, 0 if none.
 * Averages are over queries (a query with no relevant id is skipped by the caller).
 */
export interface QueryMetrics {
  ndcg: number;
  recall: number;
  mrr: number;
}

export function scoreQuery(retrieved: readonly string[], relevant: readonly string[], k = 10): QueryMetrics {
  const wanted = new Set(relevant);
  const top = retrieved.slice(0, k);
  let dcg = 0;
  let hits = 0;
  let mrr = 0;
  top.forEach((id, i) => {
    if (!wanted.has(id)) return;
    dcg += 1 / Math.log2(i + 2);
    hits++;
    if (mrr === 0) mrr = 1 / (i + 1);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, wanted.size); i++) ideal += 1 / Math.log2(i + 2);
  return { ndcg: ideal === 0 ? 0 : dcg / ideal, recall: wanted.size === 0 ? 0 : hits / wanted.size, mrr };
}

export function meanMetrics(all: readonly QueryMetrics[]): QueryMetrics {
  const n = all.length || 1;
  return {
    ndcg: all.reduce((s, m) => s + m.ndcg, 0) / n,
    recall: all.reduce((s, m) => s + m.recall, 0) / n,
    mrr: all.reduce((s, m) => s + m.mrr, 0) / n,
  };
}

/**
 * A percentile bootstrap interval for a mean over queries: `resamples` draws of n queries with
 * replacement (a seeded PRNG, so a run is repeatable). With `paired`, the statistic is the mean
 * difference values[i] − paired[i] over the same draw: whether system A beats system B on the
 * same queries, told apart from query-sampling noise.
 */
export function bootstrapInterval(
  values: readonly number[],
  {
    paired,
    resamples = 2000,
    level = 0.95,
    seed = 1,
  }: { paired?: readonly number[]; resamples?: number; level?: number; seed?: number } = {},
): { mean: number; low: number; high: number } {
  const n = values.length;
  const diff = paired ? values.map((v, i) => v - paired[i]!) : values;
  const mean = diff.reduce((s, v) => s + v, 0) / (n || 1);
  if (n === 0) return { mean: 0, low: 0, high: 0 };
  let x = seed >>> 0 || 1;
  const random = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += diff[Math.floor(random() * n)]!;
    means[r] = sum / n;
  }
  means.sort();
  const tail = (1 - level) / 2;
  return { mean, low: means[Math.floor(tail * (resamples - 1))]!, high: means[Math.ceil((1 - tail) * (resamples - 1))]! };
}
