/**
 * The exact index's reads and writes of single rows of D1's `vectors` table: what it does when no
 * snapshot serves (a collection too large to cache, a new isolate's first answers) and how it
 * writes. Vectors are read as hex (load.ts, decodeVector).
 */
import { cosine } from "../../core/ranking/cosine";
import type { VectorMatch, VectorMetadata, VectorRecord } from "../../platform/ports/vector-index";
import { decodeVector } from "./load";

/** The cosine of `vector` to each of the ids' stored vectors (ids not stored are left out). */
export async function similaritiesFromRows(
  db: D1Database,
  tenantId: string,
  collection: string,
  model: string,
  vector: Float32Array,
  ids: readonly string[],
): Promise<Map<string, number>> {
  const scores = new Map<string, number>();
  // CROSS JOIN: one lookup by key per id (src/platform/db/by-ids.ts), not a scan of the collection.
  const { results } = await db
    .prepare(
      `SELECT v.id, hex(v.vector) AS vector FROM json_each(?4) AS j
       CROSS JOIN vectors AS v ON v.tenant_id = ?1 AND v.collection = ?2 AND v.id = j.value WHERE v.model = ?3`,
    )
    .bind(tenantId, collection, model, JSON.stringify(ids))
    .all<{ id: string; vector: string }>();
  for (const row of results) scores.set(row.id, cosine(vector, decodeVector(row.vector)));
  return scores;
}

/** The topK by cosine over every stored row the filter accepts, decoded one query at a time. */
export async function scanFromD1(
  db: D1Database,
  tenantId: string,
  collection: string,
  model: string,
  vector: Float32Array,
  topK: number,
  filter: VectorMetadata | undefined,
): Promise<VectorMatch[]> {
  const where = ["tenant_id = ?", "collection = ?", "model = ?"];
  const params: (string | number)[] = [tenantId, collection, model];
  for (const [key, value] of Object.entries(filter ?? {})) {
    where.push(`json_extract(metadata, '$.${key}') = ?`);
    params.push(typeof value === "boolean" ? Number(value) : value);
  }
  const { results } = await db
    .prepare(`SELECT id, hex(vector) AS vector FROM vectors WHERE ${where.join(" AND ")}`)
    .bind(...params)
    .all<{ id: string; vector: string }>();
  const matches = results.map((row) => ({ id: row.id, score: cosine(vector, decodeVector(row.vector)) }));
  return matches.sort((a, b) => b.score - a.score).slice(0, topK);
}

/**
 * Every rewrite of a row moves its updated_at forward, even within one millisecond or against a
 * slower clock: a snapshot base (src/adapters/vectors/load.ts) takes a row whose updated_at is unchanged
 * as unchanged.
 */
export function upsertStatement(db: D1Database, tenantId: string, collection: string, record: VectorRecord, now: number) {
  // Copy into a tight buffer: a Float32Array may be a view on a larger one.
  const blob = record.vector.slice().buffer;
  return db
    .prepare(
      `INSERT INTO vectors (tenant_id, collection, id, model, dimensions, vector, metadata, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, collection, id) DO UPDATE SET
         model = excluded.model, dimensions = excluded.dimensions, vector = excluded.vector,
         metadata = excluded.metadata, updated_at = max(excluded.updated_at, vectors.updated_at + 1)
       RETURNING updated_at`,
    )
    .bind(tenantId, collection, record.id, record.model, record.vector.length, blob, JSON.stringify(record.metadata), now);
}
