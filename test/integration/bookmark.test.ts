import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { recallClient } from "../../src/client";
import { BOOKMARK_HEADER } from "../../src/http/bookmark";
import { newTenant } from "../support/api";
import { expectJson } from "../support/client";

const D1_BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

function send(path: string, key: string, init: { method?: string; body?: unknown; bookmark?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.bookmark !== undefined) headers[BOOKMARK_HEADER] = init.bookmark;
  return SELF.fetch(`https://recall.test${path}`, {
    method: init.method ?? "GET",
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

describe("x-recall-bookmark (D1 read replication)", () => {
  it("answers a write with its bookmark, and a read that sends it back sees the write", async () => {
    const { clientKey } = await newTenant("bookmark round trip");
    const created = await send("/v1/memories", clientKey, {
      method: "POST",
      body: { scope: "user:bm", content: "Where is the invoice archive?", memoryType: "question" },
    });
    expect(created.status).toBe(201);
    const written = created.headers.get(BOOKMARK_HEADER);
    expect(written).toMatch(D1_BOOKMARK);
    const { id } = (await created.json()) as { id: string };

    const read = await send(`/v1/memories/${id}`, clientKey, { bookmark: written! });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { content: string }).content).toBe("Where is the invoice archive?");
    // The read's session started at the write's bookmark, so its own is not older.
    const after = read.headers.get(BOOKMARK_HEADER);
    expect(after).toMatch(D1_BOOKMARK);
    expect(after!.localeCompare(written!)).toBeGreaterThanOrEqual(0);
  });

  it("is on every answer: a public route, an error, and a request without a bookmark", async () => {
    const { clientKey } = await newTenant("bookmark everywhere");
    const health = await SELF.fetch("https://recall.test/healthz");
    expect(health.headers.get(BOOKMARK_HEADER)).toMatch(D1_BOOKMARK);
    const missing = await send("/v1/memories/mem_nope", clientKey);
    expect(missing.status).toBe(404);
    expect(missing.headers.get(BOOKMARK_HEADER)).toMatch(D1_BOOKMARK);
  });

  it("ignores a header that is not a D1 bookmark instead of failing the request", async () => {
    const { clientKey } = await newTenant("bookmark malformed");
    const res = await send("/v1/faqs", clientKey, { bookmark: "first-primary; DROP TABLE" });
    expect(res.status).toBe(200);
    expect(res.headers.get(BOOKMARK_HEADER)).toMatch(D1_BOOKMARK);
  });

  it("is carried by the typed client from a write to the read after it", async () => {
    const { clientKey } = await newTenant("bookmark client");
    const sent: (string | null)[] = [];
    const answered: (string | null)[] = [];
    const api = recallClient("https://recall.test", {
      headers: { authorization: `Bearer ${clientKey}` },
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        sent.push(new Request(input, init).headers.get(BOOKMARK_HEADER));
        const response = await SELF.fetch(input, init);
        answered.push(response.headers.get(BOOKMARK_HEADER));
        return response;
      },
    });
    const memory = await expectJson(
      api.v1.memories.$post({ json: { scope: "user:bm2", content: "The office closes at six", memoryType: "fact" } }),
      201,
    );
    const read = await expectJson(api.v1.memories[":id"].$get({ param: { id: memory.id } }), 200);
    expect(read.content).toBe("The office closes at six");
    expect(sent[0]).toBeNull();
    expect(answered[0]).toMatch(D1_BOOKMARK);
    expect(sent[1]).toBe(answered[0]);
  });
});
