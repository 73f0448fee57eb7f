/**
 * Weighted Reciprocal Rank Fusion (Cormack et al. 2009): each list contributes
 * weight / (k + rank) for every id it ranks, rank starting at 1. Ids missing from a list get
 * nothing from it. Ties keep the order in which ids were first seen, so the result is stable.
 */

/** The constant of the RRF paper; larger k flattens the advantage of the top ranks. */
export const RRF_K = 60;

export interface RankedList {
  /** A name for the list, reported back in `sources` (e.g. "bm25", "vector"). */
  name: string;
  /** Ids, best first. */
  ids: readonly string[];
  /** How much this list counts; 1 for plain RRF. */
  weight: number;
}

export interface FusedHit {
  id: string;
  score: number;
  /** The lists that ranked this id, in list order. */
  sources: string[];
}

export function fuseRrf(lists: readonly RankedList[], k: number = RRF_K): FusedHit[] {
  const hits = new Map<string, FusedHit>();
  for (const list of lists) {
    list.ids.forEach((id, index) => {
      const hit = hits.get(id) ?? { id, score: 0, sources: [] };
      if (hit.sources.includes(list.name)) return;
      hit.score += list.weight / (k + index + 1);
      hit.sources.push(list.name);
      hits.set(id, hit);
    });
  }
  return [...hits.values()].sort((a, b) => b.score - a.score);
}
