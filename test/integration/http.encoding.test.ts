import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";

/** Defects npm run fuzz found: text the API would have stored differently from what was sent. */
describe("request encoding", () => {
  it("answers 400 when a JSON body is not UTF-8, and stores nothing", async () => {
    const { clientKey } = await newTenant();
    const prefix = new TextEncoder().encode('{"scope":"enc","content":"caf');
    const body = Uint8Array.from([...prefix, 0xe9, ...new TextEncoder().encode('","memoryType":"fact"}')]); // Latin-1 é
    const response = await SELF.fetch("https://recall.test/v1/memories", {
      method: "POST",
      headers: { authorization: `Bearer ${clientKey}`, "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "BAD_REQUEST", message: "The request body is not valid UTF-8" } });
    const search = await SELF.fetch("https://recall.test/v1/memories/search", {
      method: "POST",
      headers: { authorization: `Bearer ${clientKey}`, "content-type": "application/json" },
      body: JSON.stringify({ scope: "enc", query: "caf" }),
    });
    expect(((await search.json()) as { results: unknown[] }).results).toEqual([]);
  });

  it("answers 400 when a path is not valid percent-encoding, instead of using the raw text as an id", async () => {
    const { clientKey } = await newTenant();
    const response = await SELF.fetch("https://recall.test/v1/sessions/%ED%A0%80/files", {
      method: "POST",
      headers: { authorization: `Bearer ${clientKey}`, "content-type": "application/json" },
      body: JSON.stringify({ files: [{ path: "a.ts" }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: "BAD_REQUEST", message: "The request path is not valid percent-encoding" },
    });
    // A valid encoding still works.
    const fine = await SELF.fetch("https://recall.test/v1/sessions/s%C3%A9ance/files", {
      method: "POST",
      headers: { authorization: `Bearer ${clientKey}`, "content-type": "application/json" },
      body: JSON.stringify({ files: [{ path: "a.ts" }] }),
    });
    expect(fine.status).toBe(201);
  });
});
