import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { cosine } from "../../src/core/ranking/cosine";
import { exactD1Index, forgetSnapshots } from "../../src/adapters/vectors/exact-d1";
import { loadSnapshot, REBUILD_MIN_ROWS } from "../../src/adapters/vectors/load";
import { seededNumbers } from "../support/seeded";

const DIMENSIONS = 8;

const random = (seed: number) => Float32Array.from(seededNumbers(DIMENSIONS, seed));

/** The exact top k by cosine, computed here without the index. */
function exactTop(vectors: Map<string, Float32Array>, query: Float32Array, k: number): string[] {
  return [...vectors]
    .map(([id, v]) => ({ id, score: cosine(query, v) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map((m) => m.id);
}

/** Loads as a new isolate would; at another version than the collection's unless one is given. */
const load = (tenantId: string, version = { epoch: "test", counter: 0 }) =>
  loadSnapshot(
    { db: env.DB, kv: env.CACHE, tenantId, collection: "c", model: "m", dimensions: DIMENSIONS },
    version,
    Number.POSITIVE_INFINITY,
    () => {},
  );

describe("exact index snapshot bases (real local D1 and KV)", () => {
  it("stores a base after a load from D1, and a new isolate answers from it, with the rows written since", async () => {
    const tenantId = "t_snapshot_base";
    const vectors = new Map<string, Float32Array>();
    for (let i = 0; i < REBUILD_MIN_ROWS + 76; i++) vectors.set(`v${i}`, random(i + 1));
    const writer = exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE);
    await writer.upsert(
      tenantId,
      "c",
      [...vectors].map(([id, vector]) => ({ id, vector, model: "m", metadata: { parity: Number(id.slice(1)) % 2 } })),
    );
    const query = random(9999);

    // A new isolate: nothing cached, no base yet, so every vector comes from D1 and a base is stored.
    forgetSnapshots();
    const first = exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE);
    expect((await first.query(tenantId, "c", { vector: query, model: "m", topK: 10 })).map((m) => m.id)).toEqual(
      exactTop(vectors, query, 10),
    );
    expect(await env.CACHE.get(`vsnap:v1:${tenantId}:c:m`)).not.toBeNull();
    expect((await load(tenantId)).stats).toEqual({ fromBase: vectors.size, fromD1: 0, rebuilt: false, listed: true });
    // At the version the base was built at, D1's rows are not even listed.
    const current = await env.DB.prepare("SELECT epoch, counter FROM vector_collections WHERE tenant_id = ? AND collection = 'c'")
      .bind(tenantId)
      .first<{ epoch: string; counter: number }>();
    const atBase = await load(tenantId, current!);
    expect(atBase.stats).toEqual({ fromBase: vectors.size, fromD1: 0, rebuilt: false, listed: false });
    expect(atBase.snapshot!.query(query, 10).map((m) => m.id)).toEqual(exactTop(vectors, query, 10));
    expect(atBase.snapshot!.query(query, 3, { parity: 1 }).every((m) => Number(m.id.slice(1)) % 2 === 1)).toBe(true);

    // Writes after the base: one vector replaced, one added, one deleted.
    const changed = Float32Array.from(query);
    vectors.set("v5", changed);
    vectors.set("v_new", random(123456));
    vectors.delete("v7");
    await writer.upsert(tenantId, "c", [
      { id: "v5", vector: changed, model: "m", metadata: { parity: 1 } },
      { id: "v_new", vector: vectors.get("v_new")!, model: "m", metadata: { parity: 0 } },
    ]);
    await writer.delete(tenantId, "c", ["v7"]);

    forgetSnapshots();
    const { snapshot, stats } = await load(tenantId);
    expect(stats).toEqual({ fromBase: vectors.size - 2, fromD1: 2, rebuilt: false, listed: true });
    expect(snapshot!.size).toBe(vectors.size);

    const later = exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE);
    const found = await later.query(tenantId, "c", { vector: query, model: "m", topK: 10 });
    expect(found.map((m) => m.id)).toEqual(exactTop(vectors, query, 10));
    expect(found[0]).toEqual({ id: "v5", score: expect.closeTo(1, 5) as number });
    const odd = await later.query(tenantId, "c", { vector: query, model: "m", topK: 2000, filter: { parity: 1 } });
    expect(odd.some((m) => m.id === "v7")).toBe(false);
    expect(odd.every((m) => m.id === "v5" || Number(m.id.slice(1)) % 2 === 1)).toBe(true);
  });

  it("ignores a base whose pages are gone and loads every vector from D1", async () => {
    const tenantId = "t_snapshot_base_gone";
    const index = exactD1Index(env.DB, "m", DIMENSIONS, env.CACHE);
    const records = Array.from({ length: REBUILD_MIN_ROWS }, (_, i) => ({ id: `w${i}`, vector: random(i + 50), model: "m", metadata: {} }));
    await index.upsert(tenantId, "c", records);
    expect((await load(tenantId)).stats).toEqual({ fromBase: 0, fromD1: REBUILD_MIN_ROWS, rebuilt: true, listed: true });
    const manifest = JSON.parse((await env.CACHE.get(`vsnap:v1:${tenantId}:c:m`))!) as { build: string };
    await env.CACHE.delete(`vsnap:v1:${tenantId}:c:m:${manifest.build}:0`);
    const { snapshot, stats } = await load(tenantId);
    expect(stats.fromBase).toBe(0);
    expect(snapshot!.size).toBe(REBUILD_MIN_ROWS);
  });
});
