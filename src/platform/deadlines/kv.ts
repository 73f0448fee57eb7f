/**
 * KV behind deadlines (src/platform/deadlines/breaker.ts). Recall keeps caches in KV (vectors of texts,
 * query expansions, snapshot bases, judge verdicts), and every cache read already takes a failure
 * as a miss, so a stalled KV costs a request its deadline once and then nothing while it is
 * skipped. The few reads that are not a cache's (a /ui session's sign-out) fail with a 503.
 */
import { withDeadline } from "./breaker";

/** A request's KV read (a few ms when well, up to ~100 ms for a cold key far away). */
export const REQUEST_KV_DEADLINE_MS = 300;
/** A job's: nobody waits, but a stalled KV must not hold the job. */
export const JOB_KV_DEADLINE_MS = 10_000;
/** Writes (a snapshot base's pages of 256 vectors) get this many times a read's deadline. */
const WRITE_DEADLINE_FACTOR = 5;

const READS = new Set<PropertyKey>(["get", "getWithMetadata", "list"]);
const WRITES = new Set<PropertyKey>(["put", "delete"]);

export function deadlineKv(kv: KVNamespace, { ms, breakerKey }: { ms: number; breakerKey: string }): KVNamespace {
  const read = { ms, breakerKey, part: "KV" };
  const write = { ...read, ms: ms * WRITE_DEADLINE_FACTOR };
  // KVNamespace's methods are overloaded by return type; a proxy keeps every overload as declared.
  return new Proxy(kv, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      const deadline = READS.has(property) ? read : WRITES.has(property) ? write : null;
      if (!deadline) return value.bind(target);
      return (...args: unknown[]) => withDeadline(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args), deadline);
    },
  });
}
