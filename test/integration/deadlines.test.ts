/**
 * Hardening round 3, finding 1: with the embedding model hung (a real host that accepts the
 * connection and never answers, test/support/global-setup.ts), every route that needs it answers
 * within its deadline and a little (the local model's request deadline: 5 s), without it and
 * saying so; writes commit with their vector pending; /healthz says the model is skipped; and the
 * requests after the first do not wait out a deadline of their own. The same for Vectorize (the
 * remote-only index, stubbed at its binding) and KV (Miniflare's, its reads held back).
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../../src/core/base/clock";
import { LOCAL_REQUEST_EMBED_DEADLINE_MS } from "../../src/adapters/embeddings/deadline";
import { createApp } from "../../src/app/app";
import { rootLogger } from "../../src/platform/observe/log";
import { createServices } from "../../src/app/services";
import { newTenant } from "../support/api";
import { vectorizeStub } from "../support/vectorize-stub";
import { forgetBreakers } from "../../src/platform/deadlines/breaker";
import { REQUEST_VECTOR_DEADLINE_MS } from "../../src/platform/deadlines/vectors";

/** The whole answer's bound with the (local) model hung: the model's deadline and the request's own work. */
const BOUND_MS = LOCAL_REQUEST_EMBED_DEADLINE_MS + 500;
/** A request that does not wait for the model: it is skipped. */
const SKIPPED_MS = 500;

/** A request through the app with these services' env changes. */
async function callWith(changes: Partial<Env>, key: string | null, method: string, path: string, body?: unknown) {
  const withChanges = createApp({ services: (e, defer) => createServices({ ...e, ...changes }, systemClock, rootLogger, defer) });
  const ctx = createExecutionContext();
  const started = performance.now();
  const res = await withChanges.fetch(
    new Request(`https://recall.test${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
    { ...env, ...changes },
    ctx,
  );
  const json = (await res.json()) as Record<string, unknown>;
  const ms = performance.now() - started;
  await waitOnExecutionContext(ctx);
  return { status: res.status, json, ms };
}

/** The embedding model hung: a real host that accepts the connection and never answers. */
const call = (key: string | null, method: string, path: string, body?: unknown) =>
  callWith({ EMBEDDER_URL: env.HANGING_EMBEDDER_URL }, key, method, path, body);

// A new isolate for each test, as far as the breakers go: a failed test must not leave a part skipped for the next.
afterEach(forgetBreakers);

describe("every outside call has a deadline: the embedding model hung", () => {
  it("reads answer within the bound without vectors, and say so; the first waits the deadline, the rest are skipped at once", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:deadline";
    const first = await call(clientKey, "POST", "/v1/memories/search", { scope, query: "where do I live these days?" });
    expect(first.status).toBe(200);
    expect(first.ms).toBeGreaterThanOrEqual(LOCAL_REQUEST_EMBED_DEADLINE_MS - 50);
    expect(first.ms).toBeLessThan(BOUND_MS);
    expect(first.json.degraded).toContain("embeddings");

    for (const [path, body, degradedKey] of [
      ["/v1/context", { scope, prompt: "How do I deploy the worker to production?" }, "degraded"],
      ["/v1/faqs/search", { query: "How do I reset my password?" }, "degraded"],
      ["/v1/questions/similar", { scope, text: "How do I reset my password?" }, "degraded"],
      ["/v1/similarity/explain", { a: "How do I reset my password?", b: "How can I reset my password?" }, "degraded"],
    ] as const) {
      const res = await call(clientKey, "POST", path, body);
      expect(res.status, `${path}: ${JSON.stringify(res.json)}`).toBe(200);
      expect(res.ms, path).toBeLessThan(SKIPPED_MS);
      expect(JSON.stringify(res.json[degradedKey]), path).toContain("embeddings");
    }
    const health = await call(null, "GET", "/healthz");
    expect(health.json).toMatchObject({ status: "degraded", adapters: { embedder: { state: "skipped" } } });
  });

  it("writes commit at once with their vector pending, once each (nothing to retry, nothing doubled)", async () => {
    const { clientKey } = await newTenant();
    const memory = await call(clientKey, "POST", "/v1/memories", { scope: "user:w", content: "I live in Lisbon", memoryType: "fact" });
    expect(memory.status).toBe(201);
    expect(memory.ms).toBeLessThan(BOUND_MS);
    const faq = await call(clientKey, "POST", "/v1/faqs", { question: "Do you ship to Iceland?", answer: "Yes, in 5 days." });
    expect(faq.status).toBe(201);
    expect(faq.ms).toBeLessThan(BOUND_MS);
    const stored = await env.DB.prepare("SELECT index_state FROM memories WHERE id = ?")
      .bind(memory.json.id)
      .first<{ index_state: string }>();
    expect(stored?.index_state).toBe("pending");
  });
});

describe("every outside call has a deadline: Vectorize hung", () => {
  it("searches answer by keywords within the index's deadline, say so, and the next ones skip it at once", async () => {
    const { clientKey } = await newTenant();
    const stub = vectorizeStub({ hung: true });
    const hungIndex = { VECTOR_INDEX: "vectorize", VECTORIZE: stub.binding };
    const faq = await callWith(hungIndex, clientKey, "POST", "/v1/faqs", {
      question: "Do you ship to Iceland?",
      answer: "Yes, in 5 days.",
    });
    // The FAQ is in D1 and answered; its vector write is what hangs, pending for the cron.
    expect(faq.status).toBe(201);

    const first = await callWith(hungIndex, clientKey, "POST", "/v1/faqs/search", { query: "shipping to Iceland" });
    expect(first.status).toBe(200);
    expect(first.ms).toBeLessThan(REQUEST_VECTOR_DEADLINE_MS + 1_000);
    expect(first.json.degraded).toContain("vector_index");
    expect(JSON.stringify(first.json.results)).toContain("Iceland");

    const next = await callWith(hungIndex, clientKey, "POST", "/v1/memories/search", { scope: "s", query: "where do I live?" });
    expect(next.status).toBe(200);
    expect(next.ms).toBeLessThan(SKIPPED_MS);
    expect(next.json.degraded).toContain("vector_index");
    const health = await callWith(hungIndex, null, "GET", "/healthz");
    expect(health.json).toMatchObject({ status: "degraded", adapters: { vectorIndex: { state: "skipped" } } });
  });
});

describe("every outside call has a deadline: KV hung", () => {
  it("a cache that does not answer is a miss within KV's deadline, and is skipped after", async () => {
    const { clientKey } = await newTenant();
    // KV itself stays Miniflare's; only its answers are held back, as a stalled KV would.
    const stalled = new Proxy(env.CACHE, {
      get: (target, property) => (property === "get" ? () => new Promise(() => {}) : Reflect.get(target, property).bind(target)),
    });
    const first = await callWith({ CACHE: stalled }, clientKey, "POST", "/v1/faqs/search", { query: "How do refunds work?" });
    expect(first.status).toBe(200);
    expect(first.ms).toBeLessThan(LOCAL_REQUEST_EMBED_DEADLINE_MS);
    const next = await callWith({ CACHE: stalled }, clientKey, "POST", "/v1/context", { scope: "s", prompt: "How do refunds work?" });
    expect(next.status).toBe(200);
    const health = await callWith({ CACHE: stalled }, null, "GET", "/healthz");
    expect(health.json).toMatchObject({ status: "degraded", adapters: { cache: { state: "skipped" } } });
  });
});
