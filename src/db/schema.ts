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
