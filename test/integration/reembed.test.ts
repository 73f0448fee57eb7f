import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { REINDEX_CRON } from "../../src/upkeep/cron";
import worker from "../../workers/api";
import { call, newTenant } from "../support/api";

const OLD_MODEL = "old-model-256";

/** Makes the tenant's memories look embedded by another model: its vectors (of another size) and the rows' model. */
async function pretendEmbeddedBy(tenantId: string, model: string) {
  const { results } = await env.DB.prepare("SELECT id, scope, memory_type FROM memories WHERE tenant_id = ?").bind(tenantId).all<{ id: string; scope: string; memory_type: string }>();
  await env.DB.batch([
    env.DB.prepare("DELETE FROM vectors WHERE tenant_id = ?").bind(tenantId),
    env.DB.prepare("UPDATE memories SET embedding_model = ? WHERE tenant_id = ?").bind(model, tenantId),
    env.DB.prepare("UPDATE vector_collections SET counter = counter + 1 WHERE tenant_id = ?").bind(tenantId),
    ...results.map((r) =>
      env.DB.prepare("INSERT INTO vectors (tenant_id, collection, id, model, dimensions, vector, metadata, updated_at) VALUES (?, 'memories', ?, ?, 256, ?, ?, 0)").bind(
        tenantId,
        r.id,
        model,
        new Float32Array(256).fill(0.1).buffer,
        JSON.stringify({ scope: r.scope, memoryType: r.memory_type }),
      ),
    ),
  ]);
}

describe("POST /v1/admin/reembed", () => {
  it("puts rows of another model back in the outbox, drops their vectors, and the cron re-embeds them", async () => {
    const { clientKey, adminKey, tenantId } = await newTenant();
    const scope = "reembed";
    const stored = await call("/v1/memories", { key: clientKey, body: { scope, content: "The cat sleeps on the warm windowsill every afternoon", memoryType: "fact" } });
    await pretendEmbeddedBy(tenantId, OLD_MODEL);

    // The index now holds another model's vectors: a new vector is refused, so the write stays pending.
    const blocked = await call("/v1/memories", { key: clientKey, body: { scope, content: "Deploys happen on Tuesdays", memoryType: "fact" } });
    expect(blocked.json?.indexState).toBe("pending");

    const res = await call("/v1/admin/reembed", { method: "POST", key: adminKey });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ model: "use-lite-512", marked: { memories: 1, faqs: 0, faq_variants: 0 } });
    expect((await call(`/v1/memories/${stored.json?.id}`, { key: clientKey })).json?.indexState).toBe("pending");
    const old = await env.DB.prepare("SELECT COUNT(*) AS n FROM vectors WHERE tenant_id = ? AND model = ?").bind(tenantId, OLD_MODEL).first<{ n: number }>();
    expect(old?.n).toBe(0);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: REINDEX_CRON, scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect((await call(`/v1/memories/${stored.json?.id}`, { key: clientKey })).json?.indexState).toBe("indexed");
    const found = await call("/v1/memories/search", { key: clientKey, body: { scope, query: "kitten napping by a sunny window" } });
    expect(found.json?.results[0]).toMatchObject({ id: stored.json?.id });
    expect(found.json?.results[0].matchedBy).toContain("vector");
    // Running it again finds nothing left on the old model.
    expect((await call("/v1/admin/reembed", { method: "POST", key: adminKey })).json?.marked).toEqual({ memories: 0, faqs: 0, faq_variants: 0 });
  });

  it("is for admins only", async () => {
    const { clientKey } = await newTenant();
    expect((await call("/v1/admin/reembed", { method: "POST", key: clientKey })).status).toBe(403);
  });
});
