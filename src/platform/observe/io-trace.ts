/**
 * Records every round trip a request makes through the platform's bindings (the wrappers are in
 * src/platform/observe/io-bindings.ts), so its count and sequential depth (src/platform/observe/io-depth.ts) can be
 * read off the answer. A trace may have a parent: a request the app makes to its own routes
 * in-process (the hook, MCP, the screens) records into its own trace and its caller's.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { type IoCall, type IoKind, type IoSummary, summarizeIo } from "./io-depth";

/** One counter for every trace of the isolate: a nested request's calls and its caller's share one order. */
let ticks = 0;
const tick = () => ++ticks;

/**
 * Marks work the answer does not wait for. The mark travels with the async context (promise
 * continuations, timers), so a call made anywhere inside the work, however deep, is known as
 * deferred when it starts, even while the request is still running.
 */
const deferredWork = new AsyncLocalStorage<true>();

/** Starts work that runs after (or beside) the answer: its round trips are counted apart from the request's. */
export function runDeferred<T>(start: () => T): T {
  return deferredWork.run(true, start);
}

export class IoTrace {
  readonly calls: IoCall[] = [];

  constructor(readonly parent: IoTrace | null = null) {}

  /** Makes the call, recording when it started and when its answer arrived (or it failed). */
  record<T>(kind: IoKind, call: () => T | PromiseLike<T>, write?: boolean): Promise<T> {
    const entry: IoCall = {
      kind,
      ...(write === undefined ? {} : { write }),
      start: tick(),
      end: null,
      deferred: deferredWork.getStore() === true,
      startMs: performance.now(),
      endMs: null,
    };
    this.calls.push(entry);
    for (let trace = this.parent; trace; trace = trace.parent) trace.calls.push(entry);
    const ended = () => {
      entry.end = tick();
      entry.endMs = performance.now();
    };
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(call());
    } catch (error) {
      ended();
      return Promise.reject(error as Error);
    }
    // The end is ticked before the caller's continuation runs, so a call it makes next starts after.
    return pending.then(
      (value) => {
        ended();
        return value;
      },
      (error: unknown) => {
        ended();
        throw error;
      },
    );
  }

  summary(): IoSummary {
    return summarizeIo(this.calls);
  }
}
