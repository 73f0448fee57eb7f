import { describe, expect, it } from "vitest";
import type { ErrorCode } from "../../src/http/error-codes";
import { newTenant, send } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";

// Bad input on purpose: these requests go through send() (raw), the typed client would not build them.
const valid = { scope: "user:err", content: "A perfectly fine memory", memoryType: "fact" } as const;

async function expectEnvelope(response: Promise<Response>, status: number, code: ErrorCode) {
  const body = await expectError(response, status, code);
  expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|SQLITE|SELECT |INSERT /);
  return body;
}

describe("POST /v1/memories with bad input", () => {
  it("answers 400 INVALID_JSON for malformed JSON", async () => {
    const { clientKey } = await newTenant();
    await expectEnvelope(send("/v1/memories", { key: clientKey, raw: '{"scope": "x", ' }), 400, "INVALID_JSON");
  });

  it("answers 400 listing every missing or mistyped field", async () => {
    const { clientKey } = await newTenant();
    const res = await expectEnvelope(
      send("/v1/memories", { key: clientKey, body: { scope: 42, importance: "high" } }),
      400,
      "VALIDATION_FAILED",
    );
    const paths = res.error.details!.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["scope", "content", "memoryType", "importance"]));
  });

  it("rejects unknown fields instead of ignoring them", async () => {
    const { clientKey } = await newTenant();
    await expectEnvelope(send("/v1/memories", { key: clientKey, body: { ...valid, memory_type: "fact" } }), 400, "VALIDATION_FAILED");
  });

  it.each([
    ["empty content", { ...valid, content: "   " }],
    ["20 kB content", { ...valid, content: "x".repeat(20_000) }],
    ["an unknown memoryType", { ...valid, memoryType: "opinion" }],
    ["importance above 1", { ...valid, importance: 1.5 }],
    ["a scope with control characters", { ...valid, scope: "user\u0000x" }],
  ])("answers 400 for %s", async (_name, body) => {
    const { clientKey } = await newTenant();
    await expectEnvelope(send("/v1/memories", { key: clientKey, body }), 400, "VALIDATION_FAILED");
  });

  it("answers 413 for a body over the size limit", async () => {
    const { clientKey } = await newTenant();
    await expectEnvelope(
      send("/v1/memories", { key: clientKey, raw: JSON.stringify({ ...valid, content: "y".repeat(300_000) }) }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
  });

  it("answers 415 for a body that is not JSON", async () => {
    const { clientKey } = await newTenant();
    await expectEnvelope(
      send("/v1/memories", { key: clientKey, raw: "scope=x", headers: { "content-type": "text/plain" } }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
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
    await expectEnvelope(send("/v1/memories/search", { key: clientKey, body }), 400, "VALIDATION_FAILED");
  });

  it.each(['NEAR(" OR *', "AND OR NOT", '"unbalanced', "col:value ^start", "🙂🙂🙂", "!!!???"])(
    "treats FTS5 syntax as plain text: %s",
    async (query) => {
      const api = apiClient((await newTenant()).clientKey);
      await expectJson(api.v1.memories.$post({ json: { ...valid, scope: "fts", content: "near the start of the value" } }), 201);
      const res = await expectJson(api.v1.memories.search.$post({ json: { scope: "fts", query } }), 200);
      expect(Array.isArray(res.results)).toBe(true);
    },
  );
});

describe("unknown routes", () => {
  it("answer 404 in the envelope, before the key is checked (the route table is public in /openapi.json)", async () => {
    await expectEnvelope(send("/v1/nothing-here", { key: "whatever" }), 404, "NOT_FOUND");
    await expectEnvelope(send("/nothing-here"), 404, "NOT_FOUND");
  });

  it("answer 404 for an authenticated caller too", async () => {
    const { clientKey } = await newTenant();
    await expectEnvelope(send("/v1/nothing-here", { key: clientKey }), 404, "NOT_FOUND");
  });
});
