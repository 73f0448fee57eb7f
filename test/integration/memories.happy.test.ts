import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";

describe("POST /v1/memories", () => {
  it("stores a memory and indexes its vector at once", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/memories", {
      key: clientKey,
      body: { scope: "user:1", content: "How do I deploy to Vercel?", memoryType: "question", tags: ["deploy"] },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      scope: "user:1",
      memoryType: "question",
      importance: 0.5,
      tags: ["deploy"],
      indexState: "indexed",
    });
    expect(res.json?.id).toMatch(/^mem_/);
    expect(res.headers.get("x-request-id")).toBeTruthy();

    const fetched = await call(`/v1/memories/${res.json?.id}`, { key: clientKey });
    expect(fetched.status).toBe(200);
    expect(fetched.json?.content).toBe("How do I deploy to Vercel?");
  });
});

describe("POST /v1/memories/search", () => {
  it("finds a memory by a paraphrase that shares no word with it (vector path)", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:paraphrase";
    for (const content of [
      "The cat sleeps on the warm windowsill every afternoon",
      "Quarterly revenue grew by twelve percent",
      "How do I reset my password?",
    ]) {
      expect((await call("/v1/memories", { key: clientKey, body: { scope, content, memoryType: "fact" } })).status).toBe(201);
    }
    const res = await call("/v1/memories/search", { key: clientKey, body: { scope, query: "kitten napping by a sunny window" } });
    expect(res.status).toBe(200);
    expect(res.json?.results[0]).toMatchObject({
      content: "The cat sleeps on the warm windowsill every afternoon",
      matchedBy: ["vector"],
    });
    expect(res.json?.degraded).toEqual([]);
  });

  it("finds a memory by an exact keyword (full-text path)", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:keyword";
    for (const content of ["Invoice PO-12345 was paid late", "Invoices are sent monthly", "Error E500 means the disk is full"]) {
      await call("/v1/memories", { key: clientKey, body: { scope, content, memoryType: "fact" } });
    }
    const res = await call("/v1/memories/search", { key: clientKey, body: { scope, query: "PO-12345" } });
    expect(res.json?.results[0]).toMatchObject({ content: "Invoice PO-12345 was paid late" });
    expect(res.json?.results[0].matchedBy).toContain("bm25");
  });
});
