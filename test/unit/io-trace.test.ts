import { describe, expect, it } from "vitest";
import {
  criticalTime,
  ioCallsServerTiming,
  ioServerTiming,
  parseIoCallsServerTiming,
  parseIoServerTiming,
  sequentialDepth,
  summarizeIo,
  type IoCall,
} from "../../src/platform/observe/io-depth";
import { IoTrace, runDeferred } from "../../src/platform/observe/io-trace";

const call = (kind: IoCall["kind"], start: number, end: number | null, deferred = false): IoCall => ({
  kind,
  start,
  end,
  deferred,
  startMs: 0,
  endMs: null,
});

/** A round trip that answers on a later turn of the event loop, as real I/O does. */
const io = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 0));

describe("sequentialDepth", () => {
  it("is 0 without calls and 1 for one call", () => {
    expect(sequentialDepth([])).toBe(0);
    expect(sequentialDepth([call("d1", 1, 2)])).toBe(1);
  });

  it("counts calls awaited together once (Promise.all) and calls awaited one after another each", () => {
    // a, b together; then c
    expect(sequentialDepth([call("d1", 1, 4), call("kv", 2, 3), call("d1", 5, 6)])).toBe(2);
    // a → b → c
    expect(sequentialDepth([call("d1", 1, 2), call("d1", 3, 4), call("d1", 5, 6)])).toBe(3);
  });

  it("takes the longest chain, not the number of calls, when chains overlap", () => {
    // a (1–10) runs beside b → c → d; e starts after a ended
    const calls = [call("vec", 1, 10), call("d1", 2, 3), call("d1", 4, 5), call("d1", 6, 7), call("d1", 11, 12)];
    // b → c → d → e: e started after d ended too
    expect(sequentialDepth(calls)).toBe(4);
  });

  it("does not chain a call that started at the tick another ended, nor anything after a call still running", () => {
    expect(sequentialDepth([call("d1", 1, 3), call("d1", 3, 4)])).toBe(1);
    expect(sequentialDepth([call("d1", 1, null), call("d1", 2, 3)])).toBe(1);
  });
});

describe("criticalTime", () => {
  it("takes the slowest chain when calls cost different times, not the longest in calls", () => {
    // kv → d1 → d1 beside one ai call
    const calls = [call("kv", 1, 2), call("d1", 3, 4), call("d1", 5, 6), call("ai", 7, 12)];
    const parallel = [call("kv", 1, 2), call("d1", 3, 4), call("d1", 5, 6), call("ai", 1, 6)];
    const cost = (c: IoCall) => ({ kv: 1, d1: 5, ai: 30 })[c.kind as "kv" | "d1" | "ai"];
    expect(criticalTime(calls, cost)).toBe(41);
    expect(criticalTime(parallel, cost)).toBe(30);
    expect(criticalTime(parallel, () => 1)).toBe(sequentialDepth(parallel));
  });
});

describe("Server-Timing iocalls", () => {
  it("writes each waited-for call as its step and renumbered ticks, and reads them back", () => {
    const calls = [
      { ...call("d1", 10, 40), write: false },
      call("kv", 20, 30),
      { ...call("d1", 50, 60), write: true },
      call("ai", 70, 80, true),
    ];
    const header = ioCallsServerTiming(calls);
    expect(header).toBe('iocalls;desc="d1r:1:4 kv:2:3 d1w:5:6"');
    expect(parseIoCallsServerTiming(`io;desc="d1=2", ${header}`)).toEqual([
      { step: "d1r", start: 1, end: 4 },
      { step: "kv", start: 2, end: 3 },
      { step: "d1w", start: 5, end: 6 },
    ]);
    expect(parseIoCallsServerTiming('io;desc="d1=2"')).toBeNull();
  });
});

describe("summarizeIo", () => {
  it("counts per kind and leaves deferred calls out of counts and depth", () => {
    const calls = [call("d1", 1, 2), call("kv", 3, 4), call("d1", 3.5, 5), call("d1", 6, 7, true), call("q", 8, 9, true)];
    expect(summarizeIo(calls)).toEqual({ d1: 2, kv: 1, vec: 0, ai: 0, do: 0, q: 0, seq: 2 });
  });
});

describe("Server-Timing io", () => {
  it("writes every kind and the depth, and reads them back", () => {
    const summary = { d1: 2, kv: 1, vec: 0, ai: 0, do: 0, q: 0, seq: 2 };
    expect(ioServerTiming(summary)).toBe('io;desc="d1=2 kv=1 vec=0 ai=0 do=0 q=0 seq=2"');
    expect(parseIoServerTiming(`embed;dur=1, ${ioServerTiming(summary)}, app;dur=3.2`)).toEqual(summary);
    expect(parseIoServerTiming("app;dur=3.2")).toBeNull();
    expect(parseIoServerTiming(null)).toBeNull();
  });
});

describe("IoTrace", () => {
  it("records calls made together as overlapping and a call made after an answer as the next step", async () => {
    const trace = new IoTrace();
    await Promise.all([trace.record("d1", () => io(1)), trace.record("kv", () => io(2))]);
    await trace.record("d1", () => io(3));
    expect(trace.summary()).toEqual({ d1: 2, kv: 1, vec: 0, ai: 0, do: 0, q: 0, seq: 2 });
  });

  it("ends a failed call too, and passes its error on", async () => {
    const trace = new IoTrace();
    await expect(trace.record("do", () => Promise.reject(new Error("reset")))).rejects.toThrow("reset");
    await expect(
      trace.record("do", () => {
        throw new Error("sync");
      }),
    ).rejects.toThrow("sync");
    expect(trace.calls.every((c) => c.end !== null)).toBe(true);
    expect(trace.summary().seq).toBe(2);
  });

  it("counts a call made inside deferred work apart, however deep in the work it is made", async () => {
    const trace = new IoTrace();
    await trace.record("d1", () => io(1));
    await runDeferred(async () => {
      await io(0);
      await trace.record("kv", () => io(2));
    });
    expect(trace.calls.map((c) => c.deferred)).toEqual([false, true]);
    expect(trace.summary()).toMatchObject({ d1: 1, kv: 0, seq: 1 });
  });

  it("records a nested request's calls in its caller's trace as well", async () => {
    const outer = new IoTrace();
    await outer.record("d1", () => io(1));
    const inner = new IoTrace(outer);
    await inner.record("vec", () => io(2));
    expect(inner.summary()).toMatchObject({ d1: 0, vec: 1, seq: 1 });
    expect(outer.summary()).toMatchObject({ d1: 1, vec: 1, seq: 2 });
  });
});
