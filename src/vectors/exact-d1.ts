/**
 * Exact cosine scan over float32 vectors stored in D1 (table `vectors`). Every write is visible
 * to the next query, results are exact, and it needs nothing remote: the local default, the test
 * index, and fine for small deployments (see `npm run bench` for where it stops being fine).
 */
import { cosine } from "../ranking/cosine";
import { assertSameModel, type VectorIndex, type VectorMatch, VectorModelMismatch, type VectorRecord } from "./port";

/** D1 allows at most 100 bound parameters per statement. */
const ID_CHUNK = 90;
const METADATA_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export function exactD1Index(db: D1Database, model: string, dimensions: number): VectorIndex {
  return {
    kind: "d1-exact",
    maxTopK: 1000,
    async upsert(tenantId, collection, records) {
      if (records.length === 0) return;
      for (const record of records) assertSameModel(record, model, dimensions);
      const other = await db
        .prepare("SELECT model FROM vectors WHERE tenant_id = ? AND collection = ? AND model != ? LIMIT 1")
        .bind(tenantId, collection, model)
        .first<{ model: string }>();
      if (other) {
        throw new VectorModelMismatch(
          `collection ${collection} holds vectors of model ${other.model}; re-embed it before writing ${model} vectors`,
        );
      }
      const now = Date.now();
      await db.batch(records.map((r) => upsertStatement(db, tenantId, collection, r, now)));
    },
    async query(tenantId, collection, { vector, model: queryModel, topK, filter }) {
      assertSameModel({ model: queryModel, vector }, model, dimensions);
      const where = ["tenant_id = ?", "collection = ?", "model = ?"];
      const params: (string | number)[] = [tenantId, collection, model];
      for (const [key, value] of Object.entries(filter ?? {})) {
        if (!METADATA_KEY.test(key)) throw new Error(`invalid metadata filter key: ${key}`);
        where.push(`json_extract(metadata, '$.${key}') = ?`);
        params.push(typeof value === "boolean" ? Number(value) : value);
      }
      const { results } = await db
        .prepare(`SELECT id, vector FROM vectors WHERE ${where.join(" AND ")}`)
        .bind(...params)
        .all<{ id: string; vector: ArrayBuffer | number[] }>();
      const matches: VectorMatch[] = results.map((row) => ({ id: row.id, score: cosine(vector, decodeVector(row.vector)) }));
      return matches.sort((a, b) => b.score - a.score).slice(0, topK);
    },
    async similarities(tenantId, collection, { vector, model: queryModel }, ids) {
      assertSameModel({ model: queryModel, vector }, model, dimensions);
      const scores = new Map<string, number>();
      for (let i = 0; i < ids.length; i += ID_CHUNK) {
        const chunk = ids.slice(i, i + ID_CHUNK);
        const { results } = await db
          .prepare(
            `SELECT id, vector FROM vectors WHERE tenant_id = ? AND collection = ? AND model = ? AND id IN (${chunk.map(() => "?").join(",")})`,
          )
          .bind(tenantId, collection, model, ...chunk)
          .all<{ id: string; vector: ArrayBuffer | number[] }>();
        for (const row of results) scores.set(row.id, cosine(vector, decodeVector(row.vector)));
      }
      return scores;
    },
    async delete(tenantId, collection, ids) {
      for (let i = 0; i < ids.length; i += ID_CHUNK) {
        const chunk = ids.slice(i, i + ID_CHUNK);
        await db
          .prepare(`DELETE FROM vectors WHERE tenant_id = ? AND collection = ? AND id IN (${chunk.map(() => "?").join(",")})`)
          .bind(tenantId, collection, ...chunk)
          .run();
      }
    },
  };
}

function upsertStatement(db: D1Database, tenantId: string, collection: string, record: VectorRecord, now: number) {
  // Copy into a tight buffer: a Float32Array may be a view on a larger one.
  const blob = record.vector.slice().buffer;
  return db
    .prepare(
      `INSERT INTO vectors (tenant_id, collection, id, model, dimensions, vector, metadata, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, collection, id) DO UPDATE SET
         model = excluded.model, dimensions = excluded.dimensions, vector = excluded.vector,
         metadata = excluded.metadata, updated_at = excluded.updated_at`,
    )
    .bind(tenantId, collection, record.id, record.model, record.vector.length, blob, JSON.stringify(record.metadata), now);
}

/** D1 returns a BLOB as an array of byte values (an ArrayBuffer in some runtimes). */
function decodeVector(blob: ArrayBuffer | number[]): Float32Array {
  return new Float32Array(Array.isArray(blob) ? new Uint8Array(blob).buffer : blob);
}
