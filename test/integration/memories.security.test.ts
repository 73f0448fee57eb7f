import { describe, expect, it } from "vitest";
import { newTenant, send } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";

const search = { json: { scope: "s", query: "q" } };

describe("authentication", () => {
  it("answers 401 without a key", async () => {
    await expectError(apiClient().v1.memories.search.$post(search), 401, "UNAUTHORIZED");
  });

  it("answers 401 for a wrong key and for a malformed header", async () => {
    await expectError(apiClient("rk_not_a_real_key").v1.memories.search.$post(search), 401);
    // Not a Bearer header: sent raw.
    await expectError(send("/v1/memories/search", { headers: { authorization: "Basic abc" }, body: search.json }), 401);
  });

  it("answers 401 for a revoked key", async () => {
    const admin = apiClient((await newTenant()).adminKey);
    const created = await expectJson(admin.v1.admin.keys.$post({ json: { role: "client", name: "ci" } }), 201);
    expect(created.key).toMatch(/^rk_/);
    await expectJson(apiClient(created.key).v1.memories.search.$post(search), 200);
    expect((await admin.v1.admin.keys[":id"].$delete({ param: { id: created.id } })).status).toBe(204);
    await expectError(apiClient(created.key).v1.memories.search.$post(search), 401);
  });

  it("keeps admin routes from client keys (403)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    await expectError(api.v1.admin.keys.$post({ json: { role: "admin" } }), 403, "FORBIDDEN");
  });

  it("lists keys without their secrets", async () => {
    const { adminKey } = await newTenant();
    const res = await expectJson(apiClient(adminKey).v1.admin.keys.$get({ query: {} }), 200);
    expect(res.keys).toHaveLength(2);
    expect(JSON.stringify(res)).not.toContain(adminKey);
    expect(JSON.stringify(res)).not.toMatch(/hash/i);
  });

  it("accepts the local dev key (RECALL_DEV_API_KEY) as an admin of the dev tenant", async () => {
    await expectJson(apiClient("rk_test_dev_key").v1.admin.keys.$get({ query: {} }), 200);
  });
});

describe("tenant isolation", () => {
  it("never shows another tenant's memory: get, delete and search", async () => {
    const alice = apiClient((await newTenant("alice")).clientKey);
    const mallory = apiClient((await newTenant("mallory")).clientKey);
    const scope = "shared-scope-name";
    const created = await expectJson(
      alice.v1.memories.$post({ json: { scope, content: "Alice's secret launch date is March 3", memoryType: "fact" } }),
      201,
    );
    const param = { id: created.id };

    const get = await expectError(mallory.v1.memories[":id"].$get({ param }), 404);
    expect(JSON.stringify(get)).not.toContain("secret");

    await expectError(mallory.v1.memories[":id"].$delete({ param }), 404);

    const found = await expectJson(mallory.v1.memories.search.$post({ json: { scope, query: "secret launch date" } }), 200);
    expect(found.results).toEqual([]);

    // And it is still there for its owner.
    await expectJson(alice.v1.memories[":id"].$get({ param }), 200);
  });
});

describe("DELETE /v1/memories/:id", () => {
  it("removes the memory from reads and from both search paths", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "delete-me";
    const created = await expectJson(
      api.v1.memories.$post({ json: { scope, content: "Temporary note about Kubernetes", memoryType: "fact" } }),
      201,
    );
    const param = { id: created.id };
    expect((await api.v1.memories[":id"].$delete({ param })).status).toBe(204);
    await expectError(api.v1.memories[":id"].$get({ param }), 404);
    const found = await expectJson(api.v1.memories.search.$post({ json: { scope, query: "Kubernetes note" } }), 200);
    expect(found.results).toEqual([]);
  });
});
