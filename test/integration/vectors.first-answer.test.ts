import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { cachedSnapshotBytes, exactD1Index, forgetSnapshots } from "../../src/adapters/vectors/exact-d1";
import { FIRST_ANSWER_MIN_ROWS } from "../../src/adapters/vectors/first-answer";
import { loadSnapshot, REBUILD_MIN_ROWS } from "../../src/adapters/vectors/load";
import type { VectorRecord } from "../../src/platform/ports/vector-index";
import { seededNumbers } from "../support/seeded";

// Sign codes rank from 64 dimensions on (snapshot.ts, TWO_STAGE_MIN_DIMENSIONS).
const DIMENSIONS = 64;

const random = (seed: number) => Float32Array.from(seededNumbers(DIMENSIONS, seed));

const records = (prefix: string, count: number, seed = 1): VectorRecord[] =>
  Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, vector: random(seed + i), model: "m", metadata: { parity: i % 2 } }));

/** A request's waitUntil, run by hand: what the index deferred runs when the test says. */
function deferred() {
  const started: (() => Promise<unknown>)[] = [];
  return {
    defer: (start: () => Promise<unknown>) => started.push(start),
    runAll: () => Promise.all(started.splice(0).map((start) => start())),
    get count() {
      return started.length;
    },
  };
}

/** Writes the rows, then loads them once as a new isolate, which stores the base. */
async function collectionWithBase(tenantId: string, rows: VectorRecord[]) {
  const writer = exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE);
  for (let i = 0; i < rows.length; i += 500) await writer.upsert(tenantId, "c", rows.slice(i, i + 500));
  forgetSnapshots();
  await exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE).query(tenantId, "c", { vector: random(1), model: "m", topK: 1 });
  forgetSnapshots();
}

describe("a new isolate's first answers from a base's sign codes (real local D1 and KV)", () => {
  it("answers as the loaded snapshot does, without loading it, and loads it after the response", async () => {
    const tenantId = "t_first_answer";
    await collectionWithBase(tenantId, records("v", FIRST_ANSWER_MIN_ROWS + 100));
    const query = random(424242);

    const request = deferred();
    const first = await exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE, undefined, request.defer).query(tenantId, "c", {
      vector: query,
      model: "m",
      topK: 10,
    });
    expect(cachedSnapshotBytes()).toBe(0);
    expect(request.count).toBe(1);

    await request.runAll();
    expect(cachedSnapshotBytes()).toBeGreaterThan(0);
    const later = await exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE, undefined, deferred().defer).query(tenantId, "c", {
      vector: query,
      model: "m",
      topK: 10,
    });
    expect(first.map((m) => m.id)).toEqual(later.map((m) => m.id));
    first.forEach((m, i) => expect(m.score).toBeCloseTo(later[i]!.score, 5));
  });

  it("stores a new base when a load finds a large collection's base stale, however few rows changed", async () => {
    const tenantId = "t_first_answer_stale";
    await collectionWithBase(tenantId, records("s", FIRST_ANSWER_MIN_ROWS, 3));
    await exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE).upsert(tenantId, "c", records("t", 3, 5));
    forgetSnapshots();
    // This isolate lists the rows and reads the 3 new ones from D1, and stores the base again.
    await exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE).query(tenantId, "c", { vector: random(8), model: "m", topK: 1 });
    forgetSnapshots();
    const request = deferred();
    await exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE, undefined, request.defer).query(tenantId, "c", {
      vector: random(8),
      model: "m",
      topK: 10,
    });
    expect(cachedSnapshotBytes()).toBe(0);
    expect(request.count).toBe(1);
  });

  it("loads the snapshot at once for a query the codes cannot serve (a filter)", async () => {
    const tenantId = "t_first_answer_filter";
    await collectionWithBase(tenantId, records("f", FIRST_ANSWER_MIN_ROWS, 7));
    const request = deferred();
    const odd = await exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE, undefined, request.defer).query(tenantId, "c", {
      vector: random(99),
      model: "m",
      topK: 5,
      filter: { parity: 1 },
    });
    expect(odd).toHaveLength(5);
    expect(odd.every((m) => Number(m.id.slice(1)) % 2 === 1)).toBe(true);
    expect(cachedSnapshotBytes()).toBeGreaterThan(0);
    expect(request.count).toBe(0);
  });

  it("stores a base after a request's writes changed many rows of a cached snapshot", async () => {
    const tenantId = "t_first_answer_writes";
    const request = deferred();
    const index = exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE, undefined, request.defer);
    await index.upsert(tenantId, "c", records("w", 10));
    // Cached in this isolate from here on: the writes below are applied to it.
    await index.query(tenantId, "c", { vector: random(3), model: "m", topK: 1 });
    expect(request.count).toBe(0);
    await index.upsert(tenantId, "c", records("x", REBUILD_MIN_ROWS, 11));
    expect(request.count).toBe(1);
    await request.runAll();

    // A new isolate takes every row from that base, D1's `updated_at` included: none is read again.
    forgetSnapshots();
    const version = await env.DB.prepare("SELECT epoch, counter FROM vector_collections WHERE tenant_id = ? AND collection = 'c'")
      .bind(tenantId)
      .first<{ epoch: string; counter: number }>();
    const atOlderVersion = await loadSnapshot(
      { db: env.DB, kv: env.CACHE, tenantId, collection: "c", model: "m", dimensions: DIMENSIONS },
      { ...version!, counter: version!.counter + 1 },
      Number.POSITIVE_INFINITY,
      () => {},
    );
    expect(atOlderVersion.stats).toEqual({ fromBase: REBUILD_MIN_ROWS + 10, fromD1: 0, rebuilt: false, listed: true });
  });
});
