import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";
import { apiClient } from "../support/client";

describe("POST /v1/memories", () => {
  it("stores a memory and indexes its vector at once", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const res = await api.v1.memories.$post({
      json: { scope: "user:1", content: "How do I deploy to Vercel?", memoryType: "question", tags: ["deploy"] },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    if (res.status !== 201) return;
    const memory = await res.json();
    expect(memory).toMatchObject({ scope: "user:1", memoryType: "question", importance: 0.5, tags: ["deploy"], indexState: "indexed" });
    expect(memory.id).toMatch(/^mem_/);

    const fetched = await api.v1.memories[":id"].$get({ param: { id: memory.id } });
    expect(fetched.status).toBe(200);
    if (fetched.ok) expect((await fetched.json()).content).toBe("How do I deploy to Vercel?");
  });
});

describe("POST /v1/memories/search", () => {
  it("finds a memory by a paraphrase that shares no word with it (vector path)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:paraphrase";
    for (const content of [
      "The cat sleeps on the warm windowsill every afternoon",
      "Quarterly revenue grew by twelve percent",
      "How do I reset my password?",
    ]) {
      expect((await api.v1.memories.$post({ json: { scope, content, memoryType: "fact" } })).status).toBe(201);
    }
    const res = await api.v1.memories.search.$post({ json: { scope, query: "kitten napping by a sunny window" } });
    expect(res.status).toBe(200);
    if (!res.ok) return;
    const { results, degraded } = await res.json();
    expect(results[0]).toMatchObject({ content: "The cat sleeps on the warm windowsill every afternoon", matchedBy: ["vector"] });
    expect(degraded).toEqual([]);
  });

  it("finds a memory by an exact keyword (full-text path)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:keyword";
    for (const content of ["Invoice PO-12345 was paid late", "Invoices are sent monthly", "Error E500 means the disk is full"]) {
      await api.v1.memories.$post({ json: { scope, content, memoryType: "fact" } });
    }
    const res = await api.v1.memories.search.$post({ json: { scope, query: "PO-12345" } });
    if (!res.ok) throw new Error(`search answered ${res.status}`);
    const { results } = await res.json();
    expect(results[0]).toMatchObject({ content: "Invoice PO-12345 was paid late" });
    expect(results[0]!.matchedBy).toContain("bm25");
  });
});
