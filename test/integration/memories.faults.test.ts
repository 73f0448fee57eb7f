import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Services } from "../../src/services";
import { REINDEX_CRON } from "../../src/upkeep/cron";
import worker from "../../workers/api";
import { call, newTenant } from "../support/api";
import { callWith, embedderDown, vectorIndexDown } from "../support/app";

const upsertFails = (real: Services): Services => ({
  ...real,
  vectors: {
    ...real.vectors,
    upsert: async () => {
      throw new Error("Vectorize unavailable");
    },
  },
});

describe("when the embedder is down", () => {
  it("still stores the memory, pending, and search answers lexically with degraded: embeddings", async () => {
    const { clientKey } = await newTenant();
    const scope = "faults:embedder";
    const stored = await callWith(embedderDown, "/v1/memories", clientKey, {
      scope,
      content: "Our staging database lives in Frankfurt",
      memoryType: "fact",
    });
    expect(stored.status).toBe(201);
    expect(stored.json.indexState).toBe("pending");

    const found = await callWith(embedderDown, "/v1/memories/search", clientKey, {
      scope,
      query: "where is the staging database?",
    });
    expect(found.status).toBe(200);
    expect(found.json.degraded).toEqual(["embeddings"]);
    expect(found.json.results[0]).toMatchObject({ id: stored.json.id, matchedBy: ["bm25"] });
  });
});

describe("when the vector upsert fails", () => {
  it("keeps the row pending, and the re-index cron indexes it", async () => {
    const { clientKey } = await newTenant();
    const scope = "faults:upsert";
    const stored = await callWith(upsertFails, "/v1/memories", clientKey, {
      scope,
      content: "The cat sleeps on the warm windowsill every afternoon",
      memoryType: "fact",
    });
    expect(stored.status).toBe(201);
    expect(stored.json.indexState).toBe("pending");

    // Not in the vector index yet: a paraphrase with no shared word finds nothing.
    const before = await call("/v1/memories/search", {
      key: clientKey,
      body: { scope, query: "kitten napping by a sunny window" },
    });
    expect(before.json?.results).toEqual([]);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: REINDEX_CRON, scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect((await call(`/v1/memories/${stored.json.id}`, { key: clientKey })).json?.indexState).toBe("indexed");
    const after = await call("/v1/memories/search", {
      key: clientKey,
      body: { scope, query: "kitten napping by a sunny window" },
    });
    expect(after.json?.results[0]).toMatchObject({ id: stored.json.id, matchedBy: ["vector"] });
  });
});

describe("when the vector index query fails", () => {
  it("answers lexically with degraded: vector_index", async () => {
    const { clientKey } = await newTenant();
    const scope = "faults:query";
    await call("/v1/memories", { key: clientKey, body: { scope, content: "Backups run nightly at 2am", memoryType: "fact" } });
    const found = await callWith(vectorIndexDown, "/v1/memories/search", clientKey, { scope, query: "when do backups run" });
    expect(found.status).toBe(200);
    expect(found.json.degraded).toEqual(["vector_index"]);
    expect(found.json.results[0].content).toBe("Backups run nightly at 2am");
  });
});
