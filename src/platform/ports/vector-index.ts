/**
 * The VectorIndex port. Vectors live per tenant and collection ("memories", "faqs", …); a
 * filter narrows a query by equality on flat metadata. An index is bound to one embedding
 * model: a vector of another model or dimension is refused (VectorModelMismatch), because
 * cosine between two models' vectors means nothing.
 */
export type VectorMetadata = Record<string, string | number | boolean>;

export interface VectorRecord {
  id: string;
  vector: Float32Array;
  /** The model that made `vector`. */
  model: string;
  metadata: VectorMetadata;
}

export interface VectorMatch {
  id: string;
  /** Cosine similarity, -1..1. */
  score: number;
}

export interface VectorQuery {
  vector: Float32Array;
  model: string;
  topK: number;
  filter?: VectorMetadata;
}

/** How an index that chooses per collection (VECTOR_INDEX=auto, src/adapters/vectors/auto.ts) chooses, for /healthz. */
export interface VectorRouting {
  /** The rule in words. */
  rule: string;
  /** The largest collection read from the `small` index. */
  exactMax: number;
  /** VECTOR_EXACT_MAX as set (exactMax is lower when one isolate cannot hold that many vectors). */
  configuredExactMax: number;
  small: string;
  large: string;
}

export interface VectorIndex {
  /** Which adapter this is ("vectorize+recent", "d1-exact", "auto"), for /healthz. */
  readonly kind: string;
  /** Set by an index that chooses per collection. */
  readonly routing?: VectorRouting;
  /** Largest topK one query may ask for. */
  readonly maxTopK: number;
  upsert(tenantId: string, collection: string, records: readonly VectorRecord[]): Promise<void>;
  query(tenantId: string, collection: string, query: VectorQuery): Promise<VectorMatch[]>;
  /**
   * Cosine of the query to each of the given ids that has a vector (ids without one are absent):
   * scores lexical candidates that the nearest-neighbour list did not reach.
   */
  similarities(
    tenantId: string,
    collection: string,
    query: Omit<VectorQuery, "topK" | "filter">,
    ids: readonly string[],
  ): Promise<Map<string, number>>;
  delete(tenantId: string, collection: string, ids: readonly string[]): Promise<void>;
  /**
   * A hint that this request will query these collections: an index with per-request set-up
   * (the exact index's version check and snapshot load) starts it now, so it overlaps the
   * query's embedding. Never throws; optional.
   */
  prefetch?(tenantId: string, collections: readonly string[]): void;
}

export class VectorModelMismatch extends Error {
  override name = "VectorModelMismatch";
}

/** Refuses a vector that does not belong in an index of (model, dimensions). */
export function assertSameModel(record: { model: string; vector: Float32Array }, model: string, dimensions: number): void {
  if (record.model !== model) {
    throw new VectorModelMismatch(`vector of model ${record.model} refused by an index of model ${model}; re-embed instead`);
  }
  if (record.vector.length !== dimensions) {
    throw new VectorModelMismatch(`vector of ${record.vector.length} dimensions refused by a ${dimensions}-d index`);
  }
}
