// Per-call latencies the latency model (bench/latency.bench.mjs) projects a route's I/O with, for
// three users. Where Cloudflare publishes a figure it is cited; everything else is a stated
// assumption, chosen round and on the cautious side, to be replaced by measurements from a
// deployment (the access log's `io` and Server-Timing give the counts to divide by).
//
// Steps are the trace's (src/platform/observe/io-depth.ts): d1r a D1 read, d1w a D1 write, kv, vec
// (Vectorize), ai (a Workers AI embedding), do (a Durable Object call), q (a queue send).

export const USERS = {
  near: "a user in the D1 primary's region",
  far: "a user on another continent, reads go to the primary",
  farReplicas: "the same user with D1 read replication on: reads from a replica in the user's region",
};

/** Milliseconds per call, by user. */
export const LATENCY_MS = {
  near: { d1r: 5, d1w: 8, kv: 5, vec: 31, ai: 40, do: 5, q: 5 },
  far: { d1r: 150, d1w: 155, kv: 5, vec: 31, ai: 40, do: 5, q: 5 },
  farReplicas: { d1r: 5, d1w: 155, kv: 5, vec: 31, ai: 40, do: 5, q: 5 },
};

export const SOURCES = [
  "d1r / d1w near: assumption — a query from a Worker in the primary's region, one round trip inside the region plus SQLite's work (the local bench measures the work: well under 1 ms for these queries).",
  "d1r / d1w far: assumption — 150 ms, an intercontinental round trip (e.g. Europe ↔ US West, Asia ↔ Europe) to the primary; every D1 call without read replication pays it. With read replication (https://developers.cloudflare.com/d1/best-practices/read-replication/) reads through the Sessions API go to a replica in the user's region; writes still go to the primary.",
  "kv: Cloudflare reports hot reads up to 3× faster and the hottest keys answered in memory in under a millisecond (https://blog.cloudflare.com/faster-workers-kv, 2024-09-26), and p99 reads under 5 ms after KV's 2025 storage redesign (as reported by InfoQ, August 2025); 5 ms is taken for every KV call, though a miss that reaches the central store is slower.",
  "vec: assumption — 31 ms, the median query latency Cloudflare announced at Vectorize's general availability (September 2024; not re-checked here); Vectorize is only on the path where a collection is large enough to use it.",
  "ai: assumption — 40 ms for one embedding call on Workers AI (bge-m3 / bge-base), network included; the local model takes about 20 ms on this machine's CPU.",
  "do: assumption — 5 ms: a show's Durable Object lives where it was first used, next to its producer.",
  "q: assumption — 5 ms for a queue send.",
];
