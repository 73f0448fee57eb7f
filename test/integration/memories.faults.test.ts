import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Services } from "../../src/platform/ports/services";
import { REINDEX_CRON } from "../../src/app/cron";
import worker from "../../workers/api";
import { newTenant } from "../support/api";
import { clientWith, embedderDown, vectorIndexDown } from "../support/app";
import { apiClient, expectJson } from "../support/client";

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
    const down = clientWith(embedderDown, clientKey);
    const scope = "faults:embedder";
    const stored = await expectJson(
      down.v1.memories.$post({ json: { scope, content: "Our staging database lives in Frankfurt", memoryType: "fact" } }),
      201,
    );
    expect(stored.indexState).toBe("pending");

    const found = await expectJson(down.v1.memories.search.$post({ json: { scope, query: "where is the staging database?" } }), 200);
    expect(found.degraded).toEqual(["embeddings"]);
    expect(found.results[0]).toMatchObject({ id: stored.id, matchedBy: ["bm25"] });
  });
});

describe("when the vector upsert fails", () => {
  it("keeps the row pending, and the re-index cron indexes it", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const scope = "faults:upsert";
    const stored = await expectJson(
      clientWith(upsertFails, clientKey).v1.memories.$post({
        json: { scope, content: "The cat sleeps on the warm windowsill every afternoon", memoryType: "fact" },
      }),
      201,
    );
    expect(stored.indexState).toBe("pending");

    // Not in the vector index yet: a paraphrase with no shared word finds nothing.
    const search = () => expectJson(api.v1.memories.search.$post({ json: { scope, query: "kitten napping by a sunny window" } }), 200);
    expect((await search()).results).toEqual([]);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: REINDEX_CRON, scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect((await expectJson(api.v1.memories[":id"].$get({ param: { id: stored.id } }), 200)).indexState).toBe("indexed");
    expect((await search()).results[0]).toMatchObject({ id: stored.id, matchedBy: ["vector"] });
  });
});

describe("when the vector index query fails", () => {
  it("answers lexically with degraded: vector_index", async () => {
    const { clientKey } = await newTenant();
    const scope = "faults:query";
    await expectJson(
      apiClient(clientKey).v1.memories.$post({ json: { scope, content: "Backups run nightly at 2am", memoryType: "fact" } }),
      201,
    );
    const found = await expectJson(
      clientWith(vectorIndexDown, clientKey).v1.memories.search.$post({ json: { scope, query: "when do backups run" } }),
      200,
    );
    expect(found.degraded).toEqual(["vector_index"]);
    expect(found.results[0]!.content).toBe("Backups run nightly at 2am");
  });
});
