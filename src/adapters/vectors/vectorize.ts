/**
 * Vectorize adapter (production; remote-only). One namespace per tenant and collection, so a
 * query can never reach another tenant's vectors. The model is stored in metadata and every
 * query filters on it, so vectors of an old model are never compared with new ones. Vectorize
 * applies writes asynchronously (seconds); callers that need read-your-writes merge a scan of
 * their still-pending rows.
 *
 * Metadata fields used in filters need metadata indexes (docs/guides/deploy.md; `npm run setup:cloudflare` creates them).
 */
import { cosine } from "../../core/ranking/cosine";
import { assertSameModel, type VectorIndex, type VectorMetadata } from "../../platform/ports/vector-index";

/** Vectorize's limit for topK when metadata is returned; we never ask for values. */
const VECTORIZE_MAX_TOP_K = 100;
/** Vectorize accepts at most 1000 vectors per upsert and 1000 ids per delete. */
const VECTORIZE_MAX_BATCH = 1000;
/** getByIds returns values and metadata: keep each call small. */
const VECTORIZE_MAX_GET = 20;

export interface VectorizeBinding {
  upsert(vectors: { id: string; values: Float32Array; namespace?: string; metadata?: VectorMetadata }[]): Promise<unknown>;
  query(
    vector: Float32Array,
    options: { topK: number; namespace?: string; filter?: VectorMetadata; returnMetadata?: "none" | "indexed" | "all" },
  ): Promise<{ matches: { id: string; score: number }[] }>;
  deleteByIds(ids: string[]): Promise<unknown>;
  getByIds(ids: string[]): Promise<{ id: string; values: ArrayLike<number>; namespace?: string; metadata?: Record<string, unknown> }[]>;
}

/** Namespaces are at most 64 bytes; tenant ids and collection names are short by construction. */
export function vectorizeNamespace(tenantId: string, collection: string): string {
  return `${tenantId}:${collection}`;
}

export function vectorizeIndex(binding: VectorizeBinding, model: string, dimensions: number): VectorIndex {
  return {
    kind: "vectorize",
    maxTopK: VECTORIZE_MAX_TOP_K,
    async upsert(tenantId, collection, records) {
      for (const record of records) assertSameModel(record, model, dimensions);
      const namespace = vectorizeNamespace(tenantId, collection);
      for (let i = 0; i < records.length; i += VECTORIZE_MAX_BATCH) {
        await binding.upsert(
          records.slice(i, i + VECTORIZE_MAX_BATCH).map((r) => ({
            id: r.id,
            values: r.vector,
            namespace,
            metadata: { ...r.metadata, model: r.model },
          })),
        );
      }
    },
    async query(tenantId, collection, { vector, model: queryModel, topK, filter }) {
      assertSameModel({ model: queryModel, vector }, model, dimensions);
      const { matches } = await binding.query(vector, {
        topK: Math.min(topK, VECTORIZE_MAX_TOP_K),
        namespace: vectorizeNamespace(tenantId, collection),
        filter: { ...filter, model },
        returnMetadata: "none",
      });
      return matches.map((m) => ({ id: m.id, score: m.score }));
    },
    async similarities(tenantId, collection, { vector, model: queryModel }, ids) {
      assertSameModel({ model: queryModel, vector }, model, dimensions);
      const namespace = vectorizeNamespace(tenantId, collection);
      const scores = new Map<string, number>();
      // The chunks at once: one round trip of waiting, not one per 20 ids (a context search asks up to 60).
      const chunks: string[][] = [];
      for (let i = 0; i < ids.length; i += VECTORIZE_MAX_GET) chunks.push(ids.slice(i, i + VECTORIZE_MAX_GET) as string[]);
      for (const found of (await Promise.all(chunks.map((chunk) => binding.getByIds(chunk)))).flat()) {
        // getByIds is not namespaced: skip another tenant's (or an old model's) vector of the same id.
        if (found.namespace !== namespace || found.metadata?.model !== model) continue;
        scores.set(found.id, cosine(vector, found.values));
      }
      return scores;
    },
    async delete(_tenantId, _collection, ids) {
      // Vector ids are globally unique (prefixed random ids), so deleting by id cannot touch
      // another tenant's vectors.
      for (let i = 0; i < ids.length; i += VECTORIZE_MAX_BATCH) {
        await binding.deleteByIds(ids.slice(i, i + VECTORIZE_MAX_BATCH) as string[]);
      }
    },
  };
}
