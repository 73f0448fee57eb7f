import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { shippedScale } from "../../src/core/scale/registry";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../src/core/base/clock";
import { sha256Hex } from "../../src/core/base/crypto";
import { cachedEmbedder, embeddingCacheKey, forgetRecentEmbeddings, recentEmbeddingBytes } from "../../src/adapters/embeddings/cached";
import { CACHE_BUDGET } from "../../src/platform/isolate/memory";
import type { Embedder } from "../../src/platform/ports/embedder";
import { createApp } from "../../src/app/app";
import { rootLogger } from "../../src/platform/observe/log";
import { createServices } from "../../src/app/services";
import { cachedSnapshotBytes, exactD1Index, forgetSnapshots } from "../../src/adapters/vectors/exact-d1";
import { vectorBytes } from "../../src/adapters/vectors/snapshot";
import { VectorModelMismatch } from "../../src/platform/ports/vector-index";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";

const v = (...xs: number[]) => Float32Array.from(xs);

describe("exactD1Index (real local D1)", () => {
  it("returns exact cosine order within the tenant, collection and filter", async () => {
    const index = exactD1Index(env.DB, "m", 2);
    await index.upsert("t_x", "c", [
      { id: "a", vector: v(1, 0), model: "m", metadata: { scope: "s" } },
      { id: "b", vector: v(0.7, 0.7), model: "m", metadata: { scope: "s" } },
      { id: "c", vector: v(0, 1), model: "m", metadata: { scope: "other" } },
    ]);
    await index.upsert("t_y", "c", [{ id: "d", vector: v(1, 0), model: "m", metadata: { scope: "s" } }]);
    const matches = await index.query("t_x", "c", { vector: v(1, 0.1), model: "m", topK: 10, filter: { scope: "s" } });
    expect(matches.map((m) => m.id)).toEqual(["a", "b"]);
    expect(matches[0]!.score).toBeCloseTo(1 / Math.hypot(1, 0.1), 5);
  });

  it("refuses to mix models in one collection, and vectors of the wrong size", async () => {
    await exactD1Index(env.DB, "old-model", 2).upsert("t_mix", "c", [{ id: "a", vector: v(1, 0), model: "old-model", metadata: {} }]);
    const index = exactD1Index(env.DB, "new-model", 2);
    await expect(index.upsert("t_mix", "c", [{ id: "b", vector: v(1, 0), model: "new-model", metadata: {} }])).rejects.toThrow(
      /holds vectors of model old-model/,
    );
    await expect(index.upsert("t_other", "c", [{ id: "b", vector: v(1, 0, 0), model: "new-model", metadata: {} }])).rejects.toThrow(
      VectorModelMismatch,
    );
  });

  it("upserts idempotently and deletes", async () => {
    const index = exactD1Index(env.DB, "m", 2);
    const record = { id: "a", vector: v(1, 0), model: "m", metadata: {} };
    await index.upsert("t_idem", "c", [record]);
    await index.upsert("t_idem", "c", [{ ...record, vector: v(0, 1) }]);
    expect(await index.query("t_idem", "c", { vector: v(0, 1), model: "m", topK: 5 })).toEqual([{ id: "a", score: 1 }]);
    await index.delete("t_idem", "c", ["a"]);
    expect(await index.query("t_idem", "c", { vector: v(0, 1), model: "m", topK: 5 })).toEqual([]);
  });
});

describe("exactD1Index's snapshots, bounded in bytes (real local D1)", () => {
  const DIMENSIONS = 64;
  const records = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `${prefix}${i}`,
      vector: Float32Array.from({ length: DIMENSIONS }, (_, d) => Math.sin(i + d)),
      model: "m64",
      metadata: { scope: "s" },
    }));
  const query = { vector: new Float32Array(DIMENSIONS).fill(1), model: "m64", topK: 3 };

  it("holds at most its budget over all collections, after loads and after writes, and still answers past it", async () => {
    forgetSnapshots();
    // Room for two collections of 100 vectors (each allocated for 100), not three.
    const budget = 250 * vectorBytes(DIMENSIONS);
    const index = exactD1Index(env.DB, "m64", DIMENSIONS, null, budget);
    for (const collection of ["a", "b", "c"]) {
      await index.upsert("t_budget", collection, records(collection, 100));
      expect((await index.query("t_budget", collection, query)).length).toBe(3);
      expect(cachedSnapshotBytes()).toBeLessThanOrEqual(budget);
    }
    // A write that grows a cached snapshot keeps the bound too.
    await index.upsert("t_budget", "c", records("more", 60));
    expect(cachedSnapshotBytes()).toBeLessThanOrEqual(budget);
    // A collection larger than the whole budget is scanned from D1: same answers, nothing held.
    await index.upsert("t_budget", "big", records("big", 300));
    forgetSnapshots();
    const fromD1 = await index.query("t_budget", "big", query);
    expect(fromD1.length).toBe(3);
    expect(cachedSnapshotBytes()).toBe(0);
    forgetSnapshots();
  });
});

describe("cachedEmbedder (real local KV)", () => {
  it("answers a repeated text from KV without calling the model", async () => {
    let calls = 0;
    const inner: Embedder = {
      kind: "counting",
      model: "cache-test-model",
      dimensions: 2,
      languages: ["en"],
      scale: shippedScale("cache-test-model"),
      canEmbed: () => true,
      embed: async (texts) => {
        calls += texts.length;
        return texts.map((t) => v(t.length, 1));
      },
    };
    const embedder = cachedEmbedder(inner, env.CACHE);
    const first = await embedder.embed(["hello", "world!"]);
    forgetRecentEmbeddings(); // as in another isolate: only KV knows them
    const second = await embedder.embed(["world!", "hello", "new"]);
    expect(calls).toBe(3);
    expect(Array.from(second[0]!)).toEqual(Array.from(first[1]!));
    expect(Array.from(second[2]!)).toEqual([3, 1]);
    expect(await env.CACHE.get(embeddingCacheKey("cache-test-model", await sha256Hex("hello")), "arrayBuffer")).not.toBeNull();
  });
});

describe("cachedEmbedder (isolate memory, deferred KV writes)", () => {
  const counting = (model: string) => {
    const inner: Embedder & { calls: number } = {
      calls: 0,
      kind: "counting",
      model,
      dimensions: 2,
      languages: ["en"],
      scale: shippedScale(model),
      canEmbed: () => true,
      embed: async (texts) => {
        inner.calls += texts.length;
        return texts.map((t) => v(t.length, 1));
      },
    };
    return inner;
  };

  it("answers a text embedded a moment ago from memory, with neither a KV read nor a model call", async () => {
    const inner = counting("memory-test-model");
    const embedder = cachedEmbedder(inner, env.CACHE);
    const first = await embedder.embed(["reset my password"]);
    // Gone from KV: only the isolate's memory can answer now.
    await env.CACHE.delete(embeddingCacheKey("memory-test-model", await sha256Hex("reset my password")));
    const again = await embedder.embed(["reset my password"]);
    expect(inner.calls).toBe(1);
    expect(Array.from(again[0]!)).toEqual(Array.from(first[0]!));
    // A caller changing its copy does not change what the next caller gets.
    again[0]!.fill(0);
    expect(Array.from((await embedder.embed(["reset my password"]))[0]!)).toEqual(Array.from(first[0]!));
    forgetRecentEmbeddings();
    await embedder.embed(["reset my password"]);
    expect(inner.calls).toBe(2);
  });

  it("remembers vectors up to its byte budget, for production's 1024 dimensions, the oldest out first", async () => {
    forgetRecentEmbeddings();
    const wide: Embedder = {
      ...counting("wide-test-model"),
      dimensions: 1024,
      embed: async (texts) => texts.map(() => new Float32Array(1024).fill(0.5)),
    };
    // KV writes deferred and never started: only the isolate's memory is measured.
    const embedder = cachedEmbedder(wide, env.CACHE, () => {});
    const texts = Array.from({ length: 1_200 }, (_, i) => `question number ${i} about the budget`);
    for (let i = 0; i < texts.length; i += 100) await embedder.embed(texts.slice(i, i + 100));
    // 1,200 vectors of 4 KB would be 4.9 MB: past the budget, the oldest went.
    expect(recentEmbeddingBytes()).toBeLessThanOrEqual(CACHE_BUDGET.recentEmbeddings);
    expect(recentEmbeddingBytes()).toBeGreaterThan(CACHE_BUDGET.recentEmbeddings - 8_192);
    forgetRecentEmbeddings();
  });

  it("hands the KV write of a new vector to defer instead of starting it, and the write lands once started", async () => {
    const inner = counting("defer-test-model");
    const deferred: (() => Promise<unknown>)[] = [];
    const embedder = cachedEmbedder(inner, env.CACHE, (start) => deferred.push(start));
    await embedder.embed(["a text never embedded before"]);
    expect(deferred).toHaveLength(1);
    const key = embeddingCacheKey("defer-test-model", await sha256Hex("a text never embedded before"));
    expect(await env.CACHE.get(key, "arrayBuffer")).toBeNull();
    await Promise.all(deferred.map((start) => start()));
    expect(await env.CACHE.get(key, "arrayBuffer")).not.toBeNull();
    // A text already known writes nothing.
    await embedder.embed(["a text never embedded before"]);
    expect(deferred).toHaveLength(1);
  });

  it("starts a request's cache write once the answer is built, and the request's waitUntil sees it land", async () => {
    const tenant = await newTenant();
    const query = `how do I rotate the signing key of workspace ${crypto.randomUUID()}`;
    const puts: string[] = [];
    // The real local KV, with its writes noted as they start.
    const cache: KVNamespace = {
      get: env.CACHE.get.bind(env.CACHE),
      put: (key: string, ...rest: [ArrayBuffer]) => (puts.push(key), env.CACHE.put(key, ...rest)),
    } as KVNamespace;
    const app = createApp({ services: (e, defer) => createServices({ ...e, CACHE: cache }, systemClock, rootLogger, defer) });
    const ctx = createExecutionContext();
    const response = await app.fetch(
      new Request("https://recall.test/v1/faqs/search", {
        method: "POST",
        headers: { authorization: `Bearer ${tenant.clientKey}`, "content-type": "application/json" },
        body: JSON.stringify({ query }),
      }),
      env,
      ctx,
    );
    expect(await response.json()).toMatchObject({ results: [], degraded: [] });
    expect(puts).toEqual([]);
    await waitOnExecutionContext(ctx);
    const key = embeddingCacheKey(createServices(env).embedder.model, await sha256Hex(query));
    expect(puts).toEqual([key]);
    expect(await env.CACHE.get(key, "arrayBuffer")).not.toBeNull();
  });
});

describe("GET /healthz", () => {
  it("names the active adapters and no secret", async () => {
    const res = await expectJson(apiClient().healthz.$get(), 200);
    expect(res).toMatchObject({
      status: "ok",
      adapters: {
        embedder: {
          kind: "local-http",
          model: "use-lite-512",
          dimensions: 512,
          languages: ["en"],
          calibration: { calibrated: true, model: "use-lite-512", method: "isotonic-anchors", source: { kind: "shipped" } },
        },
        vectorIndex: { kind: "d1-exact" },
        judge: { kind: "heuristic" },
      },
    });
    expect(JSON.stringify(res)).not.toContain("rk_test_dev_key");
  });
});

describe("exactD1Index snapshot coherence", () => {
  it("sees a write made by another isolate (a second index object with a fresh snapshot)", async () => {
    const ours = exactD1Index(env.DB, "coherence-model", 2);
    await ours.upsert("t_coh", "c", [{ id: "a", vector: v(1, 0), model: "coherence-model", metadata: {} }]);
    expect((await ours.query("t_coh", "c", { vector: v(0, 1), model: "coherence-model", topK: 1 }))[0]!.id).toBe("a");
    // Another isolate writes straight to D1 (simulated: the same SQL the adapter runs, version bumped).
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO vectors (tenant_id, collection, id, model, dimensions, vector, metadata, updated_at) VALUES (?, ?, ?, ?, 2, ?, '{}', 0)",
      ).bind("t_coh", "c", "b", "coherence-model", v(0, 1).buffer),
      env.DB.prepare("UPDATE vector_collections SET counter = counter + 1 WHERE tenant_id = ? AND collection = ?").bind("t_coh", "c"),
    ]);
    // The next request (a new index object, as createServices makes per request) sees it.
    const next = exactD1Index(env.DB, "coherence-model", 2);
    expect((await next.query("t_coh", "c", { vector: v(0, 1), model: "coherence-model", topK: 1 }))[0]!.id).toBe("b");
    await next.delete("t_coh", "c", ["b"]);
    expect((await next.query("t_coh", "c", { vector: v(0, 1), model: "coherence-model", topK: 5 })).map((m) => m.id)).toEqual(["a"]);
  });
});
