import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newTenant, send } from "../support/api";
import { apiClient, expectJson } from "../support/client";

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
