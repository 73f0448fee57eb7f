import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newTenant, send } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";

// Odd content types, JSON routes called without a body and streamed bytes: the point of these tests, so they go raw (send, SELF.fetch).

describe("request bodies", () => {
  it("accepts a POST with no body at all on a route that takes none (rollback)", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const created = await expectJson(
      api.v1.faqs.$post({ json: { question: "How do I reset my password?", answer: "Use the reset link." } }),
      201,
    );
    await expectJson(
      api.v1.faqs[":id"].$patch({ param: { id: created.id }, json: { answer: "Use the reset link on the login page." } }),
      200,
    );
    // The client sends a POST without a json input with no body and no content type.
    const rolled = await expectJson(api.v1.faqs[":id"].rollback[":version"].$post({ param: { id: created.id, version: "1" } }), 200);
    expect(rolled.answer).toBe("Use the reset link.");
  });

  it("still refuses a body that is not JSON (415) and a JSON route called without one (400)", async () => {
    const { clientKey } = await newTenant();
    expect(
      (await send("/v1/memories", { key: clientKey, raw: "x=1", headers: { "content-type": "application/x-www-form-urlencoded" } })).status,
    ).toBe(415);
    expect((await send("/v1/memories", { method: "POST", key: clientKey })).status).toBe(400);
  });

  it("refuses bytes sent without a content type (415) instead of ignoring them (found by npm run fuzz)", async () => {
    const { adminKey } = await newTenant();
    // Before: read as no body, so the defaults applied and a client key was created for a caller asking for an admin key.
    // A streamed body has no Content-Length: only its bytes tell that a body was sent.
    const bytes = new TextEncoder().encode(JSON.stringify({ role: "admin", name: "ops" }));
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    const sent = await SELF.fetch("https://recall.test/v1/admin/keys", {
      method: "POST",
      headers: { authorization: `Bearer ${adminKey}` },
      body: stream,
    });
    expect(sent.status).toBe(415);
    expect(((await sent.json()) as { error: { code: string } }).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect((await send("/v1/admin/keys", { method: "POST", key: adminKey })).status).toBe(201);
  });
});

describe("the route comes before the body (issue 34)", () => {
  // Before: the v1 group read and parsed every POST body before routing, so a bad body to a path
  // or method no route answers was a 400 INVALID_JSON, and OPTIONS /ui a plain-text 401.
  it("answers 405 with Allow for a method the path does not take, before reading the body, key or no key", async () => {
    const { clientKey } = await newTenant();
    for (const key of [clientKey, undefined]) {
      const res = await send("/v1/memories/mem_nope", { method: "POST", key, raw: "{not json" });
      expect(res.headers.get("allow")).toBe("GET, HEAD, DELETE");
      await expectError(res, 405, "METHOD_NOT_ALLOWED");
    }
    const put = await send("/v1/context", { method: "PUT", key: clientKey, raw: "{not json" });
    expect(put.headers.get("allow")).toBe("POST");
    await expectError(put, 405, "METHOD_NOT_ALLOWED");
  });

  it("answers 404 for a path no route takes, before reading the body, key or no key", async () => {
    const { clientKey } = await newTenant();
    for (const key of [clientKey, undefined]) {
      await expectError(send("/v1/nowhere", { method: "POST", key, raw: "{not json" }), 404, "NOT_FOUND");
      await expectError(send("/v1/nowhere", { key }), 404, "NOT_FOUND");
    }
  });

  it("answers OPTIONS alike everywhere: 405 with Allow in the error envelope, /ui included", async () => {
    const { clientKey } = await newTenant();
    const cases: [string, string | undefined, string][] = [
      ["/v1/memories", clientKey, "POST"],
      ["/v1/memories", undefined, "POST"],
      ["/healthz", undefined, "GET, HEAD"],
      ["/ui", undefined, "GET, HEAD"],
      ["/ui/login", undefined, "POST"],
      ["/ui/shows", undefined, "GET, HEAD, POST"],
    ];
    for (const [path, key, allow] of cases) {
      const res = await send(path, { method: "OPTIONS", key });
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(res.headers.get("allow"), path).toBe(allow);
      await expectError(res, 405, "METHOD_NOT_ALLOWED");
    }
    await expectError(send("/ui/nowhere", { method: "OPTIONS" }), 404, "NOT_FOUND");
  });

  it("still serves the screens' own pages: an unknown /ui page is the HTML 404 page, a signed-out POST the sign-in answer", async () => {
    const page = await SELF.fetch("https://recall.test/ui/nowhere", { redirect: "manual" });
    expect([303, 404]).toContain(page.status);
    expect(page.headers.get("content-type") ?? "").not.toMatch(/json/);
  });
});
