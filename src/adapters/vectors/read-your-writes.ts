/**
 * Read-your-writes over an eventually consistent index (Vectorize shows a new vector only after
 * seconds). Every upsert also lands in a short-lived buffer — the exact D1 index, under the
 * collection name + RECENT_SUFFIX — and every query merges an exact scan of that buffer, so a
 * question recorded a moment ago is found by the very next call. The cron empties the buffer of
 * entries older than RECENT_WINDOW_MS (pruneRecentVectors).
 */
import type { VectorIndex, VectorMatch } from "../../platform/ports/vector-index";

export const RECENT_SUFFIX = "#recent";
/** How long a write stays in the buffer: well past Vectorize's few seconds of lag. */
export const RECENT_WINDOW_MS = 10 * 60 * 1000;

export function withReadYourWrites(primary: VectorIndex, recent: VectorIndex): VectorIndex {
  const buffer = (collection: string) => collection + RECENT_SUFFIX;
  return {
    kind: `${primary.kind}+recent`,
    maxTopK: primary.maxTopK,
    async upsert(tenantId, collection, records) {
      await primary.upsert(tenantId, collection, records);
      await recent.upsert(tenantId, buffer(collection), records);
    },
    async query(tenantId, collection, query) {
      const [older, newer] = await Promise.all([
        primary.query(tenantId, collection, query),
        recent.query(tenantId, buffer(collection), query),
      ]);
      return mergeMatches(older, newer).slice(0, query.topK);
    },
    async similarities(tenantId, collection, query, ids) {
      const [older, newer] = await Promise.all([
        primary.similarities(tenantId, collection, query, ids),
        recent.similarities(tenantId, buffer(collection), query, ids),
      ]);
      return new Map([...older, ...newer]);
    },
    prefetch(tenantId, collections) {
      primary.prefetch?.(tenantId, collections);
      recent.prefetch?.(tenantId, collections.map(buffer));
    },
    async delete(tenantId, collection, ids) {
      await Promise.all([primary.delete(tenantId, collection, ids), recent.delete(tenantId, buffer(collection), ids)]);
    },
  };
}

function mergeMatches(a: readonly VectorMatch[], b: readonly VectorMatch[]): VectorMatch[] {
  const best = new Map<string, number>();
  for (const m of [...a, ...b]) best.set(m.id, Math.max(best.get(m.id) ?? Number.NEGATIVE_INFINITY, m.score));
  return [...best].map(([id, score]) => ({ id, score })).sort((x, y) => y.score - x.score);
}

/** Cron: forget buffered vectors older than the window (they are in the primary index by now). */
export async function pruneRecentVectors(db: D1Database, now: number): Promise<{ pruned: number }> {
  const [deleted] = await db.batch([
    db.prepare("DELETE FROM vectors WHERE collection LIKE ? AND updated_at < ?").bind(`%${RECENT_SUFFIX}`, now - RECENT_WINDOW_MS),
    // Tell the isolates' cached copies of these buffers that they changed (src/adapters/vectors/exact-d1.ts).
    db.prepare("UPDATE vector_collections SET counter = counter + 1 WHERE collection LIKE ?").bind(`%${RECENT_SUFFIX}`),
  ]);
  return { pruned: deleted?.meta.changes ?? 0 };
}
