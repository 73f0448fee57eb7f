/**
 * A request's I/O in two numbers per kind: how many calls it made, and how many round trips it
 * had to wait for one after the other (its sequential depth). Pure: src/platform/observe/io-trace.ts
 * records the calls, this reads them. See docs/design/round-trips.md.
 */

/**
 * The kinds of round trip: D1 (a statement or one batch), KV, Vectorize, a model call (Workers AI,
 * or the local embedder that stands in for it), a Durable Object call, a queue send.
 */
export const IO_KINDS = ["d1", "kv", "vec", "ai", "do", "q"] as const;
export type IoKind = (typeof IO_KINDS)[number];

/**
 * One call as the trace saw it. `start` and `end` are ticks of one counter, taken when the call
 * was made and when its answer arrived: inside workerd the clock stands still between I/O, so
 * equal times cannot tell overlap from sequence, the ticks can. `end` is null while the call runs.
 */
export interface IoCall {
  kind: IoKind;
  start: number;
  end: number | null;
  /** Made by work the answer does not wait for (waitUntil, services.defer): counted apart. */
  deferred: boolean;
  /** A D1 call that writes (not only SELECT): a read replica can answer the others. */
  write?: boolean;
  startMs: number;
  endMs: number | null;
}

export type IoSummary = Record<IoKind, number> & {
  /** The longest chain of calls each made after the one before it answered. */
  seq: number;
};

/**
 * The length of the longest chain of calls in which each call started after the previous one
 * ended: calls awaited together (Promise.all) overlap and count once, calls awaited one after the
 * other count each. A call still running never ended, so nothing chains after it.
 */
export function sequentialDepth(calls: readonly Pick<IoCall, "start" | "end">[]): number {
  return criticalTime(calls, () => 1);
}

/**
 * The longest chain's total when each call takes `cost(call)`: the time a request waits on its
 * round trips if each kind of call took that long (bench/latency.bench.mjs projects routes with
 * it). With every cost 1 it is the sequential depth.
 *
 * One pass over the ticks in order: a call that starts extends the longest chain ended so far.
 */
export function criticalTime<C extends Pick<IoCall, "start" | "end">>(calls: readonly C[], cost: (call: C) => number): number {
  const events: { tick: number; call: number; starts: boolean }[] = [];
  calls.forEach(({ start, end }, call) => {
    events.push({ tick: start, call, starts: true });
    if (end !== null) events.push({ tick: end, call, starts: false });
  });
  // Ticks from the trace are unique; on a tie a start goes first: chaining needs an end strictly before.
  events.sort((a, b) => a.tick - b.tick || Number(b.starts) - Number(a.starts));
  const chain = new Array<number>(calls.length).fill(0);
  let endedBest = 0;
  let longest = 0;
  for (const event of events) {
    if (event.starts) {
      chain[event.call] = endedBest + cost(calls[event.call]!);
      longest = Math.max(longest, chain[event.call]!);
    } else {
      endedBest = Math.max(endedBest, chain[event.call]!);
    }
  }
  return longest;
}

/** Counts per kind and the depth of the calls the answer waited for; deferred calls are left out. */
export function summarizeIo(calls: readonly IoCall[]): IoSummary {
  const waited = calls.filter((call) => !call.deferred);
  const summary = { d1: 0, kv: 0, vec: 0, ai: 0, do: 0, q: 0, seq: sequentialDepth(waited) };
  for (const call of waited) summary[call.kind]++;
  return summary;
}

/** The Server-Timing entry: `io;desc="d1=2 kv=1 vec=0 ai=0 do=0 q=0 seq=2"`. */
export function ioServerTiming(summary: IoSummary): string {
  return `io;desc="${[...IO_KINDS, "seq" as const].map((k) => `${k}=${summary[k]}`).join(" ")}"`;
}

/** The figures back from a Server-Timing header (tests, benches); null when it has no `io` entry. */
export function parseIoServerTiming(header: string | null): IoSummary | null {
  const desc = /(?:^|,)\s*io;desc="([^"]*)"/.exec(header ?? "")?.[1];
  if (desc === undefined) return null;
  const fields = new Map(desc.split(" ").map((pair) => pair.split("=") as [string, string]));
  const summary = { d1: 0, kv: 0, vec: 0, ai: 0, do: 0, q: 0, seq: 0 };
  for (const key of Object.keys(summary) as (keyof IoSummary)[]) {
    const value = Number(fields.get(key));
    if (!Number.isInteger(value)) return null;
    summary[key] = value;
  }
  return summary;
}

/** What a call is for the latency model: its kind, and for D1 whether it writes. */
export type IoStep = Exclude<IoKind, "d1"> | "d1r" | "d1w";
const stepOf = (call: Pick<IoCall, "kind" | "write">): IoStep => (call.kind === "d1" ? (call.write ? "d1w" : "d1r") : call.kind);

/**
 * The waited-for calls as one Server-Timing entry, for benches that model a route's latency:
 * `iocalls;desc="d1r:1:4 kv:2:3 ai:5:6"` (step, start tick, end tick; ticks renumbered from 1).
 * Sent only when the request asks (`x-recall-io: calls`): the counts in `io` are for everyone.
 */
export function ioCallsServerTiming(calls: readonly IoCall[]): string {
  const waited = calls.filter((call) => !call.deferred);
  const ticks = [...new Set(waited.flatMap((c) => (c.end === null ? [c.start] : [c.start, c.end])))].sort((a, b) => a - b);
  const at = new Map(ticks.map((tick, i) => [tick, i + 1]));
  return `iocalls;desc="${waited.map((c) => `${stepOf(c)}:${at.get(c.start)}:${c.end === null ? "-" : at.get(c.end)}`).join(" ")}"`;
}

/** The calls back from an `iocalls` entry; null when the header has none. */
export function parseIoCallsServerTiming(header: string | null): { step: IoStep; start: number; end: number | null }[] | null {
  const desc = /(?:^|,)\s*iocalls;desc="([^"]*)"/.exec(header ?? "")?.[1];
  if (desc === undefined) return null;
  return desc
    .split(" ")
    .filter(Boolean)
    .map((field) => {
      const [step, start, end] = field.split(":");
      return { step: step as IoStep, start: Number(start), end: end === "-" ? null : Number(end) };
    });
}
