import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/clock";
import { createApp } from "../../src/http/app";
import { createServices, type Services } from "../../src/services";
import { REINDEX_CRON, runCron } from "../../src/upkeep/cron";
import { call, newTenant } from "../support/api";
import { countingEmbedder, embedderDown } from "../support/app";

const KEY_HEADER = "Idempotency-Key";
const memory = (scope: string, content = "The deploy runs from the main branch") => ({ scope, content, memoryType: "fact" });

async function countRows(sql: string, ...args: unknown[]): Promise<number> {
  return (await env.DB.prepare(sql).bind(...args).first<{ n: number }>())!.n;
}

/** The real app with its services changed by `override`, sending an Idempotency-Key. */
async function sendWith(override: (s: Services) => Services, path: string, key: string, idempotencyKey: string, body: unknown) {
  const app = createApp({ services: (e) => override(createServices(e)) });
  const ctx = createExecutionContext();
  const response = await app.fetch(
    new Request(`https://recall.test${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", [KEY_HEADER]: idempotencyKey },
      body: JSON.stringify(body),
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, any> };
}

describe("POST /v1/memories with an Idempotency-Key", () => {
  it("replays the first answer for the same key and body, and stores one row", async () => {
    const { tenantId, clientKey } = await newTenant();
    const headers = { [KEY_HEADER]: "mem-retry-1" };
    const first = await call("/v1/memories", { key: clientKey, body: memory("idem:a"), headers });
    const again = await call("/v1/memories", { key: clientKey, body: memory("idem:a"), headers });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toMatch(/^application\/json/);
    expect(again.json).toEqual(first.json);
    expect(await countRows("SELECT count(*) AS n FROM memories WHERE tenant_id = ? AND scope = 'idem:a'", tenantId)).toBe(1);
  });

  it("answers 409 IDEMPOTENCY_KEY_REUSED when the key comes back with another body, and stores nothing", async () => {
    const { tenantId, clientKey } = await newTenant();
    const headers = { [KEY_HEADER]: "mem-retry-2" };
    expect((await call("/v1/memories", { key: clientKey, body: memory("idem:b"), headers })).status).toBe(201);
    const other = await call("/v1/memories", { key: clientKey, body: memory("idem:b", "Something else entirely"), headers });
    expect(other.status).toBe(409);
    expect(other.json).toEqual({ error: { code: "IDEMPOTENCY_KEY_REUSED", message: expect.stringMatching(/another request/), requestId: expect.any(String) } });
    expect(await countRows("SELECT count(*) AS n FROM memories WHERE tenant_id = ? AND scope = 'idem:b'", tenantId)).toBe(1);
  });

  it("refuses a key that is empty, too long, or not visible ASCII with a 400, storing nothing", async () => {
    const { tenantId, clientKey } = await newTenant();
    for (const bad of ["", "has space", "x".repeat(256), "tab\there"]) {
      const response = await call("/v1/memories", { key: clientKey, body: memory("idem:bad"), headers: { [KEY_HEADER]: bad } });
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.json!.error.code).toBe("BAD_REQUEST");
    }
    expect((await call("/v1/memories", { key: clientKey, body: memory("idem:bad"), headers: { [KEY_HEADER]: "x".repeat(255) } })).status).toBe(201);
    expect(await countRows("SELECT count(*) AS n FROM memories WHERE tenant_id = ? AND scope = 'idem:bad'", tenantId)).toBe(1);
  });

  it("never replays another tenant's answer for the same key and body", async () => {
    const a = await newTenant("tenant a");
    const b = await newTenant("tenant b");
    const headers = { [KEY_HEADER]: "shared-key" };
    const fromA = await call("/v1/memories", { key: a.clientKey, body: memory("idem:shared"), headers });
    const fromB = await call("/v1/memories", { key: b.clientKey, body: memory("idem:shared"), headers });
    expect(fromA.status).toBe(201);
    expect(fromB.status).toBe(201);
    expect(fromB.headers.get("idempotent-replayed")).toBeNull();
    expect(fromB.json!.id).not.toBe(fromA.json!.id);
    expect((await call(`/v1/memories/${fromB.json!.id}`, { key: a.clientKey })).status).toBe(404);
  });
});

describe("concurrent first requests with one Idempotency-Key", () => {
  it("create one FAQ from 100 identical POST /v1/faqs; every other answer is the replay or 409 IDEMPOTENCY_IN_PROGRESS", async () => {
    const { tenantId, clientKey } = await newTenant();
    const body = { question: "How do I rotate my webhook secret?", answer: "POST /v1/admin/webhook-secrets/rotate" };
    const answers = await Promise.all(Array.from({ length: 100 }, () => call("/v1/faqs", { key: clientKey, body, headers: { [KEY_HEADER]: "faq-storm" } })));
    expect(await countRows("SELECT count(*) AS n FROM faqs WHERE tenant_id = ?", tenantId)).toBe(1);
    const created = answers.filter((a) => a.status === 201);
    expect(created.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    expect(new Set(created.map((a) => a.json!.id)).size).toBe(1);
    for (const other of answers.filter((a) => a.status !== 201)) {
      expect(other.status).toBe(409);
      expect(other.json!.error.code).toBe("IDEMPOTENCY_IN_PROGRESS");
      expect(Number(other.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });
});

describe("POST /v1/shows/:showId/questions with an Idempotency-Key", () => {
  it("replays without reaching the show again (no second question, no second embedding)", async () => {
    const { clientKey } = await newTenant();
    const counting = countingEmbedder();
    const body = { questions: [{ text: "What did the guest say about the launch date?" }] };
    const first = await sendWith(counting.override, "/v1/shows/idem-show/questions", clientKey, "show-q-1", body);
    const again = await sendWith(counting.override, "/v1/shows/idem-show/questions", clientKey, "show-q-1", body);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    expect(counting.calls).toHaveLength(1);
    const status = await call("/v1/shows/idem-show/status", { key: clientKey });
    expect(status.json!.questionCount).toBe(1);
  });

  it("keeps no 5xx answer: after a 503 (embedder down) a retry with the same key runs and stores the question", async () => {
    const { clientKey } = await newTenant();
    const body = { questions: [{ text: "Which city hosts the final?" }] };
    const failed = await sendWith(embedderDown, "/v1/shows/idem-retry/questions", clientKey, "show-q-2", body);
    expect(failed.status).toBe(503);
    const retried = await sendWith((s) => s, "/v1/shows/idem-retry/questions", clientKey, "show-q-2", body);
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect((await call("/v1/shows/idem-retry/status", { key: clientKey })).json!.questionCount).toBe(1);
  });
});

describe("POST /v1/faqs/:id/variants with an Idempotency-Key", () => {
  it("replays the 201 of a retried variant instead of answering 409 duplicate", async () => {
    const { clientKey } = await newTenant();
    const faq = await call("/v1/faqs", { key: clientKey, body: { question: "Where are invoices?", answer: "Billing → Invoices" } });
    const headers = { [KEY_HEADER]: "variant-1" };
    const body = { variantText: "How can I find my invoices?" };
    const first = await call(`/v1/faqs/${faq.json!.id}/variants`, { key: clientKey, body, headers });
    const again = await call(`/v1/faqs/${faq.json!.id}/variants`, { key: clientKey, body, headers });
    const withoutKey = await call(`/v1/faqs/${faq.json!.id}/variants`, { key: clientKey, body });
    expect(first.status).toBe(201);
    expect([again.status, again.json]).toEqual([201, first.json]);
    expect(withoutKey.status).toBe(409);
  });
});

describe("POST /v1/faqs/import with an Idempotency-Key", () => {
  it("replays a retried NDJSON import instead of importing its lines again", async () => {
    const { tenantId, adminKey } = await newTenant();
    const raw = [
      { question: "How do I export my data?", answer: "Settings → Export" },
      { question: "Can I change my username?", answer: "Yes, once a month" },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n");
    const send = () => call("/v1/faqs/import", { key: adminKey, raw, headers: { "content-type": "application/x-ndjson", [KEY_HEADER]: "import-1" } });
    const first = await send();
    const again = await send();
    expect(first.status).toBeLessThan(300);
    expect([again.status, again.headers.get("idempotent-replayed"), again.json]).toEqual([first.status, "true", first.json]);
    expect(await countRows("SELECT count(*) AS n FROM faqs WHERE tenant_id = ?", tenantId)).toBe(2);
  });
});

describe("expired Idempotency-Keys", () => {
  it("are deleted by the re-index cron once past their 24 h, not before", async () => {
    const { tenantId, clientKey } = await newTenant();
    const headers = { [KEY_HEADER]: "expiring" };
    expect((await call("/v1/memories", { key: clientKey, body: memory("idem:exp"), headers })).status).toBe(201);
    const stored = () => countRows("SELECT count(*) AS n FROM idempotency_keys WHERE tenant_id = ?", tenantId);
    expect(await stored()).toBe(1);
    await runCron(REINDEX_CRON, createServices(env, fixedClock(Date.now() + 60 * 60 * 1000)));
    expect(await stored()).toBe(1);
    const report = await runCron(REINDEX_CRON, createServices(env, fixedClock(Date.now() + 24 * 60 * 60 * 1000 + 60_000)));
    expect(report.pruneIdempotencyKeys).toMatchObject({ deleted: expect.any(Number) });
    expect(await stored()).toBe(0);
  });
});

describe("GET /openapi.json", () => {
  it("documents the Idempotency-Key header and its 409s on the creates", async () => {
    const doc = (await call("/openapi.json")).json as any;
    for (const [path, method] of [
      ["/v1/memories", "post"],
      ["/v1/faqs", "post"],
      ["/v1/faqs/import", "post"],
      ["/v1/faqs/{id}/variants", "post"],
      ["/v1/shows/{showId}/questions", "post"],
      ["/v1/staging/{id}/approve", "post"],
    ] as const) {
      const op = doc.paths[path][method];
      expect(op.parameters, path).toEqual(expect.arrayContaining([expect.objectContaining({ in: "header", name: KEY_HEADER, required: false })]));
      expect(op.responses["409"].description, path).toMatch(/IDEMPOTENCY_KEY_REUSED.*IDEMPOTENCY_IN_PROGRESS/);
    }
    expect(doc.paths["/v1/faqs/{id}/variants"].post.responses["409"].description).toMatch(/^CONFLICT: the FAQ already has that phrasing/);
  });
});
