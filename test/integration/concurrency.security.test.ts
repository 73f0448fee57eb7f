import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { recallClient } from "../../src/client/client";
import { IDEMPOTENT_CREATES } from "../../src/http/protocol/idempotent-routes";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";

/**
 * The transport between client and Worker, with the faults the local runtime shows under load
 * (bench/workerd-connection-resets.mjs: a kept-alive connection reset, so the client sees no answer):
 * `lost(i)` says whether the i-th attempt's answer is lost after the Worker handled it, `refused(i)`
 * whether the attempt never reaches the Worker. The Worker, its D1 and its Durable Objects are real.
 */
interface Faults {
  lost?: (attempt: number) => boolean;
  refused?: (attempt: number) => boolean;
}

function faultyTransport({ lost = () => false, refused = () => false }: Faults = {}) {
  const sent: Request[] = [];
  let attempts = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const i = attempts++;
    const request = new Request(input, init);
    sent.push(request.clone());
    if (refused(i)) throw new TypeError("fetch failed (connection reset before the request was sent)");
    const response = await SELF.fetch(request);
    if (lost(i)) {
      await response.arrayBuffer();
      throw new TypeError("fetch failed (connection reset before the answer arrived)");
    }
    return response;
  };
  return { fetch, sent, attempts: () => attempts };
}

const fastRetries = (counter: { retries: number }) => ({
  baseDelayMs: 5,
  maxDelayMs: 50,
  maxAttempts: 6,
  onRetry: () => counter.retries++,
});

async function countRows(sql: string, ...args: unknown[]): Promise<number> {
  return (await env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>())!.n;
}

describe("the typed client (recall/client) under transport faults", () => {
  it("retries a create whose answer was lost with the same Idempotency-Key, so the memory is stored once", async () => {
    const { tenantId, clientKey } = await newTenant();
    const transport = faultyTransport({ lost: (i) => i < 2 });
    const counter = { retries: 0 };
    const api = recallClient("https://recall.test", {
      fetch: transport.fetch,
      headers: { authorization: `Bearer ${clientKey}` },
      retry: fastRetries(counter),
    });
    const res = await api.v1.memories.$post({ json: { scope: "retry:lost", content: "Backups run at 02:00 UTC", memoryType: "fact" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("idempotent-replayed")).toBe("true");
    expect(counter.retries).toBe(2);
    const keys = transport.sent.map((r) => r.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(await countRows("SELECT count(*) AS n FROM memories WHERE tenant_id = ? AND scope = 'retry:lost'", tenantId)).toBe(1);
  });

  it("keeps the caller's own Idempotency-Key on every attempt", async () => {
    const { clientKey } = await newTenant();
    const transport = faultyTransport({ refused: (i) => i === 0 });
    const api = recallClient("https://recall.test", {
      fetch: transport.fetch,
      headers: { authorization: `Bearer ${clientKey}` },
      retry: fastRetries({ retries: 0 }),
    });
    const res = await api.v1.faqs.$post(
      { json: { question: "Can I pay by invoice?", answer: "Yes, on yearly plans" } },
      { headers: { "Idempotency-Key": "caller-key-1" } },
    );
    expect(res.status).toBe(201);
    expect(transport.sent.map((r) => r.headers.get("idempotency-key"))).toEqual(["caller-key-1", "caller-key-1"]);
  });

  it("does not retry a POST that is neither a create nor carries a key (it could do its work twice)", async () => {
    const { adminKey } = await newTenant();
    const transport = faultyTransport({ lost: (i) => i === 0 });
    const api = recallClient("https://recall.test", {
      fetch: transport.fetch,
      headers: { authorization: `Bearer ${adminKey}` },
      retry: fastRetries({ retries: 0 }),
    });
    await expect(api.v1.admin.keys.$post({ json: { role: "client" } })).rejects.toThrow(/fetch failed/);
    expect(transport.attempts()).toBe(1);
    expect(transport.sent[0]!.headers.get("idempotency-key")).toBeNull();
  });

  it("retries a 503 after its Retry-After and gives the last answer back after the bounded attempts", async () => {
    const { clientKey } = await newTenant();
    const delays: number[] = [];
    let attempts = 0;
    const api = recallClient("https://recall.test", {
      headers: { authorization: `Bearer ${clientKey}` },
      fetch: async () => {
        attempts++;
        return Response.json(
          { error: { code: "UNAVAILABLE", message: "down", requestId: "r" } },
          { status: 503, headers: { "retry-after": "0.02" } },
        );
      },
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1000, onRetry: ({ delayMs }) => delays.push(delayMs) },
    });
    const res = await api.v1.memories.$post({ json: { scope: "retry:503", content: "x", memoryType: "fact" } });
    expect(res.status).toBe(503);
    expect(attempts).toBe(3);
    expect(delays).toHaveLength(2);
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(20);
  });
});

describe("concurrent creates through the typed client with lost answers and refused connections", () => {
  const N = 100;
  // Deterministic faults on about a quarter of the attempts: every 7th answer lost after the write, every 11th attempt refused.
  const faults = { lost: (i: number) => i % 7 === 3, refused: (i: number) => i % 11 === 5 };

  it(`stores each of ${N} concurrent POST /v1/memories to one scope exactly once`, { timeout: 60_000 }, async () => {
    const { tenantId, clientKey } = await newTenant();
    const transport = faultyTransport(faults);
    const counter = { retries: 0 };
    const api = recallClient("https://recall.test", {
      fetch: transport.fetch,
      headers: { authorization: `Bearer ${clientKey}` },
      retry: fastRetries(counter),
    });
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        api.v1.memories.$post({
          json: { scope: "storm:one", content: `Storm fact ${i}: service ${i * 31} restarts nightly`, memoryType: "fact" },
        }),
      ),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
    expect(counter.retries).toBeGreaterThan(N / 5);
    expect(await countRows("SELECT count(*) AS n FROM memories WHERE tenant_id = ? AND scope = 'storm:one'", tenantId)).toBe(N);
    expect(await countRows("SELECT count(DISTINCT content) AS n FROM memories WHERE tenant_id = ? AND scope = 'storm:one'", tenantId)).toBe(
      N,
    );
  });

  it(`stores each of ${N} concurrent POST /v1/shows/:id/questions to one show exactly once`, { timeout: 90_000 }, async () => {
    const { clientKey } = await newTenant();
    const transport = faultyTransport(faults);
    const counter = { retries: 0 };
    const api = recallClient("https://recall.test", {
      fetch: transport.fetch,
      headers: { authorization: `Bearer ${clientKey}` },
      retry: fastRetries(counter),
    });
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        api.v1.shows[":showId"].questions.$post({
          param: { showId: "storm-show" },
          json: { questions: [{ text: `Question ${i}: what happens at minute ${i}?` }] },
        }),
      ),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
    expect(counter.retries).toBeGreaterThan(N / 5);
    const status = await expectJson(apiClient(clientKey).v1.shows[":showId"].status.$get({ param: { showId: "storm-show" } }), 200);
    expect(status.questionCount).toBe(N);
  });
});

describe("503 answers", () => {
  it("are the JSON envelope with Retry-After (the show's embedder down)", async () => {
    const { clientKey } = await newTenant();
    const { createApp } = await import("../../src/app/app");
    const { createServices } = await import("../../src/app/services");
    const app = createApp({ services: (e) => createServices({ ...e, EMBEDDER_URL: "http://127.0.0.1:9" }) });
    const response = await app.fetch(
      new Request("https://recall.test/v1/shows/down-show/questions", {
        method: "POST",
        headers: { authorization: `Bearer ${clientKey}`, "content-type": "application/json" },
        body: JSON.stringify({ questions: [{ text: "Is anyone there?" }] }),
      }),
      env,
    );
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await response.json()).toMatchObject({ error: { code: "UNAVAILABLE", requestId: expect.any(String) } });
  });
});

describe("the client's list of idempotent creates", () => {
  it("is exactly the operations the OpenAPI document says take an Idempotency-Key", async () => {
    const doc = await expectJson(apiClient()["openapi.json"].$get(), 200);
    const paths = doc.paths!;
    const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
    const documented = Object.keys(paths).flatMap((path) =>
      methods
        .filter((method) => paths[path]?.[method]?.parameters?.some((p) => "in" in p && p.in === "header" && p.name === "Idempotency-Key"))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.every((op) => op.startsWith("POST "))).toBe(true);
    const samplePath = (path: string) => path.replace("{action}", "accept").replace(/\{[^}]+\}/g, "x1");
    expect(documented.filter((op) => !IDEMPOTENT_CREATES.some((r) => r.test(samplePath(op.slice(5)))))).toEqual([]);
    expect(documented).toHaveLength(IDEMPOTENT_CREATES.length + 1); // approve and reject share one pattern
  });
});
