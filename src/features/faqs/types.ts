/**
 * The types that cross the FAQ store port (port.ts): rows, arguments and results. The port owns
 * them: both adapters (D1, d1-store.ts; Postgres, postgres/) and their callers take them from
 * here, and nothing here imports an adapter.
 */
import type { FaqChangeType, FaqRelationshipType, FaqVariantSource, IndexState } from "../../platform/db/schema";
import type { Result } from "../../core/base/result";

export interface NewFaq {
  question: string;
  answer: string;
  tags: string[];
  metadata: Record<string, unknown>;
}

/**
 * The port's row shape (both backends answer it): columns under their SQL names and JSON columns
 * as the text stored, because the raw FTS5 search (search.ts) reads rows of this shape straight
 * from SQL. Drizzle queries map to it from the schema's inferred types in rows.ts.
 */
export interface FaqRow {
  seq: number;
  id: string;
  tenant_id: string;
  question: string;
  answer: string;
  tags: string;
  metadata: string;
  version: number;
  created_by: string;
  created_at: number;
  updated_by: string;
  updated_at: number;
  deleted_at: number | null;
  index_state: IndexState;
}

export interface FaqChange {
  question?: string | undefined;
  answer?: string | undefined;
  tags?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
}

export type FaqUpdateResult = Result<{ row: FaqRow; contentChanged: boolean; questionChanged: boolean }, "not_found">;

export interface NewVariant {
  variantText: string;
  source: FaqVariantSource;
  sourceTicketId?: string | undefined;
}

export interface VariantRow {
  seq: number;
  id: string;
  tenant_id: string;
  faq_id: string;
  variant_text: string;
  normalized_text: string;
  source: FaqVariantSource;
  source_ticket_id: string | null;
  created_by: string;
  created_at: number;
  index_state: IndexState;
}

export type AddVariantResult = Result<VariantRow, "not_found" | "duplicate" | "too_many">;

export interface FaqVersion {
  versionNumber: number;
  question: string;
  answer: string;
  tags: string[];
  changeType: FaqChangeType;
  changeReason: string | null;
  changedBy: string;
  changedAt: string;
}

export type RollbackResult = Result<FaqRow, "not_found" | "version_not_found">;

export interface FaqSearchWeights {
  bm25: number;
  vector: number;
}

export type FaqMatchType = "canonical_bm25" | "variant_bm25" | "canonical_vector" | "variant_vector";

export type FaqDegradation = "embeddings" | "vector_index";

export interface FaqSearchArgs {
  query: string;
  limit: number;
  weights?: Partial<FaqSearchWeights> | undefined;
  /** Keep FAQs that carry every one of these tags. */
  tags?: readonly string[] | undefined;
}

export interface FaqSearchHit {
  faq: FaqRow;
  /** The fused score (src/core/ranking/fusion.ts): z-score units over this query's candidates, higher is better. */
  score: number;
  matchType: FaqMatchType[];
  /** The variant that matched (best-ranked variant list), when a variant list found the FAQ. */
  matchedVariant: { id: string; variantText: string } | null;
  /** Calibrated similarity of the query to the closer of the canonical question / matched variant, null when no vector was compared. */
  similarity: number | null;
}

export interface FaqSearchResult {
  results: FaqSearchHit[];
  degraded: FaqDegradation[];
  /** The query's vector, when it was embedded: a caller comparing more texts with the query reuses it. */
  queryVector: Float32Array | null;
  /** Milliseconds: embedding the query (0 when not embedded), the lists after it, loading rows + fusing, and in total. */
  timing: { embedMs: number; listsMs: number; rowsMs: number; totalMs: number };
}

export interface FaqStats {
  totalHits: number;
  uniqueSessions: number;
  /** Distinct UTC days with at least one hit. */
  daysWithHits: number;
  lastHitAt: string | null;
  /**
   * Mean calibrated similarity of the queries that hit it (seed 002's avg similarity; a query the
   * model could not embed counts 0), 4 significant digits; null without hits.
   */
  avgScore: number | null;
}

export interface DailyHits {
  /** YYYY-MM-DD (UTC). */
  day: string;
  hits: number;
}

/** A live FAQ and its hits in the last TREND_DAYS days against the TREND_DAYS before (usage.ts). */
export interface FaqTrend {
  id: string;
  question: string;
  thisWeek: number;
  previousWeek: number;
}

/** The tenant's FAQ usage at a glance (GET /v1/faqs/usage): hits of live FAQs only. */
export interface FaqUsage {
  /** Hits per UTC day of all live FAQs together, every day of the range, zeros included. */
  daily: DailyHits[];
  /** Over the days of `daily`: hits and distinct sessions. */
  hits: number;
  sessions: number;
  liveFaqs: number;
  /** Live FAQs that no search with a session ever returned. */
  neverUsedFaqs: number;
  /** Rising first: by this week's hits minus the previous week's, then this week's. */
  trending: FaqTrend[];
  /** Oldest first: the ones longest in the knowledge base without a hit. */
  neverUsed: { id: string; question: string; createdAt: string }[];
}

export interface ImportVariant {
  variantText: string;
  id?: string | undefined;
  source?: FaqVariantSource | undefined;
  sourceTicketId?: string | null | undefined;
  createdBy?: string | undefined;
  createdAt?: number | undefined;
}

/** A version as an import carries it: a shown version, with its time in epoch milliseconds. */
export type ImportVersion = Omit<FaqVersion, "changedAt"> & { changedAt: number };

export interface ImportItem extends NewFaq {
  line: number;
  variants: (string | ImportVariant)[];
  /** Kept from an export; absent on a plain import line. */
  id?: string | undefined;
  version?: number | undefined;
  createdBy?: string | undefined;
  createdAt?: number | undefined;
  updatedBy?: string | undefined;
  updatedAt?: number | undefined;
  versions?: ImportVersion[] | undefined;
}

export interface ImportReport {
  imported: { line: number; id: string; variants: number }[];
  /** Lines not written because an id they keep cannot be used: repeated in the file, or used by a stored row. */
  skipped: { line: number; code: "ID_REPEATED" | "ID_UNAVAILABLE"; message: string }[];
  /** Variants dropped as exact duplicates (folded) of their FAQ's question or of another variant. */
  duplicateVariants: number;
  indexed: number;
  pendingIndex: number;
}

export interface RelatedFaq {
  /** The relationship's id (DELETE /v1/faqs/relationships/:id). */
  relationshipId: string;
  id: string;
  question: string;
  relationshipType: FaqRelationshipType;
  isAutoGenerated: boolean;
  similarity: number | null;
}

export type LinkResult = Result<RelatedFaq, "not_found" | "target_not_found" | "target_deleted" | "self" | "exists">;

export interface ExportedVariant {
  id: string;
  variantText: string;
  source: string;
  sourceTicketId: string | null;
  createdBy: string;
  createdAt: string;
}

export interface ExportedRelationship {
  id: string;
  targetFaqId: string;
  relationshipType: FaqRelationshipType;
  isAutoGenerated: boolean;
  similarity: number | null;
  createdBy: string;
  createdAt: string;
}

export interface ExportLine {
  id: string;
  question: string;
  answer: string;
  tags: string[];
  metadata: Record<string, unknown>;
  version: number;
  createdBy: string;
  createdAt: string;
  updatedBy: string;
  updatedAt: string;
  variants: ExportedVariant[];
  versions: FaqVersion[];
  related: ExportedRelationship[];
}

export interface ImportedRelationship extends Omit<ExportedRelationship, "createdAt"> {
  sourceFaqId: string;
  createdAt: number;
}

export interface Suggestion {
  id: string;
  faqId: string;
  faqQuestion: string;
  alternateFaqId: string;
  queryText: string;
  samples: string[];
  count: number;
  firstSeenAt: string;
  lastSeenAt: string;
}

/** accepted or dismissed; `variant` is the accept's outcome (null for a dismiss). */
export type ResolveResult = Result<{ variant: AddVariantResult | null }, "not_found">;
