/**
 * The last step of hybrid FAQ search, shared by both backends: the four candidate lists (already
 * filtered to live FAQs of the tenant with the requested tags, at most a window each) become the
 * fused, ranked hits. Pure: the lists come from FTS5 + the VectorIndex (search.ts) or from SQL
 * on Postgres (postgres/search.ts); the fusion is src/core/ranking/fusion.ts.
 */
import { type Calibration, calibrate } from "../../core/calibration/calibration";
import { fuseScores } from "../../core/ranking/fusion";
import type { FaqMatchType, FaqRow, FaqSearchHit } from "./types";

export interface MatchedVariant {
  faqId: string;
  variantId: string;
  text: string;
}

export interface FaqLists {
  /** FAQ id → −bm25 (or ts_rank) of its canonical question/answer, best first. */
  canonicalLexical: Map<string, number>;
  /** FAQ id → its best variant by full text, best first. */
  variantLexical: Map<string, MatchedVariant & { score: number }>;
  /** FAQ id → raw cosine of its canonical question, best first. */
  canonicalVector: Map<string, number>;
  /** FAQ id → its nearest variant, best first. */
  variantVector: Map<string, MatchedVariant & { cosine: number }>;
  /** Raw cosines of candidates no vector list reached (their canonical question vs the query). */
  moreCosines: Map<string, number>;
}

/** The four lists as a backend's queries return them: best first, one entry per FAQ or per variant. */
export interface ScoredLists {
  canonicalLexical: readonly { id: string; score: number }[];
  variantLexical: readonly (MatchedVariant & { score: number })[];
  /** Raw cosines. */
  canonicalVector: readonly { id: string; score: number }[];
  variantVector: readonly (MatchedVariant & { cosine: number })[];
}

/**
 * The lists fusion reads: each cut to `window` FAQs, a variant list keeping each FAQ's best
 * variant, only FAQs `eligible` says may be returned (live, of the tenant, with the tags: the
 * D1 path checks that after its index queries; SQL on Postgres filters in the query).
 */
export function toFaqLists(scored: ScoredLists, window: number, eligible: (faqId: string) => boolean = () => true): FaqLists {
  const top = (list: readonly { id: string; score: number }[]) =>
    new Map(
      list
        .filter((c) => eligible(c.id))
        .slice(0, window)
        .map((c) => [c.id, c.score]),
    );
  return {
    canonicalLexical: top(scored.canonicalLexical),
    variantLexical: bestPerFaq(
      scored.variantLexical.filter((v) => eligible(v.faqId)),
      window,
    ),
    canonicalVector: top(scored.canonicalVector),
    variantVector: bestPerFaq(
      scored.variantVector.filter((v) => eligible(v.faqId)),
      window,
    ),
    moreCosines: new Map(),
  };
}

/** Every FAQ some list found, once. */
export function listedFaqIds(lists: FaqLists): string[] {
  return [
    ...new Set([
      ...lists.canonicalLexical.keys(),
      ...lists.variantLexical.keys(),
      ...lists.canonicalVector.keys(),
      ...lists.variantVector.keys(),
    ]),
  ];
}

/** Whether a vector list reached the FAQ (if not, its canonical cosine is read separately: moreCosines). */
export const reachedByVector = (lists: FaqLists, faqId: string) => lists.canonicalVector.has(faqId) || lists.variantVector.has(faqId);

/** A ranked hit with the row fusion was given for it (the whole FaqRow, or what a backend kept to rank). */
export type FusedHit<R = FaqRow> = Omit<FaqSearchHit, "faq"> & { faq: R };

export function fuseFaqLists<R = FaqRow>(
  lists: FaqLists,
  rows: Map<string, R>,
  options: { limit: number; vectorShare: number; calibration: Calibration | null },
): FusedHit<R>[] {
  const foundBy: [FaqMatchType, Map<string, unknown>][] = [
    ["canonical_bm25", lists.canonicalLexical],
    ["variant_bm25", lists.variantLexical],
    ["canonical_vector", lists.canonicalVector],
    ["variant_vector", lists.variantVector],
  ];
  const candidateIds = [...new Set(foundBy.flatMap(([, list]) => [...list.keys()]))].filter((id) => rows.has(id));
  const candidates = candidateIds.map((id) => ({
    id,
    lexical: Math.max(lists.canonicalLexical.get(id) ?? 0, lists.variantLexical.get(id)?.score ?? 0),
    cosine: maxOf([lists.canonicalVector.get(id), lists.variantVector.get(id)?.cosine, lists.moreCosines.get(id)]),
  }));
  const cosineOf = new Map(candidates.map((c) => [c.id, c.cosine]));
  return fuseScores(candidates, options.vectorShare)
    .slice(0, options.limit)
    .map((hit) => {
      // The variant that matched: the one the better-ranked variant list found.
      const textRank = indexOf(lists.variantLexical, hit.id);
      const vectorRank = indexOf(lists.variantVector, hit.id);
      const variant =
        textRank === -1 && vectorRank === -1
          ? null
          : textRank !== -1 && (vectorRank === -1 || textRank <= vectorRank)
            ? lists.variantLexical.get(hit.id)!
            : lists.variantVector.get(hit.id)!;
      const cosine = cosineOf.get(hit.id) ?? null;
      return {
        faq: rows.get(hit.id)!,
        score: hit.score,
        matchType: foundBy.filter(([, list]) => list.has(hit.id)).map(([name]) => name),
        matchedVariant: variant ? { id: variant.variantId, variantText: variant.text } : null,
        similarity: cosine === null ? null : calibrate(cosine, options.calibration),
      };
    });
}

/** The best (first) entry per FAQ, in order, at most `window` FAQs. */
export function bestPerFaq<T extends { faqId: string }>(candidates: readonly T[], window: number): Map<string, T> {
  const best = new Map<string, T>();
  for (const c of candidates) {
    if (best.size >= window) break;
    if (!best.has(c.faqId)) best.set(c.faqId, c);
  }
  return best;
}

function maxOf(values: readonly (number | undefined)[]): number | null {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length > 0 ? Math.max(...known) : null;
}

function indexOf(map: Map<string, unknown>, key: string): number {
  let i = 0;
  for (const k of map.keys()) {
    if (k === key) return i;
    i++;
  }
  return -1;
}
