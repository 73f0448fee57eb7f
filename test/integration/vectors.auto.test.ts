import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services";
import { exactMaxFor } from "../../src/adapters/vectors/auto";
import { vectorsWithin } from "../../src/adapters/vectors/exact-d1";
import { CACHE_BUDGET, MiB } from "../../src/platform/isolate/memory";
import { RECENT_SUFFIX } from "../../src/adapters/vectors/read-your-writes";
import { newTenant } from "../support/api";
import { clientWith } from "../support/app";
import { expectJson } from "../support/client";
import { vectorizeStub } from "../support/vectorize-stub";

const MODEL = "use-lite-512";
const DIMENSIONS = 512;

/** A unit vector along axis `i` (plus a little of axis 0, so every pair has a defined order). */
function axis(i: number): Float32Array {
  const v = new Float32Array(DIMENSIONS);
  v[i] = 1;
  v[0] = (v[0] ?? 0) + 0.1;
  return v;
}

const record = (id: string, i: number) => ({ id, vector: axis(i), model: MODEL, metadata: { scope: "s" } });

/** VECTOR_INDEX=auto over the real local D1 and a stubbed Vectorize, with the crossover lowered to 3 vectors. */
function autoServices(stub = vectorizeStub()) {
  return createServices({ ...env, VECTOR_INDEX: "auto", VECTOR_EXACT_MAX: "3", VECTORIZE: stub.binding });
}

async function storedIds(tenantId: string, collection: string): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT id FROM vectors WHERE tenant_id = ? AND collection = ? ORDER BY id")
    .bind(tenantId, collection)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}

describe("VECTOR_INDEX=auto", () => {
  it("reads a small collection from the exact index, and writes reach D1 and Vectorize", async () => {
    const stub = vectorizeStub({ lagging: true });
    const { vectors } = autoServices(stub);
    await vectors.upsert("t_auto_small", "memories", [record("a", 1), record("b", 2)]);

    expect(await storedIds("t_auto_small", "memories")).toEqual(["a", "b"]);
    expect(stub.calls).toEqual([{ op: "upsert", namespace: "t_auto_small:memories", ids: ["a", "b"] }]);
    // Far below the crossover: no read-your-writes buffer is written.
    expect(await storedIds("t_auto_small", `memories${RECENT_SUFFIX}`)).toEqual([]);

    // Vectorize has not applied the writes yet (lagging): the exact index answers, at once and exactly.
    const matches = await vectors.query("t_auto_small", "memories", { vector: axis(2), model: MODEL, topK: 5, filter: { scope: "s" } });
    expect(matches.map((m) => m.id)).toEqual(["b", "a"]);
    expect(stub.calls.filter((c) => c.op === "query")).toEqual([]);
  });

  it("reads a collection above the crossover from Vectorize, with its recent writes from the buffer", async () => {
    const stub = vectorizeStub();
    const { vectors } = autoServices(stub);
    await vectors.upsert("t_auto_large", "memories", [record("a", 1), record("b", 2), record("c", 3), record("d", 4)]);
    expect(await storedIds("t_auto_large", "memories")).toEqual(["a", "b", "c", "d"]);
    expect(stub.stored.size).toBe(4);
    // Past 90 % of the crossover, writes also go to the buffer that covers Vectorize's lag.
    expect(await storedIds("t_auto_large", `memories${RECENT_SUFFIX}`)).toEqual(["a", "b", "c", "d"]);

    const matches = await vectors.query("t_auto_large", "memories", { vector: axis(3), model: MODEL, topK: 2 });
    expect(matches[0]!.id).toBe("c");
    expect(stub.calls.filter((c) => c.op === "query")).toEqual([{ op: "query", namespace: "t_auto_large:memories" }]);

    // A write Vectorize has not applied yet is still found (the buffer), and similarities come from D1 by id.
    const lagging = vectorizeStub({ lagging: true });
    const later = autoServices(lagging).vectors;
    await later.upsert("t_auto_large", "memories", [record("e", 5)]);
    const fresh = await later.query("t_auto_large", "memories", { vector: axis(5), model: MODEL, topK: 1 });
    expect(fresh).toEqual([{ id: "e", score: expect.closeTo(1, 5) }]);
    const scores = await later.similarities("t_auto_large", "memories", { vector: axis(5), model: MODEL }, ["e", "a", "missing"]);
    expect([...scores.keys()].sort()).toEqual(["a", "e"]);
    expect(lagging.calls.filter((c) => c.op === "get")).toEqual([]);
  });

  it("switches a collection to Vectorize as it grows past the crossover", async () => {
    const stub = vectorizeStub();
    await autoServices(stub).vectors.upsert("t_auto_grow", "faqs", [record("a", 1), record("b", 2), record("c", 3)]);
    await autoServices(stub).vectors.query("t_auto_grow", "faqs", { vector: axis(1), model: MODEL, topK: 3 });
    expect(stub.calls.filter((c) => c.op === "query")).toHaveLength(0);

    await autoServices(stub).vectors.upsert("t_auto_grow", "faqs", [record("d", 4)]);
    await autoServices(stub).vectors.query("t_auto_grow", "faqs", { vector: axis(1), model: MODEL, topK: 3 });
    expect(stub.calls.filter((c) => c.op === "query")).toHaveLength(1);
  });

  it("keeps a collection written under VECTOR_INDEX=vectorize on Vectorize, whatever its size", async () => {
    const stub = vectorizeStub();
    // VECTOR_INDEX=vectorize kept only the read-your-writes buffer in D1.
    const before = createServices({ ...env, VECTOR_INDEX: "vectorize", VECTORIZE: stub.binding }).vectors;
    await before.upsert("t_auto_legacy", "memories", [record("a", 1)]);
    await env.DB.prepare("DELETE FROM vectors WHERE tenant_id = ?").bind("t_auto_legacy").run(); // the cron pruned the buffer

    const { vectors } = autoServices(stub);
    await vectors.upsert("t_auto_legacy", "memories", [record("b", 2)]);
    expect(await storedIds("t_auto_legacy", "memories")).toEqual(["b"]);
    const matches = await vectors.query("t_auto_legacy", "memories", { vector: axis(1), model: MODEL, topK: 2 });
    // "a" is only in Vectorize: the exact index alone would have missed it.
    expect(matches.map((m) => m.id)).toEqual(["a", "b"]);
    const scores = await vectors.similarities("t_auto_legacy", "memories", { vector: axis(1), model: MODEL }, ["a"]);
    expect([...scores.keys()]).toEqual(["a"]);
  });

  it("deletes from D1, Vectorize and the buffer", async () => {
    const stub = vectorizeStub();
    const { vectors } = autoServices(stub);
    await vectors.upsert("t_auto_delete", "memories", [record("a", 1), record("b", 2), record("c", 3)]);
    await vectors.delete("t_auto_delete", "memories", ["a"]);
    expect(await storedIds("t_auto_delete", "memories")).toEqual(["b", "c"]);
    expect(await storedIds("t_auto_delete", `memories${RECENT_SUFFIX}`)).toEqual(["b", "c"]);
    expect(stub.stored.has("a")).toBe(false);
  });

  it("counts a collection's vectors in vector_collections.size: a rewrite once, a delete down", async () => {
    const { vectors } = autoServices();
    await vectors.upsert("t_auto_size", "memories", [record("a", 1), record("b", 2)]);
    await vectors.upsert("t_auto_size", "memories", [record("a", 3)]);
    await vectors.delete("t_auto_size", "memories", ["b"]);
    const row = await env.DB.prepare("SELECT size FROM vector_collections WHERE tenant_id = ? AND collection = ?")
      .bind("t_auto_size", "memories")
      .first<{ size: number }>();
    expect(row?.size).toBe(1);
  });

  it("is the exact index when no Vectorize is bound (npm start, tests)", () => {
    const { VECTORIZE: _absent, ...local } = env;
    expect(createServices({ ...local, VECTOR_INDEX: "auto" }).vectors.kind).toBe("d1-exact");
  });

  it("caps the crossover at what one isolate holds at the model's dimensions", () => {
    const budget = CACHE_BUDGET.vectorSnapshots;
    // 48 MB: 4,490 bytes a 1024-d vector (4,096 of floats, its sign code, scan buffers and its id and metadata).
    expect(exactMaxFor(undefined, 1024, budget)).toEqual({ configured: 49_152, effective: 11_209 });
    expect(exactMaxFor("49152", 512, budget).effective).toBe(vectorsWithin(budget, 512));
    expect(exactMaxFor("49152", 512, 160 * MiB).effective).toBe(49_152);
    expect(exactMaxFor("1000", 1024, budget)).toEqual({ configured: 1000, effective: 1000 });
    expect(() => exactMaxFor("many", 512, budget)).toThrow(/VECTOR_EXACT_MAX/);
  });
});

describe("GET /healthz with VECTOR_INDEX=auto", () => {
  it("reports the rule and the crossover", async () => {
    const { clientKey } = await newTenant("auto health");
    const api = clientWith((real) => ({ ...real, vectors: autoServices().vectors }), clientKey);
    const health = await expectJson(api.healthz.$get(), 200);
    expect(health.adapters.vectorIndex).toEqual({
      kind: "auto",
      state: "ok",
      routing: {
        rule: "a collection of at most 3 vectors is read from d1-exact, a larger one (or one written under VECTOR_INDEX=vectorize) from vectorize+recent",
        exactMax: 3,
        configuredExactMax: 3,
        small: "d1-exact",
        large: "vectorize+recent",
      },
    });
  });
});
