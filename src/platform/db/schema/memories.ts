/** Memories, their cards, the files a session touched, and recall metrics. */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenants, indexStates } from "./core";

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
    tags: text("tags", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
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
    /** The memory whose statement ended this card (a newer value, a retraction, the opposite preference). */
    supersededBy: text("superseded_by"),
    /** Seed 003: when the fact became true, if the statement says ("in 2021"); ms UTC. */
    eventDate: integer("event_date"),
    /** Seed 003: when it was recorded (the source memory's creation time). */
    documentDate: integer("document_date"),
    /** Seed 003: what the rule saw besides the value (temporal cue, device kind), JSON. */
    extra: text("extra", { mode: "json" }).$type<Record<string, string>>(),
  },
  (t) => [
    index("memory_cards_lookup_idx").on(t.tenantId, t.scope, t.entity, t.slot),
    index("memory_cards_source_idx").on(t.sourceMemoryId),
  ],
);

export type MemoryCard = typeof memoryCards.$inferSelect;

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
