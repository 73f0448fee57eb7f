import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { REINDEX_CRON } from "../../src/app/cron";
import worker from "../../workers/api";
import { newTenant } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";

const OLD_MODEL = "old-model-256";

/** Makes the tenant's memories look embedded by another model: its vectors (of another size) and the rows' model. */
async function pretendEmbeddedBy(tenantId: string, model: string) {
  const { results } = await env.DB.prepare("SELECT id, scope, memory_type FROM memories WHERE tenant_id = ?")
    .bind(tenantId)
    .all<{ id: string; scope: string; memory_type: string }>();
  await env.DB.batch([
    env.DB.prepare("DELETE FROM vectors WHERE tenant_id = ?").bind(tenantId),
    env.DB.prepare("UPDATE memories SET embedding_model = ? WHERE tenant_id = ?").bind(model, tenantId),
    env.DB.prepare("UPDATE vector_collections SET counter = counter + 1 WHERE tenant_id = ?").bind(tenantId),
    ...results.map((r) =>
      env.DB.prepare(
        "INSERT INTO vectors (tenant_id, collection, id, model, dimensions, vector, metadata, updated_at) VALUES (?, 'memories', ?, ?, 256, ?, ?, 0)",
      ).bind(tenantId, r.id, model, new Float32Array(256).fill(0.1).buffer, JSON.stringify({ scope: r.scope, memoryType: r.memory_type })),
    ),
  ]);
}

describe("POST /v1/admin/reembed", () => {
  it("puts rows of another model back in the outbox, drops their vectors, and the cron re-embeds them", async () => {
    const { clientKey, adminKey, tenantId } = await newTenant();
    const api = apiClient(clientKey);
    const admin = apiClient(adminKey);
    const scope = "reembed";
    const stored = await expectJson(
      api.v1.memories.$post({ json: { scope, content: "The cat sleeps on the warm windowsill every afternoon", memoryType: "fact" } }),
      201,
    );
    const readStored = () => expectJson(api.v1.memories[":id"].$get({ param: { id: stored.id } }), 200);
    await pretendEmbeddedBy(tenantId, OLD_MODEL);

    // The index now holds another model's vectors: a new vector is refused, so the write stays pending.
    const blocked = await expectJson(
      api.v1.memories.$post({ json: { scope, content: "Deploys happen on Tuesdays", memoryType: "fact" } }),
      201,
    );
    expect(blocked.indexState).toBe("pending");

    const res = await expectJson(admin.v1.admin.reembed.$post(), 202);
    expect(res).toEqual({ model: "use-lite-512", marked: { memories: 1, faqs: 0, faq_variants: 0 } });
    expect((await readStored()).indexState).toBe("pending");
    const old = await env.DB.prepare("SELECT COUNT(*) AS n FROM vectors WHERE tenant_id = ? AND model = ?")
      .bind(tenantId, OLD_MODEL)
      .first<{ n: number }>();
    expect(old?.n).toBe(0);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: REINDEX_CRON, scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect((await readStored()).indexState).toBe("indexed");
    const found = await expectJson(api.v1.memories.search.$post({ json: { scope, query: "kitten napping by a sunny window" } }), 200);
    expect(found.results[0]).toMatchObject({ id: stored.id });
    expect(found.results[0]!.matchedBy).toContain("vector");
    // Running it again finds nothing left on the old model.
    expect((await expectJson(admin.v1.admin.reembed.$post(), 202)).marked).toEqual({ memories: 0, faqs: 0, faq_variants: 0 });
  });

  it("is for admins only", async () => {
    await expectError(apiClient((await newTenant()).clientKey).v1.admin.reembed.$post(), 403);
  });
});
