import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";

const valid = { scope: "user:err", content: "A perfectly fine memory", memoryType: "fact" };

function expectEnvelope(json: Record<string, any> | null, code: string) {
  expect(json?.error).toMatchObject({ code, message: expect.any(String), requestId: expect.any(String) });
  expect(JSON.stringify(json)).not.toMatch(/at \w+ \(|SQLITE|SELECT |INSERT /);
}

describe("POST /v1/memories with bad input", () => {
  it("answers 400 INVALID_JSON for malformed JSON", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/memories", { key: clientKey, raw: '{"scope": "x", ' });
    expect(res.status).toBe(400);
    expectEnvelope(res.json, "INVALID_JSON");
  });

  it("answers 400 listing every missing or mistyped field", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/memories", { key: clientKey, body: { scope: 42, importance: "high" } });
    expect(res.status).toBe(400);
    expectEnvelope(res.json, "VALIDATION_FAILED");
    const paths = res.json?.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["scope", "content", "memoryType", "importance"]));
  });

  it("rejects unknown fields instead of ignoring them", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/memories", { key: clientKey, body: { ...valid, memory_type: "fact" } });
    expect(res.status).toBe(400);
    expectEnvelope(res.json, "VALIDATION_FAILED");
  });

  it.each([
    ["empty content", { ...valid, content: "   " }],
    ["20 kB content", { ...valid, content: "x".repeat(20_000) }],
    ["an unknown memoryType", { ...valid, memoryType: "opinion" }],
    ["importance above 1", { ...valid, importance: 1.5 }],
    ["a scope with control characters", { ...valid, scope: "user\u0000x" }],
  ])("answers 400 for %s", async (_name, body) => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/memories", { key: clientKey, body });
    expect(res.status).toBe(400);
    expectEnvelope(res.json, "VALIDATION_FAILED");
  });

  it("answers 413 for a body over the size limit", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/memories", { key: clientKey, raw: JSON.stringify({ ...valid, content: "y".repeat(300_000) }) });
    expect(res.status).toBe(413);
    expectEnvelope(res.json, "PAYLOAD_TOO_LARGE");
  });

  it("answers 415 for a body that is not JSON", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/memories", { key: clientKey, raw: "scope=x", headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(415);
    expectEnvelope(res.json, "UNSUPPORTED_MEDIA_TYPE");
  });
});

describe("POST /v1/memories/search with bad input", () => {
  it.each([
    ["limit above 50", { scope: "s", query: "q", limit: 51 }],
    ["limit 0", { scope: "s", query: "q", limit: 0 }],
    ["an empty query", { scope: "s", query: "" }],
    ["an unknown memory type filter", { scope: "s", query: "q", memoryTypes: ["rumour"] }],
  ])("answers 400 for %s", async (_name, body) => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/memories/search", { key: clientKey, body });
    expect(res.status).toBe(400);
    expectEnvelope(res.json, "VALIDATION_FAILED");
  });

  it.each(['NEAR(" OR *', "AND OR NOT", '"unbalanced', "col:value ^start", "🙂🙂🙂", "!!!???"])(
    "treats FTS5 syntax as plain text: %s",
    async (query) => {
      const { clientKey } = await newTenant();
      await call("/v1/memories", { key: clientKey, body: { ...valid, scope: "fts", content: "near the start of the value" } });
      const res = await call("/v1/memories/search", { key: clientKey, body: { scope: "fts", query } });
      expect(res.status).toBe(200);
      expect(Array.isArray(res.json?.results)).toBe(true);
    },
  );
});

describe("unknown routes", () => {
  it("answer 404 in the envelope", async () => {
    const res = await call("/v1/nothing-here", { key: "whatever" });
    expect(res.status).toBe(401);
    const open = await call("/nothing-here");
    expect(open.status).toBe(404);
    expectEnvelope(open.json, "NOT_FOUND");
  });

  it("answer 404 for an authenticated caller too", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/nothing-here", { key: clientKey });
    expect(res.status).toBe(404);
    expectEnvelope(res.json, "NOT_FOUND");
  });
});
