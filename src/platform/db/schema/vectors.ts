/** The exact vector index (src/adapters/vectors/exact-d1.ts): vectors and a version per collection. */
import { blob, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
  (t) => [primaryKey({ columns: [t.tenantId, t.collection, t.id] }), index("vectors_model_idx").on(t.tenantId, t.collection, t.model)],
);

/**
 * A version per (tenant, collection) of the exact vector index, bumped in the same batch as every
 * write, so an isolate's in-memory copy of the vectors knows when it is stale. `epoch` is random
 * per row, so a recreated database never matches an old copy. `size` (the collection's number of
 * vectors, kept by triggers on `vectors`) and `partial` come with the version: VECTOR_INDEX=auto
 * chooses the exact index or Vectorize by them (src/adapters/vectors/auto.ts).
 */
export const vectorCollections = sqliteTable(
  "vector_collections",
  {
    tenantId: text("tenant_id").notNull(),
    collection: text("collection").notNull(),
    epoch: text("epoch").notNull(),
    counter: integer("counter").notNull(),
    size: integer("size").notNull().default(0),
    /**
     * 1: D1 lacks some of the collection's vectors, because they were written under
     * VECTOR_INDEX=vectorize (which keeps only a short buffer in D1). Such a collection is read
     * from Vectorize whatever its size. Set by migrations/0014 and its trigger.
     */
    partial: integer("partial").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.collection] })],
);
