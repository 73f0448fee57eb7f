import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { recallClient } from "../../src/client/client";
import { BOOKMARK_HEADER, latestByDatabase, MAX_SEALED_VALUES } from "../../src/http/bookmark";
import { loadSealingKey, seal, unseal } from "../../src/http/sealed";
import { newTenant } from "../support/api";
import { expectJson } from "../support/client";

const D1_BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
/** What a client sees: the bookmark sealed (src/http/sealed.ts), base64url. */
const SEALED = /^[A-Za-z0-9_-]{100,}$/;

/** The D1 bookmark inside a sealed header, as the Worker reads it. */
async function opened(header: string | null): Promise<string | null> {
  await loadSealingKey(env.DB);
  return header === null ? null : unseal(header);
}

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
    expect(written).toMatch(SEALED);
    expect(await opened(written)).toMatch(D1_BOOKMARK);
    const { id } = (await created.json()) as { id: string };

    const read = await send(`/v1/memories/${id}`, clientKey, { bookmark: written! });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { content: string }).content).toBe("Where is the invoice archive?");
    // The read's session started at the write's bookmark, so its own is not older.
    const after = await opened(read.headers.get(BOOKMARK_HEADER));
    expect(after).toMatch(D1_BOOKMARK);
    expect(after!.localeCompare((await opened(written))!)).toBeGreaterThanOrEqual(0);
  });

  it("is on every answer: a public route, an error, and a request without a bookmark", async () => {
    const { clientKey } = await newTenant("bookmark everywhere");
    const health = await SELF.fetch("https://recall.test/healthz");
    expect(await opened(health.headers.get(BOOKMARK_HEADER))).toMatch(D1_BOOKMARK);
    const missing = await send("/v1/memories/mem_nope", clientKey);
    expect(missing.status).toBe(404);
    expect(await opened(missing.headers.get(BOOKMARK_HEADER))).toMatch(D1_BOOKMARK);
  });

  it("ignores a header that is not a D1 bookmark instead of failing the request", async () => {
    const { clientKey } = await newTenant("bookmark malformed");
    const res = await send("/v1/faqs", clientKey, { bookmark: "first-primary; DROP TABLE" });
    expect(res.status).toBe(200);
    expect(await opened(res.headers.get(BOOKMARK_HEADER))).toMatch(D1_BOOKMARK);
  });

  it("starts from the latest of several bookmarks sent together, ignoring values that are none", async () => {
    const { clientKey } = await newTenant("bookmark several");
    const write = (content: string) =>
      send("/v1/memories", clientKey, { method: "POST", body: { scope: "user:bm3", content, memoryType: "fact" } });
    const first = (await write("First fact")).headers.get(BOOKMARK_HEADER)!;
    const second = (await write("Second fact")).headers.get(BOOKMARK_HEADER)!;
    const read = await send("/v1/faqs", clientKey, { bookmark: `${second}, not-a-bookmark, ${first}` });
    expect(read.status).toBe(200);
    const started = (await opened(read.headers.get(BOOKMARK_HEADER)))!;
    expect(started.localeCompare((await opened(second))!)).toBeGreaterThanOrEqual(0);
  });

  it("reads the latest D1 bookmark among those sent, in any order, of the first MAX_SEALED_VALUES values", async () => {
    await loadSealingKey(env.DB);
    const [older, newer] = [
      "00000001-00000002-00004e2f-0a83ea2fceebc654de0640c422be4653",
      "00000001-00000003-00000001-0a83ea2fceebc654de0640c422be4653",
    ];
    /** The home database's latest bookmark among those sent. */
    const latestSent = (header: string) => latestByDatabase(header).get("DB");
    expect(latestSent(`${seal(newer)}, junk, ${seal(older)}`)).toBe(newer);
    expect(latestSent(`${seal(older)},${seal(newer)}`)).toBe(newer);
    // Unsealed, D1's own bookmark is not taken.
    expect(latestSent(newer)).toBeUndefined();
    expect(latestSent([...Array.from({ length: MAX_SEALED_VALUES }, () => seal(older)), seal(newer)].join(","))).toBe(older);
  });

  it("shows no database position: sealed, new at every answer, and a bare D1 bookmark sent back is ignored", async () => {
    const { clientKey } = await newTenant("bookmark sealed");
    const [first, second] = [await send("/v1/faqs", clientKey), await send("/v1/faqs", clientKey)];
    const [a, b] = [first.headers.get(BOOKMARK_HEADER)!, second.headers.get(BOOKMARK_HEADER)!];
    expect(a).toMatch(SEALED);
    expect(a).not.toBe(b);
    expect(a).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-/);
    // D1's own bookmark is taken back only sealed: as sent, it is a value that is not a bookmark.
    const bare = (await opened(a))!;
    expect((await send("/v1/faqs", clientKey, { bookmark: bare })).status).toBe(200);
    // One altered character and the seal does not open.
    expect(await opened(`${a.slice(0, -2)}${a.at(-2) === "A" ? "B" : "A"}${a.at(-1)}`)).toBeNull();
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
    expect(answered[0]).toMatch(SEALED);
    expect(sent[1]).toBe(answered[0]);
  });
});
