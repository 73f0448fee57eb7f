/**
 * Vectorize behind deadlines (src/platform/deadlines/breaker.ts). Every caller already takes an index
 * failure as the index being down: a search goes on by keywords and says `vector_index` in
 * `degraded`, a write's vector stays pending in the outbox and the cron writes it again.
 */
import type { VectorIndex } from "../ports/vector-index";
import { withDeadline } from "./breaker";

/**
 * A request's query to Vectorize (tens of ms when well): with the embedding model's 1 s, a request
 * with both hung still answers in ~1.5 s.
 */
export const REQUEST_VECTOR_DEADLINE_MS = 500;
/** A job's (the cron's re-index, the ticket consumer's): nobody waits, but a hung index must not hold the job. */
export const JOB_VECTOR_DEADLINE_MS = 15_000;
/** Writes (upserts and deletes, after the commit) get this many times a read's deadline: a batch of 64 vectors is slow, not hung. */
const WRITE_DEADLINE_FACTOR = 4;

export function deadlineVectorIndex(inner: VectorIndex, { ms, breakerKey }: { ms: number; breakerKey: string }): VectorIndex {
  const read = { ms, breakerKey, part: "the vector index" };
  const write = { ...read, ms: ms * WRITE_DEADLINE_FACTOR };
  return {
    kind: inner.kind,
    ...(inner.routing ? { routing: inner.routing } : {}),
    maxTopK: inner.maxTopK,
    query: (tenantId, collection, query) => withDeadline(() => inner.query(tenantId, collection, query), read),
    similarities: (tenantId, collection, query, ids) => withDeadline(() => inner.similarities(tenantId, collection, query, ids), read),
    upsert: (tenantId, collection, records) => withDeadline(() => inner.upsert(tenantId, collection, records), write),
    delete: (tenantId, collection, ids) => withDeadline(() => inner.delete(tenantId, collection, ids), write),
    ...(inner.prefetch ? { prefetch: inner.prefetch.bind(inner) } : {}),
  };
}
