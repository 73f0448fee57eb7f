/** Moves memories through the vector outbox (see src/indexing/outbox.ts). */
import type { IndexState } from "../db/schema";
import { indexRows } from "../indexing/outbox";
import type { Services } from "../services";
import type { MemoryRow } from "./store";

export const MEMORY_COLLECTION = "memories";
/** Rows the cron re-indexes per run: one embedding batch, bounded so a run stays short. */
export const REINDEX_BATCH_SIZE = 64;
/** After this many failed attempts a row is marked 'failed' (still searchable lexically) and left for an operator. */
export const MAX_INDEX_ATTEMPTS = 10;

type IndexableRow = Pick<MemoryRow, "id" | "tenant_id" | "scope" | "content" | "memory_type">;

/** Indexes the rows and records each outcome on its row; returns the new states, in order. */
export async function indexMemories(services: Services, rows: readonly IndexableRow[]): Promise<IndexState[]> {
  const outcomes = await indexRows(
    services,
    MEMORY_COLLECTION,
    rows.map((r) => ({
      id: r.id,
      tenantId: r.tenant_id,
      text: r.content,
      metadata: { scope: r.scope, memoryType: r.memory_type },
    })),
  );
  const { db, clock } = services;
  const now = clock.now();
  const states: IndexState[] = [];
  const statements = rows.map((row) => {
    const outcome = outcomes.get(row.id);
    if (outcome?.ok) {
      states.push("indexed");
      return db
        .prepare(
          "UPDATE memories SET index_state = 'indexed', embedding_model = ?, index_error = NULL, updated_at = ? WHERE id = ?",
        )
        .bind(outcome.model, now, row.id);
    }
    states.push("pending");
    return db
      .prepare(
        `UPDATE memories SET index_attempts = index_attempts + 1, index_error = ?, updated_at = ?,
           index_state = CASE WHEN index_attempts + 1 >= ? THEN 'failed' ELSE index_state END
         WHERE id = ? AND index_state = 'pending'`,
      )
      .bind(outcome?.ok === false ? outcome.error : "not indexed", now, MAX_INDEX_ATTEMPTS, row.id);
  });
  if (statements.length > 0) await db.batch(statements);
  return states;
}

/** One cron step: index the oldest pending memories of every tenant. */
export async function reindexPendingMemories(services: Services, batchSize = REINDEX_BATCH_SIZE) {
  const { results } = await services.db
    .prepare("SELECT id, tenant_id, scope, content, memory_type FROM memories WHERE index_state = 'pending' ORDER BY seq LIMIT ?")
    .bind(batchSize)
    .all<IndexableRow>();
  const states = await indexMemories(services, results);
  return { attempted: results.length, indexed: states.filter((s) => s === "indexed").length };
}
