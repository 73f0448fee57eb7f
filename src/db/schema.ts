/**
 * The D1 schema. drizzle-kit generates the migrations from this file; the FTS5 tables and their
 * tokenizer live in hand-written migrations because drizzle cannot describe virtual tables.
 * Every tenant-owned row carries `tenant_id`, and every query filters on it.
 */
import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const tenants = sqliteTable("tenants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: integer("created_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    /** SHA-256 of the key, hex. The key itself is shown once, at creation. */
    keyHash: text("key_hash").notNull(),
    /** The first characters of the key, so a person can tell keys apart in a listing. */
    keyPrefix: text("key_prefix").notNull(),
    role: text("role", { enum: ["client", "admin"] }).notNull(),
    name: text("name").notNull().default(""),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_idx").on(t.keyHash), index("api_keys_tenant_idx").on(t.tenantId)],
);

/** Where a row stands with the vector index (the outbox): see src/indexing/. */
export const indexStates = ["pending", "indexed", "lexical_only", "failed"] as const;
export type IndexState = (typeof indexStates)[number];

export const memoryTypes = ["fact", "question", "decision", "insight"] as const;
export type MemoryType = (typeof memoryTypes)[number];

export const memories = sqliteTable(
  "memories",
  {
    /** Integer key shared with the FTS5 row (memories_fts.rowid). */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    scope: text("scope").notNull(),
    content: text("content").notNull(),
    memoryType: text("memory_type", { enum: memoryTypes }).notNull(),
    category: text("category"),
    importance: real("importance").notNull().default(0.5),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    sessionId: text("session_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    indexState: text("index_state", { enum: indexStates }).notNull().default("pending"),
    indexAttempts: integer("index_attempts").notNull().default(0),
    indexError: text("index_error"),
    /** The embedding model whose vector is in the index for this row, once indexed. */
    embeddingModel: text("embedding_model"),
    /** How often this memory was re-asked (a near-duplicate question) or recalled into a context block. */
    recallCount: integer("recall_count").notNull().default(0),
    lastRecalledAt: integer("last_recalled_at"),
  },
  (t) => [
    uniqueIndex("memories_id_idx").on(t.id),
    index("memories_scope_idx").on(t.tenantId, t.scope, t.createdAt),
    index("memories_index_state_idx").on(t.indexState, t.seq),
  ],
);

/**
 * The exact vector index: one float32 vector per (tenant, collection, id), with the model that
 * made it. Used locally, in tests and by small deployments; Vectorize replaces it in production.
 */
export const vectors = sqliteTable(
  "vectors",
  {
    tenantId: text("tenant_id").notNull(),
    collection: text("collection").notNull(),
    id: text("id").notNull(),
    model: text("model").notNull(),
    dimensions: integer("dimensions").notNull(),
    vector: blob("vector", { mode: "buffer" }).$type<ArrayBuffer>().notNull(),
    /** Flat metadata used by query filters (equality only), as JSON. */
    metadata: text("metadata", { mode: "json" }).$type<Record<string, string | number | boolean>>().notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.collection, t.id] }),
    index("vectors_model_idx").on(t.tenantId, t.collection, t.model),
  ],
);

export const cardKinds = ["fact", "preference", "event", "profile", "relationship", "goal"] as const;
export const versionRelations = ["sets", "updates", "extends", "retracts"] as const;

/**
 * Memory cards (seed 003): entity/slot/value triples extracted from memories. For a
 * single-valued slot the current card is the one with `superseded_at` NULL (newest by the source
 * memory's date wins); multi-valued slots (likes) keep every value current.
 */
export const memoryCards = sqliteTable(
  "memory_cards",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    scope: text("scope").notNull(),
    kind: text("kind", { enum: cardKinds }).notNull(),
    entity: text("entity").notNull(),
    slot: text("slot").notNull(),
    value: text("value").notNull(),
    polarity: text("polarity", { enum: ["positive", "negative"] }),
    confidence: real("confidence").notNull(),
    /** "entity:slot": the versioning group. */
    versionKey: text("version_key").notNull(),
    versionRelation: text("version_relation", { enum: versionRelations }).notNull(),
    sourceMemoryId: text("source_memory_id").notNull(),
    /** When the fact was stated: the source memory's creation time. */
    createdAt: integer("created_at").notNull(),
    supersededAt: integer("superseded_at"),
  },
  (t) => [
    index("memory_cards_lookup_idx").on(t.tenantId, t.scope, t.entity, t.slot),
    index("memory_cards_source_idx").on(t.sourceMemoryId),
  ],
);

export type MemoryCard = typeof memoryCards.$inferSelect;

/**
 * One row per show, for listing shows (GET /v1/shows): written by the show routes after each
 * change and by the daily retention cron, which also deletes rows idle for 30 days. The show's
 * questions themselves live in its ShowMemory Durable Object.
 */
export const showArchive = sqliteTable(
  "show_archive",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    showId: text("show_id").notNull(),
    startedAt: integer("started_at"),
    lastActivityAt: integer("last_activity_at").notNull(),
    endedAt: integer("ended_at"),
    questionCount: integer("question_count").notNull().default(0),
    usedCount: integer("used_count").notNull().default(0),
    averageNovelty: real("average_novelty"),
    /** When this row was last written (route or cron). */
    archivedAt: integer("archived_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.showId] }), index("show_archive_activity_idx").on(t.lastActivityAt)],
);

/** Files a session touched (seed 001, part B): enrichment appends the most recent ones' names to a query. */
export const sessionFiles = sqliteTable(
  "session_files",
  {
    tenantId: text("tenant_id").notNull(),
    sessionId: text("session_id").notNull(),
    path: text("path").notNull(),
    /** Where in the session the file was mentioned (a transcript line); larger is more recent. */
    lineIndex: integer("line_index").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("session_files_recent_idx").on(t.tenantId, t.sessionId, t.lineIndex)],
);

/** Per-tenant, per-day counters (GET /v1/admin/metrics): count and sum, so means can be derived. */
export const metricCounters = sqliteTable(
  "metric_counters",
  {
    tenantId: text("tenant_id").notNull(),
    day: text("day").notNull(),
    name: text("name").notNull(),
    count: integer("count").notNull().default(0),
    sum: real("sum").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.name] })],
);

/** Latency samples for percentiles; the daily cron keeps the last 7 days. */
export const latencySamples = sqliteTable(
  "latency_samples",
  {
    tenantId: text("tenant_id").notNull(),
    name: text("name").notNull(),
    ms: real("ms").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("latency_samples_idx").on(t.tenantId, t.name, t.at)],
);

/**
 * A version per (tenant, collection) of the exact vector index, bumped in the same batch as every
 * write, so an isolate's in-memory copy of the vectors knows when it is stale. `epoch` is random
 * per row, so a recreated database never matches an old copy.
 */
export const vectorCollections = sqliteTable(
  "vector_collections",
  {
    tenantId: text("tenant_id").notNull(),
    collection: text("collection").notNull(),
    epoch: text("epoch").notNull(),
    counter: integer("counter").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.collection] })],
);

/* ----------------------------------------------------------------------------------------------
 * FAQ knowledge base (seed 002 §7). FTS5 tables (faqs_fts, faq_variants_fts) are hand-written
 * migrations; their rowid is the `seq` of the row they index. Times are epoch milliseconds.
 */

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
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
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
    samples: text("samples", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    count: integer("count").notNull().default(1),
    status: text("status", { enum: faqSuggestionStatuses }).notNull().default("open"),
    firstSeenAt: integer("first_seen_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [uniqueIndex("faq_suggestions_cluster_idx").on(t.tenantId, t.clusterKey), index("faq_suggestions_list_idx").on(t.tenantId, t.status, t.count)],
);

/* ----------------------------------------------------------------------------------------------
 * Ticket-to-FAQ pipeline (seed 002 §5.2 Enhancement 3, §8.2): signed webhook intake → Queue →
 * decision → variant (direct) or staging (human review). Times are epoch milliseconds.
 */

/**
 * Per-tenant webhook signing secrets. HMAC needs the secret itself, so it is stored as is (it is
 * returned once, at creation, and never listed). A rotation gives the old secret an `expires_at`
 * (the overlap window); a secret with `expires_at` in the past no longer verifies.
 */
export const webhookSecrets = sqliteTable(
  "webhook_secrets",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    secret: text("secret").notNull(),
    /** The first characters, so a person can tell secrets apart in a listing. */
    secretPrefix: text("secret_prefix").notNull(),
    createdAt: integer("created_at").notNull(),
    /** null = active without end; set by a rotation (end of the overlap) or a revocation (now). */
    expiresAt: integer("expires_at"),
  },
  (t) => [index("webhook_secrets_tenant_idx").on(t.tenantId, t.createdAt)],
);

export const ticketStatuses = ["received", "decided", "dead_letter"] as const;
export type TicketStatus = (typeof ticketStatuses)[number];
export const ticketActions = ["SKIP", "ADD_VARIANT", "MERGE", "NEW"] as const;

/** One row per (tenant, ticket id): the idempotency key of the webhook and the decision's record. */
export const tickets = sqliteTable(
  "tickets",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    /** The sender's ticket id (idempotency key within the tenant). */
    ticketId: text("ticket_id").notNull(),
    subject: text("subject").notNull(),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    resolvedAt: integer("resolved_at").notNull(),
    source: text("source"),
    status: text("status", { enum: ticketStatuses }).notNull().default("received"),
    receivedAt: integer("received_at").notNull(),
    /** The cleaned question the decision compared (src/text/ticket-clean.ts). */
    cleanedQuestion: text("cleaned_question"),
    action: text("action", { enum: ticketActions }),
    /** Calibrated similarity (or lexical, see similarity_method) to the closest FAQ question or variant. */
    similarity: real("similarity"),
    similarityMethod: text("similarity_method", { enum: ["calibrated", "raw", "lexical"] }),
    matchedFaqId: text("matched_faq_id"),
    matchedVariantId: text("matched_variant_id"),
    judge: text("judge"),
    rationale: text("rationale"),
    /** The variant inserted (ADD_VARIANT, or MERGE on approval), the staging item (MERGE/NEW). */
    variantId: text("variant_id"),
    stagingId: text("staging_id"),
    decidedAt: integer("decided_at"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** A consumer holds the ticket until then (two deliveries never decide at once). */
    leaseUntil: integer("lease_until"),
  },
  (t) => [
    uniqueIndex("tickets_id_idx").on(t.id),
    uniqueIndex("tickets_tenant_ticket_idx").on(t.tenantId, t.ticketId),
    index("tickets_status_idx").on(t.tenantId, t.status, t.seq),
  ],
);

export const stagingStatuses = ["pending", "approved", "rejected"] as const;
export type StagingStatus = (typeof stagingStatuses)[number];

/** MERGE and NEW proposals waiting for a person (seed §6.1 staging table); one per ticket. */
export const stagingItems = sqliteTable(
  "staging_items",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    /** tickets.id (internal). */
    ticketRowId: text("ticket_row_id").notNull(),
    action: text("action", { enum: ["MERGE", "NEW"] }).notNull(),
    /** NEW: the proposed FAQ; MERGE: the FAQ's question and the suggested merged answer. */
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    /** MERGE: the FAQ to update. */
    faqId: text("faq_id"),
    /** MERGE: the ticket's question, added as a variant on approval. */
    variantText: text("variant_text"),
    similarity: real("similarity"),
    judge: text("judge"),
    rationale: text("rationale"),
    status: text("status", { enum: stagingStatuses }).notNull().default("pending"),
    createdAt: integer("created_at").notNull(),
    reviewedBy: text("reviewed_by"),
    reviewedAt: integer("reviewed_at"),
    rejectReason: text("reject_reason"),
    /** The FAQ created (NEW) or updated (MERGE) on approval. */
    resultFaqId: text("result_faq_id"),
  },
  (t) => [
    uniqueIndex("staging_items_id_idx").on(t.id),
    uniqueIndex("staging_items_ticket_idx").on(t.ticketRowId),
    index("staging_items_status_idx").on(t.tenantId, t.status, t.seq),
  ],
);
