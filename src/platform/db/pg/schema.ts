/**
 * The FAQ knowledge base on Postgres (seed 002's design): the same tables and columns as the D1
 * schema (src/platform/db/schema/faqs.ts) so rows move between backends unchanged, plus what Postgres
 * does in the database: the question vector in the row (pgvector) and a weighted tsvector
 * generated from the same pre-tokenized text FTS5 indexes (src/core/text/fts.ts ftsDocument).
 * The extension, the `recall_fts` text search configuration, the HNSW indexes are in the
 * hand-written migrations of migrations/pg/ (drizzle-kit cannot express them).
 * Times are epoch milliseconds, as on D1.
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, customType, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

const indexStates = ["pending", "indexed", "lexical_only", "failed"] as const;
const variantSources = ["manual", "pipeline", "suggestion"] as const;
const changeTypes = ["update", "rollback"] as const;
const relationshipTypes = ["related", "parent", "child", "see_also"] as const;
const suggestionStatuses = ["open", "accepted", "dismissed"] as const;

/**
 * A pgvector column without a fixed dimension: the model decides it (512 locally, 1024 for
 * bge-m3), and the HNSW indexes are partial per model on a cast (see migrations/pg/0002).
 */
export const vector = customType<{ data: number[]; driverData: string }>({
  dataType: () => "vector",
  toDriver: (value) => `[${value.join(",")}]`,
  fromDriver: (value) => JSON.parse(value) as number[],
});

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** setweight A (question) and B (answer): ts_rank's weights give them seed 002's 10 : 3. */
const faqSearchVector = sql`setweight(to_tsvector('recall_fts', question_terms), 'A') || setweight(to_tsvector('recall_fts', answer_terms), 'B')`;

export const pgFaqs = pgTable(
  "faqs",
  {
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    tags: jsonb("tags")
      .notNull()
      .default(sql`'[]'::jsonb`),
    metadata: jsonb("metadata")
      .notNull()
      .default(sql`'{}'::jsonb`),
    version: integer("version").notNull().default(1),
    createdBy: text("created_by").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedBy: text("updated_by").notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
    deletedAt: bigint("deleted_at", { mode: "number" }),
    deletedBy: text("deleted_by"),
    indexState: text("index_state", { enum: indexStates }).notNull().default("pending"),
    indexAttempts: integer("index_attempts").notNull().default(0),
    indexError: text("index_error"),
    embeddingModel: text("embedding_model"),
    embedding: vector("embedding"),
    /** ftsDocument(question) / ftsDocument(answer): the tokens FTS5 would index. */
    questionTerms: text("question_terms").notNull(),
    answerTerms: text("answer_terms").notNull(),
    search: tsvector("search").generatedAlwaysAs(faqSearchVector),
  },
  (t) => [
    uniqueIndex("faqs_seq_idx").on(t.seq),
    index("faqs_tenant_idx").on(t.tenantId, t.deletedAt, t.seq),
    index("faqs_index_state_idx").on(t.indexState, t.seq),
    index("faqs_search_idx").using("gin", t.search),
    index("faqs_tags_idx").using("gin", t.tags),
  ],
);

export const pgFaqVariants = pgTable(
  "faq_variants",
  {
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    faqId: text("faq_id")
      .notNull()
      .references(() => pgFaqs.id),
    variantText: text("variant_text").notNull(),
    normalizedText: text("normalized_text").notNull(),
    source: text("source", { enum: variantSources }).notNull().default("manual"),
    sourceTicketId: text("source_ticket_id"),
    createdBy: text("created_by").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    indexState: text("index_state", { enum: indexStates }).notNull().default("pending"),
    indexAttempts: integer("index_attempts").notNull().default(0),
    indexError: text("index_error"),
    embeddingModel: text("embedding_model"),
    embedding: vector("embedding"),
    bodyTerms: text("body_terms").notNull(),
    search: tsvector("search").generatedAlwaysAs(sql`to_tsvector('recall_fts', body_terms)`),
  },
  (t) => [
    uniqueIndex("faq_variants_seq_idx").on(t.seq),
    uniqueIndex("faq_variants_text_idx").on(t.tenantId, t.faqId, t.normalizedText),
    index("faq_variants_faq_idx").on(t.tenantId, t.faqId, t.seq),
    index("faq_variants_index_state_idx").on(t.indexState, t.seq),
    index("faq_variants_search_idx").using("gin", t.search),
  ],
);

export const pgFaqVersions = pgTable(
  "faq_versions",
  {
    id: bigint("id", { mode: "number" }).generatedAlwaysAsIdentity().primaryKey(),
    tenantId: text("tenant_id").notNull(),
    faqId: text("faq_id")
      .notNull()
      .references(() => pgFaqs.id),
    versionNumber: integer("version_number").notNull(),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    tags: jsonb("tags").notNull(),
    changeType: text("change_type", { enum: changeTypes }).notNull(),
    changeReason: text("change_reason"),
    changedBy: text("changed_by").notNull(),
    changedAt: bigint("changed_at", { mode: "number" }).notNull(),
  },
  (t) => [uniqueIndex("faq_versions_number_idx").on(t.faqId, t.versionNumber), index("faq_versions_changed_idx").on(t.changedAt)],
);

/** One FAQ a search returned (seed 002 §7.2.3), as D1's faq_hits. */
export const pgFaqHits = pgTable(
  "faq_hits",
  {
    id: bigint("id", { mode: "number" }).generatedAlwaysAsIdentity().primaryKey(),
    tenantId: text("tenant_id").notNull(),
    faqId: text("faq_id").notNull(),
    variantId: text("variant_id"),
    queryText: text("query_text").notNull(),
    score: doublePrecision("score").notNull(),
    sessionId: text("session_id").notNull(),
    hitAt: bigint("hit_at", { mode: "number" }).notNull(),
  },
  (t) => [index("faq_hits_faq_idx").on(t.tenantId, t.faqId, t.hitAt), index("faq_hits_time_idx").on(t.hitAt)],
);

/** Typed links between FAQs (seed 002 §7.2.5), one per unordered pair (pair_key), as D1's faq_relationships. */
export const pgFaqRelationships = pgTable(
  "faq_relationships",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    sourceFaqId: text("source_faq_id").notNull(),
    targetFaqId: text("target_faq_id").notNull(),
    pairKey: text("pair_key").notNull(),
    relationshipType: text("relationship_type", { enum: relationshipTypes }).notNull(),
    isAutoGenerated: boolean("is_auto_generated").notNull().default(false),
    similarity: doublePrecision("similarity"),
    createdBy: text("created_by").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("faq_relationships_pair_idx").on(t.tenantId, t.pairKey),
    index("faq_relationships_source_idx").on(t.tenantId, t.sourceFaqId),
    index("faq_relationships_target_idx").on(t.tenantId, t.targetFaqId),
  ],
);

/** Candidate alternate phrasings (active learning), as D1's faq_suggestions; samples is a JSON array of up to 5 queries. */
export const pgFaqSuggestions = pgTable(
  "faq_suggestions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    clusterKey: text("cluster_key").notNull(),
    faqId: text("faq_id").notNull(),
    alternateFaqId: text("alternate_faq_id").notNull(),
    queryText: text("query_text").notNull(),
    samples: jsonb("samples")
      .notNull()
      .default(sql`'[]'::jsonb`),
    count: integer("count").notNull().default(1),
    status: text("status", { enum: suggestionStatuses }).notNull().default("open"),
    firstSeenAt: bigint("first_seen_at", { mode: "number" }).notNull(),
    lastSeenAt: bigint("last_seen_at", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("faq_suggestions_cluster_idx").on(t.tenantId, t.clusterKey),
    index("faq_suggestions_list_idx").on(t.tenantId, t.status, t.count),
  ],
);

export type PgFaq = typeof pgFaqs.$inferSelect;
export type PgFaqVariant = typeof pgFaqVariants.$inferSelect;
export type PgFaqVersion = typeof pgFaqVersions.$inferSelect;
export type PgFaqRelationship = typeof pgFaqRelationships.$inferSelect;
export type PgFaqSuggestion = typeof pgFaqSuggestions.$inferSelect;

const ticketStatuses = ["received", "decided", "dead_letter"] as const;
const ticketActions = ["SKIP", "ADD_VARIANT", "MERGE", "NEW"] as const;
const stagingStatuses = ["pending", "approved", "rejected"] as const;

/**
 * The ticket pipeline's tickets (src/features/tickets/), as D1's `tickets` (src/platform/db/schema/tickets.ts): on
 * Postgres they live with the FAQs their decisions create (FAQ_STORE=postgres puts both here).
 */
export const pgTickets = pgTable(
  "tickets",
  {
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    ticketId: text("ticket_id").notNull(),
    subject: text("subject").notNull(),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    tags: jsonb("tags")
      .notNull()
      .default(sql`'[]'::jsonb`),
    resolvedAt: bigint("resolved_at", { mode: "number" }).notNull(),
    source: text("source"),
    status: text("status", { enum: ticketStatuses }).notNull().default("received"),
    receivedAt: bigint("received_at", { mode: "number" }).notNull(),
    cleanedQuestion: text("cleaned_question"),
    action: text("action", { enum: ticketActions }),
    similarity: doublePrecision("similarity"),
    similarityMethod: text("similarity_method", { enum: ["calibrated", "raw", "lexical"] }),
    matchedFaqId: text("matched_faq_id"),
    matchedVariantId: text("matched_variant_id"),
    judge: text("judge"),
    rationale: text("rationale"),
    variantId: text("variant_id"),
    stagingId: text("staging_id"),
    decidedAt: bigint("decided_at", { mode: "number" }),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    leaseUntil: bigint("lease_until", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("tickets_seq_idx").on(t.seq),
    uniqueIndex("tickets_tenant_ticket_idx").on(t.tenantId, t.ticketId),
    index("tickets_status_idx").on(t.tenantId, t.status, t.seq),
    index("tickets_received_idx").on(t.status, t.receivedAt),
  ],
);

/** MERGE and NEW proposals waiting for review, as D1's `staging_items`; one per ticket. */
export const pgStagingItems = pgTable(
  "staging_items",
  {
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    ticketRowId: text("ticket_row_id").notNull(),
    action: text("action", { enum: ["MERGE", "NEW"] }).notNull(),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    tags: jsonb("tags")
      .notNull()
      .default(sql`'[]'::jsonb`),
    faqId: text("faq_id"),
    variantText: text("variant_text"),
    similarity: doublePrecision("similarity"),
    judge: text("judge"),
    rationale: text("rationale"),
    status: text("status", { enum: stagingStatuses }).notNull().default("pending"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    reviewedBy: text("reviewed_by"),
    reviewedAt: bigint("reviewed_at", { mode: "number" }),
    rejectReason: text("reject_reason"),
    resultFaqId: text("result_faq_id"),
  },
  (t) => [
    uniqueIndex("staging_items_seq_idx").on(t.seq),
    uniqueIndex("staging_items_ticket_idx").on(t.ticketRowId),
    index("staging_items_status_idx").on(t.tenantId, t.status, t.seq),
  ],
);

export type PgTicket = typeof pgTickets.$inferSelect;
export type PgStagingItem = typeof pgStagingItems.$inferSelect;
