/**
 * What a FAQ store gives the one FAQ search (search.ts): candidate lists and rows. The search
 * does the rest — weights, window, the query's embedding, fusion, what is degraded, timing — the
 * same on every store. One source per search: it may keep what one step learns for the next
 * (D1's row version, Postgres's variant texts).
 */
import type { QueryExpansion } from "../../core/text/expand";
import type { MatchedVariant } from "./fuse-lists";
import type { FaqDegradation, FaqRow } from "./types";

export interface ListWindow {
  faqs: number;
  variants: number;
}

/** What a store's source is opened with: the tags every list must carry, the lists' window, whether vectors are wanted. */
export interface SearchPlan {
  tags: readonly string[];
  window: ListWindow;
  vectors: boolean;
}

/** A part that failed and was left out of the answer: the search says so in `degraded`. */
export type Degrade = (part: FaqDegradation, error: unknown) => void;

export interface LexicalCandidates {
  /** FAQ ids best first by full-text rank (question and answer weighted), higher is better. */
  canonical: { id: string; score: number }[];
  /** Variants best first by full-text rank. */
  variants: (MatchedVariant & { score: number })[];
}

export interface VectorCandidates {
  /** FAQ ids best first by the raw cosine of their canonical question. */
  canonical: { id: string; score: number }[];
  /** Variant ids best first by raw cosine. */
  variants: { variantId: string; cosine: number }[];
}

export interface SearchRows<R extends { id: string }> {
  /** Live FAQs of the tenant with the requested tags, among those asked for and those of the variants asked for. */
  faqs: Map<string, R>;
  /** The variants asked for that exist: their FAQ and text. */
  variants: Map<string, { faqId: string; text: string }>;
  /** Raw cosines of the query to FAQs' canonical questions that came with the rows (Postgres computes them in the same query). */
  cosines: Map<string, number>;
  /** Whole rows, answers included, for the page. */
  whole(ids: readonly string[]): Promise<Map<string, FaqRow>>;
}

export interface FaqSearchSource<R extends { id: string } = { id: string }> {
  /** Full-text lists for the expanded query, tags applied; null: no full-text lists (a bm25 weight of 0). */
  lexical(expansion: QueryExpansion | null): Promise<LexicalCandidates>;
  /** Nearest canonical questions and variants to the query's vector, calibrated similarity not yet applied. */
  nearest(vector: Float32Array, degrade: Degrade): Promise<VectorCandidates>;
  rows(candidates: { faqIds: readonly string[]; variantIds: readonly string[] }, vector: Float32Array | null): Promise<SearchRows<R>>;
  /** Raw cosines of the query to these FAQs' canonical questions. */
  cosines(vector: Float32Array, faqIds: readonly string[], degrade: Degrade): Promise<Map<string, number>>;
}
