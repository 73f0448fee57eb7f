/** Extracts cards for a tenant's existing memories, a page at a time (POST /v1/admin/cards/backfill). */
import { getTenantSettings } from "../settings/tenant";
import { extractCards } from "../../core/text/cards";
import { storeCards } from "./store";

/** Memories read per backfill call: bounded so one call stays well inside a Worker's limits. */
export const MAX_BACKFILL_BATCH = 500;

export interface BackfillPage {
  processed: number;
  cardsCreated: number;
  /** Pass back as `after` for the next page; null when every memory has been read. */
  nextCursor: number | null;
}

/**
 * Reads memories after `after` (their seq) in creation order, oldest first, so versioning sees
 * statements in the order they were made. Memories that already have cards are skipped, so
 * running a backfill twice creates nothing twice.
 */
export async function backfillCards(db: D1Database, tenantId: string, after: number, batchSize: number): Promise<BackfillPage> {
  const { results } = await db
    .prepare(
      `SELECT m.seq, m.id, m.scope, m.content, m.created_at FROM memories m
       WHERE m.tenant_id = ? AND m.seq > ? ORDER BY m.seq LIMIT ?`,
    )
    .bind(tenantId, after, batchSize)
    .all<{ seq: number; id: string; scope: string; content: string; created_at: number }>();
  // The backfill is the alternative to extraction on store, so only `enabled` and the threshold apply.
  const { cards: config } = await getTenantSettings(db, tenantId);
  let cardsCreated = 0;
  for (const row of config.enabled ? results : []) {
    const has = await db.prepare("SELECT 1 FROM memory_cards WHERE source_memory_id = ? LIMIT 1").bind(row.id).first();
    if (has) continue;
    const cards = extractCards(row.content).filter((card) => card.confidence >= config.confidenceThreshold);
    if (cards.length === 0) continue;
    cardsCreated += await storeCards(db, { tenantId, scope: row.scope, memoryId: row.id, createdAt: row.created_at }, cards);
  }
  const last = results[results.length - 1];
  return { processed: results.length, cardsCreated, nextCursor: results.length === batchSize && last ? last.seq : null };
}
