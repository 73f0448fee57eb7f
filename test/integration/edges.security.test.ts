/**
 * The API's edges: caching and sniffing headers on every API answer, request ids that are the
 * service's own, JSON body rules on every route, 404 for shows that never existed, the dev key.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type Doc, operations, parameters } from "../../fuzz/schema";
import { assets } from "../../src/ui/assets";
import { newTenant, send } from "../support/api";
import { apiClient, type ApiError, expectError, expectJson } from "../support/client";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectNoStoreNoSniff(res: { headers: Headers }) {
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
}

describe("Cache-Control: no-store and X-Content-Type-Options: nosniff", () => {
  it("are on successes, on answers that carry a new key or secret, and on errors", async () => {
    const tenant = await newTenant();
    const admin = apiClient(tenant.adminKey);
    expectNoStoreNoSniff(await apiClient(tenant.clientKey).v1.faqs.$get({ query: { limit: "1" } }));
    expectNoStoreNoSniff(await admin.v1.admin.keys.$post({ json: { role: "client" } }));
    expectNoStoreNoSniff(await admin.v1.admin["webhook-secrets"].$post({ json: {} }));
    expectNoStoreNoSniff(await apiClient("rk_wrong").v1.faqs.$get({ query: {} }));
    // A malformed body and a route that does not exist: the typed client would send neither.
    expectNoStoreNoSniff(await send("/v1/memories", { key: tenant.clientKey, raw: "{not json" }));
    expectNoStoreNoSniff(await send("/v1/no-such-route", { key: tenant.clientKey }));
    expectNoStoreNoSniff(await apiClient().healthz.$get());
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
    const wrong = apiClient("rk_wrong");
    const res = await wrong.v1.faqs.$get({ query: {} });
    const body = await expectError(res, 401);
    expect(res.headers.get("x-request-id")).toMatch(UUID);
    expect(body.error.requestId).toBe(res.headers.get("x-request-id"));
    const again = await wrong.v1.faqs.$get({ query: {} });
    expect(again.headers.get("x-request-id")).not.toBe(res.headers.get("x-request-id"));
  });

  it("never adopt a caller's x-request-id; a well-formed one is echoed in x-client-request-id", async () => {
    const res = await apiClient("rk_wrong", { "x-request-id": "someone-elses-request.42:a" }).v1.faqs.$get({ query: {} });
    const body = await expectError(res, 401);
    expect(res.headers.get("x-request-id")).toMatch(UUID);
    expect(body.error.requestId).toBe(res.headers.get("x-request-id"));
    expect(res.headers.get("x-client-request-id")).toBe("someone-elses-request.42:a");
  });

  it("ignore a malformed caller id (spaces, too long, control characters)", async () => {
    for (const bad of ["has spaces", "x".repeat(129), "semi;colon", "new\u0001line"]) {
      const res = await apiClient("rk_wrong", { "x-request-id": bad }).v1.faqs.$get({ query: {} });
      expect(res.headers.get("x-request-id")).toMatch(UUID);
      expect(res.headers.get("x-client-request-id")).toBeNull();
    }
  });

  it("are kept by in-process calls: an MCP tool's error carries the /mcp request's id", async () => {
    const tenant = await newTenant();
    // JSON-RPC on /mcp: not a route of the typed client, and the test reads the HTTP answer's own header.
    const res = await send("/mcp", {
      key: tenant.clientKey,
      headers: { accept: "application/json, text/event-stream", "x-request-id": "client-1" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "faq_get", arguments: { id: "faq_does_not_exist" } } },
    });
    expect(res.status).toBe(200);
    const rpc = (await res.json()) as { result: { content: { text: string }[] } };
    const envelope = JSON.parse(rpc.result.content[0]!.text) as ApiError;
    expect(envelope.error.code).toBe("NOT_FOUND");
    expect(envelope.error.requestId).toBe(res.headers.get("x-request-id"));
    expect(envelope.error.requestId).not.toBe("client-1");
  });
});

describe("JSON body rules on every route", () => {
  it("answers 400 INVALID_JSON to a malformed JSON body on every Bearer POST/PUT/PATCH, optional bodies included", async () => {
    const tenant = await newTenant();
    const doc = (await (await SELF.fetch("https://recall.test/openapi.json")).json()) as Doc;
    const writes = operations(doc).filter(
      ({ method, op }) => ["post", "put", "patch"].includes(method) && op.security === undefined && !op["x-recall-always-200"],
    );
    expect(writes.length).toBeGreaterThan(30);
    const paths = writes.map(({ path }) => path);
    expect(paths).toContain("/v1/admin/reembed");
    expect(paths).toContain("/v1/shows/{showId}/end");
    for (const { method, path, op } of writes) {
      // A path parameter with a fixed set of values gets one of them: another value is no route (404 before any body is read).
      const enumOf = (name: string) => parameters(op).find((p) => p.in === "path" && p.name === name)?.schema?.enum;
      const concrete = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const values = enumOf(name);
        return Array.isArray(values) ? String(values[0]) : "edge-json-x";
      });
      for (const raw of ["{not json", '{"a": 1', "   "]) {
        // Malformed bodies on every route of the document: sent raw, the typed client would not send them.
        const res = await send(concrete, { method: method.toUpperCase(), key: tenant.adminKey, raw });
        const text = await res.text();
        const code = text ? (JSON.parse(text) as Partial<ApiError>).error?.code : undefined;
        expect(`${method} ${path} ${JSON.stringify(raw)} → ${res.status} ${code}`).toBe(
          `${method} ${path} ${JSON.stringify(raw)} → 400 INVALID_JSON`,
        );
      }
    }
  });

  it("still takes no body at all where the body is optional", async () => {
    const tenant = await newTenant();
    expect((await apiClient(tenant.adminKey).v1.admin.reembed.$post()).status).toBe(202);
  });
});

describe("text that is only control characters (hardening round 3, finding 6)", () => {
  it.each([["\u0000"], ["\u0000\u0001 \u0007"], [" \t "]])(
    "is refused with a clear 400 as a show question, a memory and a label: %j",
    async (text) => {
      const tenant = await newTenant();
      const client = apiClient(tenant.clientKey);
      for (const res of [
        await client.v1.shows[":showId"].questions.$post({
          param: { showId: `nul-${Math.random().toString(36).slice(2)}` },
          json: { questions: [{ text }] },
        }),
        await client.v1.memories.$post({ json: { scope: "s", content: text, memoryType: "fact" } }),
        await apiClient(tenant.adminKey).v1.admin.calibration.pairs.$post({
          json: { pairs: [{ a: text, b: "How do I reset my password?", label: "paraphrase" }] },
        }),
      ]) {
        const body = await expectError(res, 400, "VALIDATION_FAILED");
        expect(JSON.stringify(body.error.details)).toMatch(/visible text|too_small|at least/i);
      }
    },
  );
});

describe("shows that never existed", () => {
  it("cannot be ended (404), and stay writable: the first question afterwards is recorded", async () => {
    const tenant = await newTenant();
    const api = apiClient(tenant.clientKey);
    const shows = api.v1.shows[":showId"];
    const param = { showId: "never-existed-1" };
    await expectError(shows.end.$post({ param }), 404, "NOT_FOUND");
    await expectJson(shows.questions.$post({ param, json: { questions: [{ text: "What did you eat today?" }] } }), 201);
    expect((await expectJson(api.v1.shows.$get({ query: {} }), 200)).shows.map((s) => s.showId)).toEqual(["never-existed-1"]);
  });

  it("cannot be refreshed (404); a show that exists can be ended, twice", async () => {
    const tenant = await newTenant();
    const shows = apiClient(tenant.clientKey).v1.shows[":showId"];
    expect((await shows.refresh.$post({ param: { showId: "never-existed-2" }, json: { topic: "food" } })).status).toBe(404);
    const param = { showId: "real-show" };
    await shows.questions.$post({ param, json: { questions: [{ text: "Where do you live?" }] } });
    expect((await shows.end.$post({ param })).status).toBe(200);
    expect((await shows.end.$post({ param })).status).toBe(200);
  });

  it("counts a configured show as existing: it can be ended before its first question", async () => {
    const tenant = await newTenant();
    const shows = apiClient(tenant.clientKey).v1.shows[":showId"];
    const param = { showId: "configured" };
    expect((await shows.config.$put({ param, json: { similarityThreshold: 0.8 } })).status).toBe(200);
    expect((await shows.end.$post({ param })).status).toBe(200);
  });
});

describe("DELETE /v1/admin/keys/:id: the local dev key", () => {
  it("answers 409 DEV_KEY_PERMANENT for the dev key, which keeps working", async () => {
    const devKey = env.RECALL_DEV_API_KEY!;
    const keys = apiClient(devKey).v1.admin.keys;
    const listed = await expectJson(keys.$get({ query: {} }), 200);
    const dev = listed.keys.find((k) => k.name?.includes("RECALL_DEV_API_KEY"));
    expect(dev).toBeDefined();
    const res = await expectError(keys[":id"].$delete({ param: { id: dev!.id } }), 409, "DEV_KEY_PERMANENT");
    expect(res.error.message).toContain("RECALL_DEV_API_KEY");
    const after = await expectJson(keys.$get({ query: {} }), 200);
    expect(after.keys.find((k) => k.id === dev!.id)!.revokedAt).toBeNull();
  });

  it("is a 404 for another tenant's admin, like any key that is not theirs", async () => {
    const tenant = await newTenant();
    await expectError(apiClient(tenant.adminKey).v1.admin.keys[":id"].$delete({ param: { id: "key_dev" } }), 404);
  });
});
