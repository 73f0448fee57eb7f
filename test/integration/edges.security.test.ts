/**
 * The API's edges: caching and sniffing headers on every API answer, request ids that are the
 * service's own, JSON body rules on every route, 404 for shows that never existed, the dev key.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type Doc, operations } from "../../fuzz/schema";
import { assets } from "../../src/ui/assets";
import { call, newTenant } from "../support/api";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectNoStoreNoSniff(res: { headers: Headers }) {
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
}

describe("Cache-Control: no-store and X-Content-Type-Options: nosniff", () => {
  it("are on successes, on answers that carry a new key or secret, and on errors", async () => {
    const tenant = await newTenant();
    expectNoStoreNoSniff(await call("/v1/faqs?limit=1", { key: tenant.clientKey }));
    expectNoStoreNoSniff(await call("/v1/admin/keys", { key: tenant.adminKey, body: { role: "client" } }));
    expectNoStoreNoSniff(await call("/v1/admin/webhook-secrets", { key: tenant.adminKey, body: {} }));
    expectNoStoreNoSniff(await call("/v1/faqs", { key: "rk_wrong" }));
    expectNoStoreNoSniff(await call("/v1/memories", { key: tenant.clientKey, raw: "{not json" }));
    expectNoStoreNoSniff(await call("/v1/no-such-route", { key: tenant.clientKey }));
    expectNoStoreNoSniff(await call("/healthz"));
  });

  it("leave the screens' immutable assets their own caching (nosniff still on)", async () => {
    const [path] = [...assets.keys()];
    const res = await SELF.fetch(`https://recall.test${path!}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("request ids", () => {
  it("are the service's own on every answer, and the error envelope carries the same one", async () => {
    const res = await call("/v1/faqs", { key: "rk_wrong" });
    expect(res.status).toBe(401);
    expect(res.headers.get("x-request-id")).toMatch(UUID);
    expect(res.json!.error.requestId).toBe(res.headers.get("x-request-id"));
    const again = await call("/v1/faqs", { key: "rk_wrong" });
    expect(again.headers.get("x-request-id")).not.toBe(res.headers.get("x-request-id"));
  });

  it("never adopt a caller's x-request-id; a well-formed one is echoed in x-client-request-id", async () => {
    const res = await call("/v1/faqs", { key: "rk_wrong", headers: { "x-request-id": "someone-elses-request.42:a" } });
    expect(res.headers.get("x-request-id")).toMatch(UUID);
    expect(res.json!.error.requestId).toBe(res.headers.get("x-request-id"));
    expect(res.headers.get("x-client-request-id")).toBe("someone-elses-request.42:a");
  });

  it("ignore a malformed caller id (spaces, too long, control characters)", async () => {
    for (const bad of ["has spaces", "x".repeat(129), "semi;colon", "new\u0001line"]) {
      const res = await call("/v1/faqs", { key: "rk_wrong", headers: { "x-request-id": bad } });
      expect(res.headers.get("x-request-id")).toMatch(UUID);
      expect(res.headers.get("x-client-request-id")).toBeNull();
    }
  });

  it("are kept by in-process calls: an MCP tool's error carries the /mcp request's id", async () => {
    const tenant = await newTenant();
    const res = await call("/mcp", {
      key: tenant.clientKey,
      headers: { accept: "application/json, text/event-stream", "x-request-id": "client-1" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "faq_get", arguments: { id: "faq_does_not_exist" } } },
    });
    expect(res.status).toBe(200);
    const envelope = JSON.parse(res.json!.result.content[0].text as string) as { error: { code: string; requestId: string } };
    expect(envelope.error.code).toBe("NOT_FOUND");
    expect(envelope.error.requestId).toBe(res.headers.get("x-request-id"));
    expect(envelope.error.requestId).not.toBe("client-1");
  });
});

describe("JSON body rules on every route", () => {
  it("answers 400 INVALID_JSON to a malformed JSON body on every Bearer POST/PUT/PATCH, optional bodies included", async () => {
    const tenant = await newTenant();
    const doc = (await (await SELF.fetch("https://recall.test/openapi.json")).json()) as Doc;
    const writes = operations(doc).filter(({ method, op }) => ["post", "put", "patch"].includes(method) && op.security === undefined && !op["x-recall-always-200"]);
    expect(writes.length).toBeGreaterThan(30);
    const paths = writes.map(({ path }) => path);
    expect(paths).toContain("/v1/admin/reembed");
    expect(paths).toContain("/v1/shows/{showId}/end");
    for (const { method, path } of writes) {
      const concrete = path.replace(/\{[^}]+\}/g, "edge-json-x");
      for (const raw of ["{not json", "{\"a\": 1", "   "]) {
        const res = await call(concrete, { method: method.toUpperCase(), key: tenant.adminKey, raw });
        expect(`${method} ${path} ${JSON.stringify(raw)} → ${res.status} ${res.json?.error?.code}`).toBe(`${method} ${path} ${JSON.stringify(raw)} → 400 INVALID_JSON`);
      }
    }
  });

  it("still takes no body at all where the body is optional", async () => {
    const tenant = await newTenant();
    expect((await call("/v1/admin/reembed", { method: "POST", key: tenant.adminKey })).status).toBe(202);
  });
});

describe("shows that never existed", () => {
  it("cannot be ended (404), and stay writable: the first question afterwards is recorded", async () => {
    const tenant = await newTenant();
    const ended = await call("/v1/shows/never-existed-1/end", { key: tenant.clientKey, method: "POST" });
    expect(ended.status).toBe(404);
    expect(ended.json!.error.code).toBe("NOT_FOUND");
    const added = await call("/v1/shows/never-existed-1/questions", { key: tenant.clientKey, body: { questions: [{ text: "What did you eat today?" }] } });
    expect(added.status, JSON.stringify(added.json)).toBe(201);
    expect((await call("/v1/shows", { key: tenant.clientKey })).json!.shows.map((s: { showId: string }) => s.showId)).toEqual(["never-existed-1"]);
  });

  it("cannot be refreshed (404); a show that exists can be ended, twice", async () => {
    const tenant = await newTenant();
    expect((await call("/v1/shows/never-existed-2/refresh", { key: tenant.clientKey, body: { topic: "food" } })).status).toBe(404);
    await call("/v1/shows/real-show/questions", { key: tenant.clientKey, body: { questions: [{ text: "Where do you live?" }] } });
    expect((await call("/v1/shows/real-show/end", { key: tenant.clientKey, method: "POST" })).status).toBe(200);
    expect((await call("/v1/shows/real-show/end", { key: tenant.clientKey, method: "POST" })).status).toBe(200);
  });

  it("counts a configured show as existing: it can be ended before its first question", async () => {
    const tenant = await newTenant();
    expect((await call("/v1/shows/configured/config", { key: tenant.clientKey, method: "PUT", body: { similarityThreshold: 0.8 } })).status).toBe(200);
    expect((await call("/v1/shows/configured/end", { key: tenant.clientKey, method: "POST" })).status).toBe(200);
  });
});

describe("DELETE /v1/admin/keys/:id: the local dev key", () => {
  it("answers 409 DEV_KEY_PERMANENT for the dev key, which keeps working", async () => {
    const devKey = env.RECALL_DEV_API_KEY!;
    const listed = await call("/v1/admin/keys", { key: devKey });
    expect(listed.status).toBe(200);
    const dev = (listed.json!.keys as { id: string; name: string }[]).find((k) => k.name.includes("RECALL_DEV_API_KEY"));
    expect(dev).toBeDefined();
    const res = await call(`/v1/admin/keys/${dev!.id}`, { key: devKey, method: "DELETE" });
    expect(res.status).toBe(409);
    expect(res.json!.error.code).toBe("DEV_KEY_PERMANENT");
    expect(res.json!.error.message).toContain("RECALL_DEV_API_KEY");
    const after = await call("/v1/admin/keys", { key: devKey });
    expect(after.status).toBe(200);
    expect((after.json!.keys as { id: string; revokedAt: string | null }[]).find((k) => k.id === dev!.id)!.revokedAt).toBeNull();
  });

  it("is a 404 for another tenant's admin, like any key that is not theirs", async () => {
    const tenant = await newTenant();
    const res = await call("/v1/admin/keys/key_dev", { key: tenant.adminKey, method: "DELETE" });
    expect(res.status).toBe(404);
  });
});
