/**
 * VECTOR_INDEX=auto, production's default: each collection (tenant + kind, e.g. `t_1` +
 * `memories`) is read from the exact index while it is small and from Vectorize once it is large,
 * switched by its size. Below the crossover the exact scan answers in a millisecond or two, sees
 * every write at once and costs no Vectorize query; above it, one isolate cannot hold the
 * collection and Vectorize takes over (docs/design/exact-index.md#where-it-stops).
 *
 * Writes keep both in step, D1 first:
 * 1. the exact index (D1): always. It is the truth, what a small collection is read from, and
 *    where a large collection's similarities of given ids are read (one query by key);
 * 2. Vectorize: always, so a collection that grows past the crossover is already all there;
 * 3. the read-your-writes buffer (src/adapters/vectors/read-your-writes.ts): once the collection is within
 *    BUFFER_FROM of the crossover (or `partial`, below), so that its writes are still found during Vectorize's seconds of
 *    lag after the switch. Far below it, reads come from the exact index and the buffer would be
 *    a D1 write for nothing.
 * A write that fails part-way throws: the outbox keeps the row pending and the cron writes it
 * again, every step of which is an idempotent upsert.
 *
 * The size comes from the row the exact index reads anyway to check its snapshot's version
 * (vector_collections.size, kept by triggers), so routing costs no extra round trip. A collection
 * written under VECTOR_INDEX=vectorize before (`partial`: D1 holds only its recent buffer) stays
 * on Vectorize whatever its size, as it was: the exact index would miss its older vectors.
 */
import { ConfigError } from "../../platform/observe/config-error";
import { type CollectionState, type ExactIndex, vectorsWithin } from "./exact-d1";
import type { VectorIndex, VectorRouting } from "../../platform/ports/vector-index";
import { RECENT_SUFFIX, withReadYourWrites } from "./read-your-writes";

/**
 * The crossover when VECTOR_EXACT_MAX is unset: the scan's p95 stays under 20 ms to 100,000 vectors
 * (`npm run bench -- vector`), so memory decides first: exactMaxFor caps it at what one isolate's
 * snapshot budget holds (21,255 vectors of 512 dimensions, 11,234 of 1024).
 */
export const DEFAULT_EXACT_MAX = 49_152;

/** Where a collection is read: the exact index, or Vectorize (large, or `partial`: written under VECTOR_INDEX=vectorize). */
type Route = "small" | "large" | "partial";

/** Writes to a collection above this share of the crossover also go to the read-your-writes buffer. */
export const BUFFER_FROM = 0.9;

/**
 * The largest collection read from the exact index: VECTOR_EXACT_MAX, but never more vectors than
 * one isolate's snapshot budget (`cacheBytes`) holds at these dimensions (11,234 at bge-m3's
 * 1024): a collection past the budget would be read from D1 on every query.
 */
export function exactMaxFor(
  configured: string | undefined,
  dimensions: number,
  cacheBytes: number,
): { configured: number; effective: number } {
  const value = configured === undefined || configured.trim() === "" ? DEFAULT_EXACT_MAX : Number(configured);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ConfigError(`VECTOR_EXACT_MAX must be a whole number of vectors, got "${configured}"`);
  }
  return { configured: value, effective: Math.min(value, vectorsWithin(cacheBytes, dimensions)) };
}

export function autoIndex(exact: ExactIndex, vectorize: VectorIndex, limits: { configured: number; effective: number }): VectorIndex {
  const exactMax = limits.effective;
  const large = withReadYourWrites(vectorize, exact);
  const buffer = (collection: string) => collection + RECENT_SUFFIX;
  /** A read's route; the buffer's version comes in the same round trip, for the Vectorize path's query. */
  const routeOf = async (tenantId: string, collection: string) =>
    route((await exact.states(tenantId, [collection, buffer(collection)]))[0]!);
  const route = ({ size, partial }: CollectionState): Route => (partial ? "partial" : size > exactMax ? "large" : "small");
  const routing: VectorRouting = {
    rule: `a collection of at most ${exactMax} vectors is read from ${exact.kind}, a larger one (or one written under VECTOR_INDEX=vectorize) from ${large.kind}`,
    exactMax,
    configuredExactMax: limits.configured,
    small: exact.kind,
    large: large.kind,
  };

  return {
    kind: "auto",
    // The exact index's: a small collection answers the whole window; Vectorize caps a large one's at its own limit.
    maxTopK: exact.maxTopK,
    routing,
    async upsert(tenantId, collection, records) {
      if (records.length === 0) return;
      await exact.upsert(tenantId, collection, records);
      await vectorize.upsert(tenantId, collection, records);
      // The exact index's own write answered its state: no round trip.
      const [state] = await exact.states(tenantId, [collection]);
      if (state!.partial || state!.size > exactMax * BUFFER_FROM) await exact.upsert(tenantId, buffer(collection), records);
    },
    async query(tenantId, collection, query) {
      return (await routeOf(tenantId, collection)) === "small"
        ? exact.query(tenantId, collection, query)
        : large.query(tenantId, collection, query);
    },
    async similarities(tenantId, collection, query, ids) {
      switch (await routeOf(tenantId, collection)) {
        case "small":
          return exact.similarities(tenantId, collection, query, ids);
        case "large":
          // Its vectors are all in D1 too: one query by key, exact and current, where Vectorize
          // would take a getByIds per 20 ids.
          return exact.storedSimilarities(tenantId, collection, query, ids);
        case "partial":
          return large.similarities(tenantId, collection, query, ids);
      }
    },
    async delete(tenantId, collection, ids) {
      await exact.delete(tenantId, collection, ids);
      await large.delete(tenantId, collection, ids);
    },
    prefetch(tenantId, collections) {
      // One round trip for every size (and buffer version), then each collection's own set-up:
      // a small one's snapshot load, a large one's buffer. A large collection's snapshot is never loaded.
      exact
        .states(tenantId, [...collections, ...collections.map(buffer)])
        .then((states) => {
          const small = collections.filter((_, i) => route(states[i]!) === "small");
          const other = collections.filter((_, i) => route(states[i]!) !== "small");
          if (small.length > 0) exact.prefetch?.(tenantId, small);
          if (other.length > 0) exact.prefetch?.(tenantId, other.map(buffer));
        })
        .catch(() => {}); // the query that needs the size surfaces the error
    },
  };
}
