/**
 * Re-embedding after a change of embedding model (EMBEDDING_MODEL). Vectors of two models cannot
 * share an index, so every row whose vector was made by another model is put back in the outbox
 * (index_state 'pending', attempts reset) and its old vector is removed; the every-5-minutes cron
 * then embeds and indexes those rows with the active model, a batch per run. Rows are marked in
 * D1 before any vector is touched, so a failure half-way loses nothing, and running it again
 * picks up whatever is still on the old model.
 */
import { FAQ_COLLECTION, FAQ_VARIANT_COLLECTION } from "../faqs/indexing";
import { MEMORY_COLLECTION } from "../memories/indexing";
import type { Services } from "../services";
import type { OutboxTable } from "./outbox";

/** The outbox tables and the collection each one's vectors live in. */
const INDEXED_TABLES: readonly { table: OutboxTable; collection: string }[] = [
  { table: "memories", collection: MEMORY_COLLECTION },
  { table: "faqs", collection: FAQ_COLLECTION },
  { table: "faq_variants", collection: FAQ_VARIANT_COLLECTION },
];

/** Rows marked per statement (an id list is bound in chunks below D1's parameter limit). */
const PAGE = 90;

export async function reembedTenant(services: Services, tenantId: string): Promise<{ model: string; marked: Record<string, number> }> {
  const { db, vectors, embedder } = services;
  const marked: Record<string, number> = {};
  for (const { table, collection } of INDEXED_TABLES) {
    marked[table] = 0;
    for (let after = 0; ;) {
      const { results } = await db
        .prepare(
          `SELECT seq, id FROM ${table}
           WHERE tenant_id = ? AND embedding_model IS NOT NULL AND embedding_model != ? AND seq > ?
           ORDER BY seq LIMIT ?`,
        )
        .bind(tenantId, embedder.model, after, PAGE)
        .all<{ seq: number; id: string }>();
      if (results.length === 0) break;
      const ids = results.map((r) => r.id);
      await db
        .prepare(
          `UPDATE ${table} SET index_state = 'pending', index_attempts = 0, index_error = NULL
           WHERE tenant_id = ? AND id IN (${ids.map(() => "?").join(",")})`,
        )
        .bind(tenantId, ...ids)
        .run();
      await vectors.delete(tenantId, collection, ids);
      marked[table] += ids.length;
      after = results[results.length - 1]!.seq;
    }
  }
  return { model: embedder.model, marked };
}
