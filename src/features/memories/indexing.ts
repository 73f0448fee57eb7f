/** Moves memories through the vector outbox (see src/features/indexing/outbox.ts). */
import type { IndexState, MemoryType } from "../../platform/db/schema";
import { indexRows, REINDEX_BATCH_SIZE, recordIndexOutcomes } from "../indexing/outbox";
import type { Services } from "../../platform/ports/services";

export const MEMORY_COLLECTION = "memories";

/** The columns indexing reads: store.ts passes whole MemoryRows, and store.ts imports this module. */
interface IndexableRow {
  id: string;
  tenant_id: string;
  scope: string;
  content: string;
  memory_type: MemoryType;
}

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
  return recordIndexOutcomes(
    services.db,
    "memories",
    rows.map((r) => r.id),
    outcomes,
  );
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
