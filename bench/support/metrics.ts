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
