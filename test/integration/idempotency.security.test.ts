import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/core/base/clock";
import { createServices } from "../../src/app/services";
import { REINDEX_CRON, runCron } from "../../src/app/cron";
import { newTenant, send } from "../support/api";
import { clientWith, countingEmbedder, embedderDown } from "../support/app";
import { apiClient, expectError, expectJson, oneAttempt } from "../support/client";

// Every client here makes one attempt per request (oneAttempt): the tests assert what the Worker
// answers to each request, not what the client's retries make of it.
const KEY_HEADER = "Idempotency-Key";
const memory = (scope: string, content = "The deploy runs from the main branch") => ({ scope, content, memoryType: "fact" as const });
const idempotencyKey = (key: string) => ({ headers: { [KEY_HEADER]: key } });

async function countRows(sql: string, ...args: unknown[]): Promise<number> {
  return (await env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>())!.n;
}

describe("POST /v1/memories with an Idempotency-Key", () => {
  it("replays the first answer for the same key and body, and stores one row", async () => {
    const { tenantId, clientKey } = await newTenant();
    const memories = apiClient(clientKey, {}, oneAttempt).v1.memories;
    const first = await memories.$post({ json: memory("idem:a") }, idempotencyKey("mem-retry-1"));
    const again = await memories.$post({ json: memory("idem:a") }, idempotencyKey("mem-retry-1"));
    const firstBody = await expectJson(first, 201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const againBody = await expectJson(again, 201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toMatch(/^application\/json/);
    expect(againBody).toEqual(firstBody);
    expect(await countRows("SELECT count(*) AS n FROM memories WHERE tenant_id = ? AND scope = 'idem:a'", tenantId)).toBe(1);
  });

  it("answers 409 IDEMPOTENCY_KEY_REUSED when the key comes back with another body, and stores nothing", async () => {
    const { tenantId, clientKey } = await newTenant();
    const memories = apiClient(clientKey, {}, oneAttempt).v1.memories;
    await expectJson(memories.$post({ json: memory("idem:b") }, idempotencyKey("mem-retry-2")), 201);
    const other = await expectError(
      memories.$post({ json: memory("idem:b", "Something else entirely") }, idempotencyKey("mem-retry-2")),
      409,
    );
    expect(other).toEqual({
      error: { code: "IDEMPOTENCY_KEY_REUSED", message: expect.stringMatching(/another request/), requestId: expect.any(String) },
    });
    expect(await countRows("SELECT count(*) AS n FROM memories WHERE tenant_id = ? AND scope = 'idem:b'", tenantId)).toBe(1);
  });

  it("refuses a key that is empty, too long, or not visible ASCII with a 400, storing nothing", async () => {
    const { tenantId, clientKey } = await newTenant();
    const memories = apiClient(clientKey, {}, oneAttempt).v1.memories;
    for (const bad of ["", "has space", "x".repeat(256), "tab\there"]) {
      const response = await memories.$post({ json: memory("idem:bad") }, idempotencyKey(bad));
      expect(response.status, JSON.stringify(bad)).toBe(400);
      await expectError(response, 400, "BAD_REQUEST");
    }
    await expectJson(memories.$post({ json: memory("idem:bad") }, idempotencyKey("x".repeat(255))), 201);
    expect(await countRows("SELECT count(*) AS n FROM memories WHERE tenant_id = ? AND scope = 'idem:bad'", tenantId)).toBe(1);
  });

  it("never replays another tenant's answer for the same key and body", async () => {
    const a = apiClient((await newTenant("tenant a")).clientKey, {}, oneAttempt);
    const b = apiClient((await newTenant("tenant b")).clientKey, {}, oneAttempt);
    const fromA = await expectJson(a.v1.memories.$post({ json: memory("idem:shared") }, idempotencyKey("shared-key")), 201);
    const resB = await b.v1.memories.$post({ json: memory("idem:shared") }, idempotencyKey("shared-key"));
    const fromB = await expectJson(resB, 201);
    expect(resB.headers.get("idempotent-replayed")).toBeNull();
    expect(fromB.id).not.toBe(fromA.id);
    await expectError(a.v1.memories[":id"].$get({ param: { id: fromB.id } }), 404);
  });
});

describe("concurrent first requests with one Idempotency-Key", () => {
  it("create one FAQ from 100 identical POST /v1/faqs; every other answer is the replay or 409 IDEMPOTENCY_IN_PROGRESS", async () => {
    const { tenantId, clientKey } = await newTenant();
    const faqs = apiClient(clientKey, {}, oneAttempt).v1.faqs;
    const body = { question: "How do I rotate my webhook secret?", answer: "POST /v1/admin/webhook-secrets/rotate" };
    const answers = await Promise.all(Array.from({ length: 100 }, () => faqs.$post({ json: body }, idempotencyKey("faq-storm"))));
    expect(await countRows("SELECT count(*) AS n FROM faqs WHERE tenant_id = ?", tenantId)).toBe(1);
    const created = answers.filter((a) => a.status === 201);
    expect(created.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    const ids = await Promise.all(created.map(async (a) => (await expectJson(a, 201)).id));
    expect(new Set(ids).size).toBe(1);
    for (const other of answers.filter((a) => a.status !== 201)) {
      await expectError(other, 409, "IDEMPOTENCY_IN_PROGRESS");
      expect(Number(other.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });
});

describe("POST /v1/shows/:showId/questions with an Idempotency-Key", () => {
  it("replays without reaching the show again (no second question, no second embedding)", async () => {
    const { clientKey } = await newTenant();
    const counting = countingEmbedder();
    const questions = clientWith(counting.override, clientKey, oneAttempt).v1.shows[":showId"].questions;
    const add = () =>
      questions.$post(
        { param: { showId: "idem-show" }, json: { questions: [{ text: "What did the guest say about the launch date?" }] } },
        idempotencyKey("show-q-1"),
      );
    const first = await add();
    const again = await add();
    const firstBody = await expectJson(first, 201);
    const againBody = await expectJson(again, 201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(againBody).toEqual(firstBody);
    expect(counting.calls).toHaveLength(1);
    const status = await expectJson(apiClient(clientKey).v1.shows[":showId"].status.$get({ param: { showId: "idem-show" } }), 200);
    expect(status.questionCount).toBe(1);
  });

  it("keeps no 5xx answer: after a 503 (embedder down) a retry with the same key runs and stores the question", async () => {
    const { clientKey } = await newTenant();
    const add = { param: { showId: "idem-retry" }, json: { questions: [{ text: "Which city hosts the final?" }] } };
    await expectError(
      clientWith(embedderDown, clientKey, oneAttempt).v1.shows[":showId"].questions.$post(add, idempotencyKey("show-q-2")),
      503,
    );
    const retried = await clientWith((s) => s, clientKey, oneAttempt).v1.shows[":showId"].questions.$post(add, idempotencyKey("show-q-2"));
    await expectJson(retried, 201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(
      (await expectJson(apiClient(clientKey).v1.shows[":showId"].status.$get({ param: { showId: "idem-retry" } }), 200)).questionCount,
    ).toBe(1);
  });
});

describe("POST /v1/faqs/:id/variants with an Idempotency-Key", () => {
  it("replays the 201 of a retried variant instead of answering 409 duplicate", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey, {}, oneAttempt);
    const faq = await expectJson(api.v1.faqs.$post({ json: { question: "Where are invoices?", answer: "Billing → Invoices" } }), 201);
    const variants = api.v1.faqs[":id"].variants;
    const body = { variantText: "How can I find my invoices?" };
    const first = await variants.$post({ param: { id: faq.id }, json: body }, idempotencyKey("variant-1"));
    const again = await variants.$post({ param: { id: faq.id }, json: body }, idempotencyKey("variant-1"));
    // Without a key: sent raw, since the typed client gives every create a key of its own.
    const withoutKey = await send(`/v1/faqs/${faq.id}/variants`, { key: clientKey, body });
    const firstBody = await expectJson(first, 201);
    expect(await expectJson(again, 201)).toEqual(firstBody);
    await expectError(withoutKey, 409);
  });
});

describe("POST /v1/faqs/import with an Idempotency-Key", () => {
  it("replays a retried NDJSON import instead of importing its lines again", async () => {
    const { tenantId, adminKey } = await newTenant();
    const body = [
      { question: "How do I export my data?", answer: "Settings → Export" },
      { question: "Can I change my username?", answer: "Yes, once a month" },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n");
    const api = apiClient(adminKey, {}, oneAttempt);
    // An NDJSON body: not JSON, so it goes as init (as in faqs.happy.test.ts).
    const importOnce = () =>
      api.v1.faqs.import.$post({}, { headers: { "content-type": "application/x-ndjson", [KEY_HEADER]: "import-1" }, init: { body } });
    const first = await importOnce();
    const again = await importOnce();
    expect(first.status).toBeLessThan(300);
    expect([again.status, again.headers.get("idempotent-replayed"), await again.json()]).toEqual([
      first.status,
      "true",
      await first.json(),
    ]);
    expect(await countRows("SELECT count(*) AS n FROM faqs WHERE tenant_id = ?", tenantId)).toBe(2);
  });
});

describe("expired Idempotency-Keys", () => {
  it("are deleted by the re-index cron once past their 24 h, not before", async () => {
    const { tenantId, clientKey } = await newTenant();
    await expectJson(apiClient(clientKey, {}, oneAttempt).v1.memories.$post({ json: memory("idem:exp") }, idempotencyKey("expiring")), 201);
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
    const doc = await expectJson(apiClient()["openapi.json"].$get(), 200);
    for (const [path, method] of [
      ["/v1/memories", "post"],
      ["/v1/faqs", "post"],
      ["/v1/faqs/import", "post"],
      ["/v1/faqs/{id}/variants", "post"],
      ["/v1/shows/{showId}/questions", "post"],
      ["/v1/staging/{id}/approve", "post"],
    ] as const) {
      const op = doc.paths![path]![method]!;
      expect(op.parameters, path).toEqual(
        expect.arrayContaining([expect.objectContaining({ in: "header", name: KEY_HEADER, required: false })]),
      );
      expect(op.responses["409"]!.description, path).toMatch(/IDEMPOTENCY_KEY_REUSED.*IDEMPOTENCY_IN_PROGRESS/);
    }
    expect(doc.paths!["/v1/faqs/{id}/variants"]!.post!.responses["409"]!.description).toMatch(
      /^CONFLICT: the FAQ already has that phrasing/,
    );
  });
});
