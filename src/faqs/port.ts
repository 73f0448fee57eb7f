/**
 * The FAQ knowledge base's storage port: FAQs, their variants and versions, hybrid search,
 * import and export. Two adapters: D1 (src/faqs/d1-store.ts, the embedded default: FTS5 + the
 * VectorIndex port) and Postgres (src/faqs/postgres/, pgvector + tsvector in the database).
 * Rows cross the port in one shape (FaqRow, VariantRow) so routes and the ticket pipeline do not
 * know which backend answered. Hits, relationships and suggestions stay on D1 (see README).
 */
import type { ImportItem, ImportReport } from "./import";
import type { ExportLine } from "./transfer";
import type { FaqSearchArgs, FaqSearchResult } from "./search";
import type { FaqChange, FaqRow, FaqUpdateResult, NewFaq } from "./store";
import type { AddVariantResult, NewVariant, VariantRow } from "./variants";
import type { FaqVersion, RollbackResult } from "./versions";

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

export interface VersionChange {
  changeType: "update" | "rollback";
  reason?: string | undefined;
}

export interface FaqStore {
  readonly backend: "d1" | "postgres";
  create(tenantId: string, by: string, input: NewFaq): Promise<FaqRow>;
  /** A live (not deleted) FAQ of the tenant, or null. */
  get(tenantId: string, id: string): Promise<FaqRow | null>;
  /** Live FAQs, newest first, one page. */
  list(tenantId: string, query: FaqListQuery): Promise<{ rows: FaqRow[]; more: boolean }>;
  update(tenantId: string, id: string, by: string, change: FaqChange, version?: VersionChange): Promise<FaqUpdateResult>;
  softDelete(tenantId: string, id: string, by: string): Promise<boolean>;
  addVariant(tenantId: string, faqId: string, by: string, input: NewVariant): Promise<AddVariantResult>;
  /** Oldest first; a page after `afterSeq` when given (no page: all, as the FAQ's detail embeds them). */
  listVariants(tenantId: string, faqId: string, page?: VariantPage): Promise<VariantRow[]>;
  deleteVariant(tenantId: string, variantId: string): Promise<boolean>;
  /** Newest first, one page below version `before` when given. */
  listVersions(tenantId: string, faqId: string, page: VersionPage): Promise<FaqVersion[]>;
  rollback(tenantId: string, faqId: string, versionNumber: number, by: string, reason?: string): Promise<RollbackResult>;
  search(tenantId: string, args: FaqSearchArgs): Promise<FaqSearchResult>;
  import(tenantId: string, by: string, items: readonly ImportItem[]): Promise<ImportReport>;
  /** Every live FAQ of the tenant with its variants and versions, oldest first (relationships are added from D1: transfer.ts). */
  export(tenantId: string): Promise<Omit<ExportLine, "related">[]>;
}

/**
 * The store's database cannot be reached or did not answer in time: the request is answered 503
 * STORE_UNAVAILABLE with Retry-After (src/http/errors.ts); nothing was half-written (each write
 * is one statement or one transaction).
 */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
  /** What Retry-After says: the connect and query timeouts are seconds, a restart tens of seconds. */
  readonly retryAfterSeconds = 5;
}
