/**
 * Hardening round 3, finding 1: with the embedding model hung (a real host that accepts the
 * connection and never answers, test/support/global-setup.ts), every route that needs it answers
 * within its deadline and a little (the local model's request deadline: 5 s), without it and saying so; writes commit with their vector pending; /healthz says
 * the model is skipped; and the requests after the first do not wait out a deadline of their own.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../src/clock";
import { LOCAL_REQUEST_EMBED_DEADLINE_MS } from "../../src/embeddings/deadline";
import { createApp } from "../../src/http/app";
import { rootLogger } from "../../src/log";
import { createServices } from "../../src/services";
import { newTenant } from "../support/api";

/** The whole answer's bound with the (local) model hung: the model's deadline and the request's own work. */
const BOUND_MS = LOCAL_REQUEST_EMBED_DEADLINE_MS + 500;
/** A request that does not wait for the model: it is skipped. */
const SKIPPED_MS = 500;

const hung = { ...env, EMBEDDER_URL: env.HANGING_EMBEDDER_URL };
const app = createApp({
  services: (e, defer) => createServices({ ...e, EMBEDDER_URL: env.HANGING_EMBEDDER_URL }, systemClock, rootLogger, defer),
});

async function call(key: string | null, method: string, path: string, body?: unknown) {
  const ctx = createExecutionContext();
  const started = performance.now();
  const res = await app.fetch(
    new Request(`https://recall.test${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
    hung,
    ctx,
  );
  const json = (await res.json()) as Record<string, unknown>;
  const ms = performance.now() - started;
  await waitOnExecutionContext(ctx);
  return { status: res.status, json, ms };
}

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
