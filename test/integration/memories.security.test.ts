import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";

describe("authentication", () => {
  it("answers 401 without a key", async () => {
    const res = await call("/v1/memories/search", { body: { scope: "s", query: "q" } });
    expect(res.status).toBe(401);
    expect(res.json?.error.code).toBe("UNAUTHORIZED");
  });

  it("answers 401 for a wrong key and for a malformed header", async () => {
    expect((await call("/v1/memories/search", { key: "rk_not_a_real_key", body: { scope: "s", query: "q" } })).status).toBe(401);
    const res = await call("/v1/memories/search", { headers: { authorization: "Basic abc" }, body: { scope: "s", query: "q" } });
    expect(res.status).toBe(401);
  });

  it("answers 401 for a revoked key", async () => {
    const { adminKey } = await newTenant();
    const created = await call("/v1/admin/keys", { key: adminKey, body: { role: "client", name: "ci" } });
    expect(created.status).toBe(201);
    expect(created.json?.key).toMatch(/^rk_/);
    expect((await call("/v1/memories/search", { key: created.json?.key, body: { scope: "s", query: "q" } })).status).toBe(200);
    expect((await call(`/v1/admin/keys/${created.json?.id}`, { method: "DELETE", key: adminKey })).status).toBe(204);
    expect((await call("/v1/memories/search", { key: created.json?.key, body: { scope: "s", query: "q" } })).status).toBe(401);
  });

  it("keeps admin routes from client keys (403)", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/admin/keys", { key: clientKey, body: { role: "admin" } });
    expect(res.status).toBe(403);
    expect(res.json?.error.code).toBe("FORBIDDEN");
  });

  it("lists keys without their secrets", async () => {
    const { adminKey } = await newTenant();
    const res = await call("/v1/admin/keys", { key: adminKey });
    expect(res.status).toBe(200);
    expect(res.json?.keys).toHaveLength(2);
    expect(JSON.stringify(res.json)).not.toContain(adminKey);
    expect(JSON.stringify(res.json)).not.toMatch(/hash/i);
  });

  it("accepts the local dev key (RECALL_DEV_API_KEY) as an admin of the dev tenant", async () => {
    const res = await call("/v1/admin/keys", { key: "rk_test_dev_key" });
    expect(res.status).toBe(200);
  });
});

describe("tenant isolation", () => {
  it("never shows another tenant's memory: get, delete and search", async () => {
    const alice = await newTenant("alice");
    const mallory = await newTenant("mallory");
    const scope = "shared-scope-name";
    const created = await call("/v1/memories", {
      key: alice.clientKey,
      body: { scope, content: "Alice's secret launch date is March 3", memoryType: "fact" },
    });
    const id = created.json?.id;

    const get = await call(`/v1/memories/${id}`, { key: mallory.clientKey });
    expect(get.status).toBe(404);
    expect(JSON.stringify(get.json)).not.toContain("secret");

    expect((await call(`/v1/memories/${id}`, { method: "DELETE", key: mallory.clientKey })).status).toBe(404);

    const search = await call("/v1/memories/search", { key: mallory.clientKey, body: { scope, query: "secret launch date" } });
    expect(search.status).toBe(200);
    expect(search.json?.results).toEqual([]);

    // And it is still there for its owner.
    expect((await call(`/v1/memories/${id}`, { key: alice.clientKey })).status).toBe(200);
  });
});

describe("DELETE /v1/memories/:id", () => {
  it("removes the memory from reads and from both search paths", async () => {
    const { clientKey } = await newTenant();
    const scope = "delete-me";
    const created = await call("/v1/memories", {
      key: clientKey,
      body: { scope, content: "Temporary note about Kubernetes", memoryType: "fact" },
    });
    expect((await call(`/v1/memories/${created.json?.id}`, { method: "DELETE", key: clientKey })).status).toBe(204);
    expect((await call(`/v1/memories/${created.json?.id}`, { key: clientKey })).status).toBe(404);
    const search = await call("/v1/memories/search", { key: clientKey, body: { scope, query: "Kubernetes note" } });
    expect(search.json?.results).toEqual([]);
  });
});
