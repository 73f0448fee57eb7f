/**
 * The FAQ knowledge base's storage port: FAQs, their variants and versions, hybrid search,
 * import and export. Two adapters: D1 (src/features/faqs/d1-store.ts, the embedded default: FTS5 + the
 * VectorIndex port) and Postgres (src/features/faqs/postgres/, pgvector + tsvector in the database).
 * Rows cross the port in one shape (FaqRow, VariantRow; the port's types are in types.ts) so
 * routes and the ticket pipeline do not know which backend answered. The FAQs' activity (hits,
 * relationships, suggestions) lives with them, in the same backend: its joins need the FAQ rows.
 */
import type { FaqRelationshipType } from "../../platform/db/schema";
import type { FtsRebuildPage } from "../indexing/fts-rebuild";
import type { SafeMessage } from "../../platform/observe/log";
import type {
  AddVariantResult,
  DailyHits,
  ExportLine,
  FaqChange,
  FaqRow,
  FaqSearchArgs,
  FaqSearchHit,
  FaqSearchResult,
  FaqStats,
  FaqUpdateResult,
  FaqUsage,
  FaqVersion,
  ImportedRelationship,
  ImportItem,
  ImportReport,
  LinkResult,
  NewFaq,
  NewVariant,
  RelatedFaq,
  ResolveResult,
  RollbackResult,
  Suggestion,
  VariantRow,
} from "./types";

export interface FaqListQuery {
  tag?: string | undefined;
  /** Free text: keeps FAQs whose question or answer shares a content word with it. */
  q?: string | undefined;
  /** Only FAQs with seq below this (the cursor). */
  beforeSeq?: number | undefined;
  limit: number;
}

export interface VariantPage {
  limit: number;
  afterSeq?: number | undefined;
}

export interface VersionPage {
  limit: number;
  before?: number | undefined;
}

export interface StoredVectorQuery {
  vector: Float32Array;
  model: string;
}

export interface VariantCounts {
  faqs: number;
  variants: number;
  pipelineVariants: number;
  faqsWithVariants: number;
  maxPerFaq: number;
}

/** Rows put back in the outbox by a re-embed, per table. */
export interface ReembedMarked {
  faqs: number;
  faq_variants: number;
}

export interface StoredCosines {
  faqs: Map<string, number>;
  variants: Map<string, number>;
}

export interface VersionChange {
  changeType: "update" | "rollback";
  reason?: string | undefined;
}

export interface SuggestionOverride {
  faqId?: string | undefined;
  variantText?: string | undefined;
}

/** Which FAQs searches returned, to whom (seed 002 §7.2.3): written after the response, read by the stats routes and the desk. */
export interface FaqHitsPort {
  recordHits(tenantId: string, sessionId: string, query: string, hits: readonly FaqSearchHit[]): Promise<void>;
  stats(tenantId: string, faqId: string): Promise<FaqStats>;
  /** The tenant's live FAQs with their stats, most hit first, at most `limit`. */
  allStats(tenantId: string, limit: number): Promise<({ id: string; question: string } & FaqStats)[]>;
  /** Hits per UTC day for the `days` days up to `now`, zeros included. */
  hitsPerDay(tenantId: string, faqId: string, days: number, now: number): Promise<DailyHits[]>;
  /** All live FAQs' hits per day over `days` days up to `now`, the trend and the never-used ones, at most `limit` of each list (usage.ts). */
  usage(tenantId: string, now: number, days: number, limit: number): Promise<FaqUsage>;
}

/** Typed links between FAQs (seed 002 §7.2.5, src/features/faqs/relationships.ts has the rules). */
export interface FaqLinksPort {
  /** From the FAQ's side, to live FAQs; manual first, then by similarity; at most `limit` (-1: all). */
  listRelated(tenantId: string, faqId: string, limit?: number): Promise<RelatedFaq[]>;
  createRelationship(tenantId: string, sourceId: string, targetId: string, type: FaqRelationshipType, by: string): Promise<LinkResult>;
  deleteRelationship(tenantId: string, relationshipId: string): Promise<boolean>;
  /** Recomputes the FAQ's auto `related` links from its vector; the count written, or null when it could not run. */
  refreshAutoRelated(tenantId: string, faqId: string, question: string, by: string): Promise<number | null>;
  /** Links of an import whose two FAQs the import wrote (ids kept); returns how many were restored. */
  restoreRelationships(tenantId: string, importedFaqIds: ReadonlySet<string>, links: readonly ImportedRelationship[]): Promise<number>;
}

/** Ambiguous searches clustered as candidate variants (src/features/faqs/suggestions.ts has the rules). */
export interface FaqSuggestionsPort {
  /** Records the search when it was ambiguous; true when it did. */
  recordSuggestion(tenantId: string, query: string, results: readonly FaqSearchHit[]): Promise<boolean>;
  listSuggestions(tenantId: string, limit: number): Promise<Suggestion[]>;
  resolveSuggestion(
    tenantId: string,
    id: string,
    action: "accept" | "dismiss",
    by: string,
    override?: SuggestionOverride,
  ): Promise<ResolveResult>;
}

export interface ReindexReport {
  attempted: number;
  indexed: number;
  faqs: { tenantId: string; id: string; question: string }[];
}

/** Words one wordsInUse call looks up: a ticket names a few people at most. */
export const MAX_VOCABULARY_WORDS = 20;

/** The words a wordsInUse call looks up: each once, letters and digits (and a code's joiners) only, at most MAX_VOCABULARY_WORDS. */
export const vocabularyQuery = (words: readonly string[]): string[] =>
  [...new Set(words.map((w) => w.trim()).filter((w) => /^[\p{L}\p{N}'’-](?:[\p{L}\p{N}'’/._ -]*[\p{L}\p{N}])?$/u.test(w)))].slice(
    0,
    MAX_VOCABULARY_WORDS,
  );

export interface FaqStore extends FaqHitsPort, FaqLinksPort, FaqSuggestionsPort {
  readonly backend: "d1" | "postgres";
  create(tenantId: string, by: string, input: NewFaq): Promise<FaqRow>;
  /** A live (not deleted) FAQ of the tenant, or null. */
  get(tenantId: string, id: string): Promise<FaqRow | null>;
  /** The live FAQs of the tenant among these ids, by id. */
  getMany(tenantId: string, ids: readonly string[]): Promise<Map<string, FaqRow>>;
  /** The live FAQs whose stored question vector is nearest the query, best first, raw cosine. */
  nearest(tenantId: string, query: StoredVectorQuery, topK: number): Promise<{ id: string; score: number }[]>;
  /** Live FAQs and their variants, counted (GET /v1/pipeline/stats). */
  variantCounts(tenantId: string): Promise<VariantCounts>;
  /** Of these words (at most MAX_VOCABULARY_WORDS), the ones a live FAQ of the tenant says, in its question or answer, case aside. */
  wordsInUse(tenantId: string, words: readonly string[]): Promise<Set<string>>;
  /** Live FAQs, newest first, one page. */
  list(tenantId: string, query: FaqListQuery): Promise<{ rows: FaqRow[]; more: boolean }>;
  update(tenantId: string, id: string, by: string, change: FaqChange, version?: VersionChange): Promise<FaqUpdateResult>;
  softDelete(tenantId: string, id: string, by: string): Promise<boolean>;
  addVariant(tenantId: string, faqId: string, by: string, input: NewVariant): Promise<AddVariantResult>;
  /** Oldest first; a page after `afterSeq` when given (no page: all, as the FAQ's detail embeds them). */
  listVariants(tenantId: string, faqId: string, page?: VariantPage): Promise<VariantRow[]>;
  deleteVariant(tenantId: string, variantId: string): Promise<boolean>;
  /** The variants of these FAQs, oldest first (the ticket pipeline compares a ticket with each). */
  variantsOf(tenantId: string, faqIds: readonly string[]): Promise<VariantRow[]>;
  /**
   * Exact cosines between the query vector and the stored vectors of these FAQ questions and
   * variants (raw, not calibrated); an id with no stored vector of the query's model is absent.
   */
  storedCosines(
    tenantId: string,
    query: StoredVectorQuery,
    ids: { faqIds: readonly string[]; variantIds: readonly string[] },
  ): Promise<StoredCosines>;
  /** Newest first, one page below version `before` when given. */
  listVersions(tenantId: string, faqId: string, page: VersionPage): Promise<FaqVersion[]>;
  rollback(tenantId: string, faqId: string, versionNumber: number, by: string, reason?: string): Promise<RollbackResult>;
  search(tenantId: string, args: FaqSearchArgs): Promise<FaqSearchResult>;
  import(tenantId: string, by: string, items: readonly ImportItem[]): Promise<ImportReport>;
  /**
   * The cron's step, every tenant: vectors for the oldest rows committed 'pending' (the embedder had
   * failed). `faqs`: the FAQs whose question it indexed, for their automatic related links.
   */
  reindexPending(batchSize?: number): Promise<ReindexReport>;
  /**
   * After an embedding-model change: the tenant's FAQs and variants whose vector another model
   * made go back to 'pending' and lose that vector; reindexPending then embeds them with `model`.
   */
  markForReembed(tenantId: string, model: string): Promise<ReembedMarked>;
  /** Re-tokenizes one page of the tenant's full-text rows with the current segmentation (src/core/text/fts.ts). */
  rebuildFullText(tenantId: string, collection: "faqs" | "faq_variants", after: number, batchSize: number): Promise<FtsRebuildPage>;
  /** The daily retention, every tenant: versions changed more than FAQ_VERSION_RETENTION_DAYS before `now`. */
  pruneVersions(now: number): Promise<{ deleted: number }>;
  /** Every live FAQ of the tenant with its variants, versions and outgoing links, oldest first. */
  export(tenantId: string): Promise<ExportLine[]>;
}

/**
 * The store's database cannot be reached or did not answer in time: the request is answered 503
 * STORE_UNAVAILABLE with Retry-After (src/http/errors.ts); nothing was half-written (each write
 * is one statement or one transaction).
 */
export class StoreUnavailableError extends Error implements SafeMessage {
  override name = "StoreUnavailableError";
  /** Fixed text ("Postgres is unreachable"); the driver's error, which can quote values, is its cause. */
  readonly safeMessage = true;
  /** What Retry-After says: the connect and query timeouts are seconds, a restart tens of seconds. */
  readonly retryAfterSeconds = 5;
}
