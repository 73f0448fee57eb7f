/**
 * FAQ search's settings (search.ts), one object: what each is and how it was measured. Both
 * stores read them, so D1 and Postgres rank alike.
 */
import { DEFAULT_VECTOR_SHARE } from "../../core/ranking/fusion";
import type { FaqSearchWeights } from "./types";

export const FAQ_SEARCH = {
  /** The two signals' shares in the fused score (src/core/ranking/fusion.ts); seed 002's were 0.4 / 0.6 in RRF. */
  weights: { bm25: 1 - DEFAULT_VECTOR_SHARE, vector: DEFAULT_VECTOR_SHARE } satisfies FaqSearchWeights,
  /**
   * Candidates per list: twice the page, at least this many FAQs. Fusion needs the candidates a
   * single list ranks below its top 20 (`npm run fit:fusion`: held-out NDCG@10 +0.020 / +0.023
   * over the better single mode with 40, +0.006 / +0.010 with 20).
   */
  minWindow: 40,
  /** Variant lists read this many variants per FAQ slot of the window before keeping the best per FAQ. */
  variantsPerSlot: 3,
  /**
   * Vector candidates below this calibrated similarity (src/core/calibration; 0.5 sits between the
   * median unrelated pair, 0.3, and the related band, 0.6) are not candidates: every query has
   * nearest neighbours, and for an exact code ("KB-10042") they are noise that, found by both
   * vector lists at 0.6 each, outranks the one exact BM25 match (0.4). Measured with 1,200 FAQs
   * (npm run bench): code queries found their FAQ 0/20 without the floor.
   */
  vectorMinSimilarity: 0.5,
  /** Full-text column weights, question : answer: bm25(faqs_fts, 10.0, 3.0) on D1, setweight A : B in ts_rank on Postgres. */
  columnWeights: { question: 10.0, answer: 3.0 },
} as const;

/** How many FAQs (and variants) each candidate list holds for a page of `limit`. */
export function listWindow(limit: number): { faqs: number; variants: number } {
  const faqs = Math.max(limit * 2, FAQ_SEARCH.minWindow);
  return { faqs, variants: faqs * FAQ_SEARCH.variantsPerSlot };
}
