import { describe, expect, it } from "vitest";
import { jsonBodies } from "../../../src/http/middleware/json-bodies";
import { takesNdjson } from "../../../src/http/route-facts";
import { expectError } from "../../support/client";
import { appAround, LATIN1 } from "../../support/middleware";

// The import route carries its fact as the real one does; the catch-all answers every request.
const app = appAround([jsonBodies(64)], async (c) => c.json({ method: c.req.method, body: await c.req.text() })).post(
  "/v1/faqs/import",
  takesNdjson,
);
const send = (body: BodyInit | undefined, type?: string, { method = "POST", path = "/v1/memories" } = {}) =>
  app.request(path, { method, body, headers: type === undefined ? {} : { "content-type": type } });

describe("jsonBodies", () => {
  it("passes a JSON body on to the route, which reads it again", async () => {
    const res = await send('{"content":"hello"}', "application/json; charset=utf-8");
    expect(await res.json()).toEqual({ method: "POST", body: '{"content":"hello"}' });
    expect((await send("{}", "application/merge-patch+json", { method: "PATCH" })).status).toBe(200);
  });

  it("refuses a body over the limit with 413", async () => {
    const res = await expectError(send(JSON.stringify({ content: "x".repeat(64) }), "application/json"), 413, "PAYLOAD_TOO_LARGE");
    expect(res.error.message).toBe("The request body is larger than 64 bytes");
  });

  it("refuses another content type, and bytes sent without one, with 415; no body without a type is fine", async () => {
    await expectError(send("content=hello", "application/x-www-form-urlencoded"), 415, "UNSUPPORTED_MEDIA_TYPE");
    await expectError(send('{"content":"hello"}'), 415, "UNSUPPORTED_MEDIA_TYPE");
    expect((await send(undefined)).status).toBe(200);
  });

  it("refuses malformed JSON, bytes that are not UTF-8 and an unpaired surrogate with 400", async () => {
    await expectError(send("{not json", "application/json"), 400, "INVALID_JSON");
    const latin1 = await expectError(send(LATIN1, "application/json"), 400, "BAD_REQUEST");
    expect(latin1.error.message).toBe("The request body is not valid UTF-8");
    const surrogate = await expectError(send('{"content":"\\ud800"}', "application/json"), 400, "VALIDATION_FAILED");
    expect(surrogate.error.details).toEqual([{ path: "content", message: expect.stringContaining("unpaired UTF-16 surrogate") }]);
  });

  it("leaves requests that carry no body alone (GET, DELETE)", async () => {
    expect((await send(undefined, "text/plain", { method: "GET" })).status).toBe(200);
    expect((await send("not json", "text/plain", { method: "DELETE" })).status).toBe(200);
  });

  it("takes NDJSON on a route marked takesNdjson (the FAQ import) only, under its own limit, and says so when the import is sent as JSON", async () => {
    const lines = `${JSON.stringify({ question: "q".repeat(40) })}\n${JSON.stringify({ question: "r".repeat(40) })}\n`;
    const imported = await send(lines, "application/x-ndjson", { path: "/v1/faqs/import" });
    expect(await imported.json()).toEqual({ method: "POST", body: lines });
    await expectError(send(lines, "application/x-ndjson"), 415, "UNSUPPORTED_MEDIA_TYPE");
    const asJson = await expectError(send('{"a":1}\n{"b":2}', "application/json", { path: "/v1/faqs/import" }), 400, "INVALID_JSON");
    expect(asJson.error.message).toContain("sent as application/x-ndjson");
  });
});
