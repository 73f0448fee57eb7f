import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../workers/api";
import { REINDEX_CRON } from "../../src/app/cron";
import { emptiest, expectedTenantBytes } from "../../src/core/placement/emptiest";
import { BOOKMARK_HEADER, latestByDatabase } from "../../src/http/bookmark";
import { loadSealingKey } from "../../src/http/sealed";
import { newTenant, send, type TestTenant } from "../support/api";
import { clientWith, embedderDown } from "../support/app";
import { apiClient, expectError, expectJson } from "../support/client";
import { deliver, expectDelivered, newWebhookSecret, ticket, waitForDecision } from "../support/tickets";

const OPERATOR_KEY = env.RECALL_DEV_API_KEY!;
const operator = () => apiClient(OPERATOR_KEY).v1.admin;
const placedDb = () => env.DB_1!;

/** A tenant in DB_1 with a client key beside its first admin key, as a newTenant() at home has. */
async function placedTenant(name = "placed tenant"): Promise<TestTenant> {
  const created = await expectJson(operator().tenants.$post({ json: { name, database: "DB_1" } }), 201);
  expect(created.tenant.database).toBe("DB_1");
  const client = await expectJson(apiClient(created.key.key).v1.admin.keys.$post({ json: { role: "client" } }), 201);
  return { tenantId: created.tenant.id, adminKey: created.key.key, clientKey: client.key };
}

const countIn = async (db: D1Database, table: string, tenantId: string) =>
  (await db.prepare(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = ?`).bind(tenantId).first<{ n: number }>())!.n;

describe("tenants placed in another database", () => {
  it("keeps a placed tenant's rows in its database and its keys at home", async () => {
    const tenant = await placedTenant();
    const api = apiClient(tenant.clientKey);
    const scope = "placement";
    const stored = await expectJson(
      api.v1.memories.$post({ json: { scope, content: "Our warehouse in Lyon ships orders within two days", memoryType: "fact" } }),
      201,
    );
    const faq = await expectJson(
      apiClient(tenant.adminKey).v1.faqs.$post({ json: { question: "How long does shipping from Lyon take?", answer: "Two days." } }),
      201,
    );

    expect(await countIn(placedDb(), "memories", tenant.tenantId)).toBe(1);
    expect(await countIn(placedDb(), "faqs", tenant.tenantId)).toBe(1);
    expect(await countIn(placedDb(), "vectors", tenant.tenantId)).toBeGreaterThanOrEqual(2);
    for (const table of ["memories", "faqs", "vectors", "faq_versions"]) expect(await countIn(env.DB, table, tenant.tenantId)).toBe(0);
    expect(await countIn(env.DB, "api_keys", tenant.tenantId)).toBe(2);
    expect(await countIn(placedDb(), "api_keys", tenant.tenantId)).toBe(0);

    // Read back through every path: by id, vector search, keyword search, FAQ search and context.
    expect((await expectJson(api.v1.memories[":id"].$get({ param: { id: stored.id } }), 200)).content).toContain("Lyon");
    const search = await expectJson(api.v1.memories.search.$post({ json: { scope, query: "how fast do parcels leave the depot" } }), 200);
    expect(search.results[0]?.id).toBe(stored.id);
    const faqs = await expectJson(api.v1.faqs.search.$post({ json: { query: "shipping time from Lyon" } }), 200);
    expect(faqs.results[0]?.id).toBe(faq.id);
  });

  it("never shows one database's tenant to another tenant, nor the home tenant's rows to a placed one", async () => {
    const placed = await placedTenant();
    const home = await newTenant();
    const scope = "placement-isolation";
    const content = "The staging password rotates every Monday morning";
    await expectJson(apiClient(placed.clientKey).v1.memories.$post({ json: { scope, content, memoryType: "fact" } }), 201);
    await expectJson(apiClient(home.clientKey).v1.memories.$post({ json: { scope, content, memoryType: "fact" } }), 201);
    for (const tenant of [placed, home]) {
      const found = await expectJson(
        apiClient(tenant.clientKey).v1.memories.search.$post({ json: { scope, query: "staging password" } }),
        200,
      );
      expect(found.results).toHaveLength(1);
    }
    expect(await countIn(placedDb(), "memories", home.tenantId)).toBe(0);
    expect(await countIn(env.DB, "memories", placed.tenantId)).toBe(0);
  });

  it("takes a placed tenant's signed tickets into its database and decides them there", async () => {
    const tenant = await placedTenant();
    await apiClient(tenant.adminKey).v1.faqs.$post({
      json: { question: "How do I reset my password?", answer: "Use the link on the sign-in page." },
    });
    const secret = await newWebhookSecret(tenant);
    const delivered = await expectDelivered(
      deliver(tenant, secret, ticket("How can I reset my password?", "Use the sign-in page's link.")),
    );
    const decided = await waitForDecision(tenant, delivered.id);
    expect(decided.status).not.toBe("received");
    expect(await countIn(placedDb(), "tickets", tenant.tenantId)).toBe(1);
    expect(await countIn(env.DB, "tickets", tenant.tenantId)).toBe(0);
    // The secret that signs its webhooks is found before the tenant's database is known: at home.
    expect(await countIn(env.DB, "webhook_secrets", tenant.tenantId)).toBe(1);
  });

  it("carries a bookmark for each database a request used, and starts each database's session from its own", async () => {
    const tenant = await placedTenant("placed bookmarks");
    await loadSealingKey(env.DB);
    const write = await send("/v1/memories", {
      key: tenant.clientKey,
      body: { scope: "placement-bookmarks", content: "The Oslo office closes early on Fridays", memoryType: "fact" },
    });
    expect(write.status).toBe(201);
    const sent = write.headers.get(BOOKMARK_HEADER)!;
    const written = latestByDatabase(sent);
    expect([...written.keys()].sort()).toEqual(["DB", "DB_1"]);
    const read = await send("/v1/memories/search", {
      key: tenant.clientKey,
      body: { scope: "placement-bookmarks", query: "Oslo office hours" },
      headers: { [BOOKMARK_HEADER]: sent },
    });
    expect(read.status).toBe(200);
    const answered = latestByDatabase(read.headers.get(BOOKMARK_HEADER)!);
    expect(answered.get("DB_1")!.localeCompare(written.get("DB_1")!)).toBeGreaterThanOrEqual(0);
  });

  it("runs the re-index cron on every database", async () => {
    const tenant = await placedTenant();
    const scope = "placement-cron";
    const stored = await expectJson(
      clientWith(embedderDown, tenant.clientKey).v1.memories.$post({
        json: { scope, content: "The night shift starts at ten in the Rotterdam office", memoryType: "fact" },
      }),
      201,
    );
    expect(stored.indexState).toBe("pending");

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: REINDEX_CRON, scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);

    const api = apiClient(tenant.clientKey);
    expect((await expectJson(api.v1.memories[":id"].$get({ param: { id: stored.id } }), 200)).indexState).toBe("indexed");
  });
});

describe("POST /v1/admin/tenants and GET /v1/admin/databases", () => {
  it("places a new tenant where the placement policy says when none is named, with its size and tenants as it reads them", async () => {
    const before = await expectJson(operator().databases.$get(), 200);
    expect(before.databases.map((d) => d.name)).toEqual(["DB", "DB_1"]);
    const tenants = before.databases.reduce((sum, d) => sum + d.tenants, 0);
    const chosen = emptiest(before.databases, { tenantBytes: expectedTenantBytes(before.databases, tenants) })!;
    const created = await expectJson(operator().tenants.$post({ json: { name: "Acme Support" } }), 201);
    expect(created.tenant.database).toBe(chosen);
    expect(created.key).toMatchObject({ role: "admin", tenantId: created.tenant.id });
    const after = await expectJson(operator().databases.$get(), 200);
    const tenantsIn = (list: typeof before, name: string) => list.databases.find((d) => d.name === name)!.tenants;
    expect(tenantsIn(after, chosen)).toBe(tenantsIn(before, chosen) + 1);
    // The new key works at once, on its database.
    const api = apiClient(created.key.key);
    await expectJson(
      api.v1.memories.$post({ json: { scope: "first", content: "A first memory of a new tenant", memoryType: "fact" } }),
      201,
    );
  });

  it("refuses a database the deployment does not have, and anyone but the operator's admins", async () => {
    await expectError(operator().tenants.$post({ json: { name: "Nowhere", database: "DB_7" } }), 400, "VALIDATION_FAILED");
    const other = await newTenant();
    await expectError(apiClient(other.adminKey).v1.admin.tenants.$post({ json: { name: "Sneaky" } }), 403, "FORBIDDEN");
    await expectError(apiClient(other.adminKey).v1.admin.databases.$get(), 403, "FORBIDDEN");
  });
});
