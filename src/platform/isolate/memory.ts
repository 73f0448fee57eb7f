/**
 * One Worker isolate has 128 MB for everything: the code and its tables, the requests in flight,
 * and the caches it keeps between requests. Every cache that grows with data is bounded in bytes,
 * sized for production's embeddings (bge-m3, 1024 dimensions), and together they hold at most
 * CACHED_BYTES, leaving the rest to the code and the requests. `npm run bench -- memory` measures
 * the heap against these figures (docs/design/isolate-memory.md).
 */
export const MiB = 1024 * 1024;

/** A Worker isolate's memory limit (developers.cloudflare.com/workers/platform/limits/#memory). */
export const ISOLATE_BYTES = 128 * MiB;

/**
 * What each cache may hold, in bytes of heap and WebAssembly memory:
 * - `vectorSnapshots`: the exact index's decoded collections (src/adapters/vectors/exact-d1.ts): 11,900
 *   vectors of 1024 dimensions, or 23,500 of 512;
 * - `faqRows`: the FAQ and variant rows searches rank from (src/features/faqs/row-cache.ts);
 * - `recentEmbeddings`: query vectors (src/adapters/embeddings/cached.ts): 1,000 of 1024 dimensions.
 * The small per-key caches (API keys, key labels, calibration scales) are bounded by count, and
 * hold well under a megabyte together.
 */
export const CACHE_BUDGET = {
  vectorSnapshots: 48 * MiB,
  faqRows: 24 * MiB,
  recentEmbeddings: 4 * MiB,
} as const;

export const CACHED_BYTES = Object.values(CACHE_BUDGET).reduce((sum, bytes) => sum + bytes, 0);

/** V8's heap cost of an object's header and of each property's slot. */
const OBJECT_BYTES = 32;
const FIELD_BYTES = 16;

/**
 * About the bytes a flat row (strings, numbers, booleans, null) takes in V8's heap, counting two
 * bytes a character: V8 keeps Latin-1 text in one byte, any other in two, so this is an upper bound.
 */
export function approxBytes(row: object): number {
  let bytes = OBJECT_BYTES;
  for (const value of Object.values(row)) bytes += FIELD_BYTES + (typeof value === "string" ? 2 * value.length : 0);
  return bytes;
}
