/**
 * FAQ knowledge base (seed 002 §7). FTS5 tables (faqs_fts, faq_variants_fts) are hand-written
 * migrations; their rowid is the `seq` of the row they index. Times are epoch milliseconds.
 */
import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenants, indexStates } from "./core";

export const faqVariantSources = ["manual", "pipeline", "suggestion"] as const;
export type FaqVariantSource = (typeof faqVariantSources)[number];
export const faqRelationshipTypes = ["related", "parent", "child", "see_also"] as const;
export type FaqRelationshipType = (typeof faqRelationshipTypes)[number];
export const faqChangeTypes = ["update", "rollback"] as const;
export type FaqChangeType = (typeof faqChangeTypes)[number];

export const faqs = sqliteTable(
  "faqs",
  {
    /** Integer key shared with the FTS5 row (faqs_fts.rowid). */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    tags: text("tags", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    metadata: text("metadata", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
    /** The number of the current content; each change stores the previous content as a version of its number. */
    version: integer("version").notNull().default(1),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedBy: text("updated_by").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** Soft delete: the row stays (versions, hits), search and reads skip it. */
    deletedAt: integer("deleted_at"),
    deletedBy: text("deleted_by"),
    indexState: text("index_state", { enum: indexStates }).notNull().default("pending"),
    indexAttempts: integer("index_attempts").notNull().default(0),
    indexError: text("index_error"),
    embeddingModel: text("embedding_model"),
  },
  (t) => [
    uniqueIndex("faqs_id_idx").on(t.id),
    index("faqs_tenant_idx").on(t.tenantId, t.deletedAt, t.seq),
    index("faqs_index_state_idx").on(t.indexState, t.seq),
  ],
);

export const faqVariants = sqliteTable(
  "faq_variants",
  {
    /** Integer key shared with the FTS5 row (faq_variants_fts.rowid). */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    faqId: text("faq_id").notNull(),
    variantText: text("variant_text").notNull(),
    /** Case/width/space-folded text: an exact duplicate within one FAQ is refused (unique). */
    normalizedText: text("normalized_text").notNull(),
    source: text("source", { enum: faqVariantSources }).notNull().default("manual"),
    sourceTicketId: text("source_ticket_id"),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    indexState: text("index_state", { enum: indexStates }).notNull().default("pending"),
    indexAttempts: integer("index_attempts").notNull().default(0),
    indexError: text("index_error"),
    embeddingModel: text("embedding_model"),
  },
  (t) => [
    uniqueIndex("faq_variants_id_idx").on(t.id),
    uniqueIndex("faq_variants_text_idx").on(t.tenantId, t.faqId, t.normalizedText),
    index("faq_variants_index_state_idx").on(t.indexState, t.seq),
  ],
);

/** One row per FAQ returned by a search that carried a sessionId (seed §7.2.3). */
export const faqHits = sqliteTable(
  "faq_hits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    faqId: text("faq_id").notNull(),
    variantId: text("variant_id"),
    queryText: text("query_text").notNull(),
    score: real("score").notNull(),
    sessionId: text("session_id").notNull(),
    hitAt: integer("hit_at").notNull(),
  },
  (t) => [index("faq_hits_faq_idx").on(t.tenantId, t.faqId, t.hitAt), index("faq_hits_time_idx").on(t.hitAt)],
);

/** Previous contents of an FAQ (seed §7.2.4), written in the same D1 batch as the change; kept 90 days. */
export const faqVersions = sqliteTable(
  "faq_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    faqId: text("faq_id").notNull(),
    versionNumber: integer("version_number").notNull(),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull(),
    changeType: text("change_type", { enum: faqChangeTypes }).notNull(),
    changeReason: text("change_reason"),
    changedBy: text("changed_by").notNull(),
    changedAt: integer("changed_at").notNull(),
  },
  (t) => [uniqueIndex("faq_versions_number_idx").on(t.faqId, t.versionNumber), index("faq_versions_changed_idx").on(t.changedAt)],
);

/**
 * Typed links between FAQs (seed §7.2.5): `type` says what the target is to the source. One link
 * per unordered pair (`pair_key` = the two ids sorted), never a self-link. Auto-generated
 * `related` links are replaced on each change of the source; manual ones are never touched.
 */
export const faqRelationships = sqliteTable(
  "faq_relationships",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    sourceFaqId: text("source_faq_id").notNull(),
    targetFaqId: text("target_faq_id").notNull(),
    pairKey: text("pair_key").notNull(),
    relationshipType: text("relationship_type", { enum: faqRelationshipTypes }).notNull(),
    isAutoGenerated: integer("is_auto_generated", { mode: "boolean" }).notNull().default(false),
    /** Calibrated similarity for auto-generated links. */
    similarity: real("similarity"),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("faq_relationships_pair_idx").on(t.tenantId, t.pairKey),
    index("faq_relationships_source_idx").on(t.tenantId, t.sourceFaqId),
    index("faq_relationships_target_idx").on(t.tenantId, t.targetFaqId),
  ],
);

export const faqSuggestionStatuses = ["open", "accepted", "dismissed"] as const;

/**
 * Candidate alternate phrasings (active learning): a search whose top two FAQs scored within the
 * margin records its query here, clustered by (top FAQ, content words of the query).
 */
export const faqSuggestions = sqliteTable(
  "faq_suggestions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    clusterKey: text("cluster_key").notNull(),
    faqId: text("faq_id").notNull(),
    alternateFaqId: text("alternate_faq_id").notNull(),
    /** The first query of the cluster: what becomes the variant on accept. */
    queryText: text("query_text").notNull(),
    /** Up to 5 distinct phrasings seen, JSON. */
    samples: text("samples", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    count: integer("count").notNull().default(1),
    status: text("status", { enum: faqSuggestionStatuses }).notNull().default("open"),
    firstSeenAt: integer("first_seen_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [
    uniqueIndex("faq_suggestions_cluster_idx").on(t.tenantId, t.clusterKey),
    index("faq_suggestions_list_idx").on(t.tenantId, t.status, t.count),
  ],
);

/* ----------------------------------------------------------------------------------------------
 * Ticket-to-FAQ pipeline (seed 002 §5.2 Enhancement 3, §8.2): signed webhook intake → Queue →
 * decision → variant (direct) or staging (human review). Times are epoch milliseconds.
 */
