/**
 * Postgres down or slow: FAQ routes answer 503 STORE_UNAVAILABLE with Retry-After within a bound
 * (never a hang), and serve again when it is back, with nothing lost that was acknowledged.
 * The app is the Worker's own Hono app (createApp) with the Postgres-backed services, under Node.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, createTenant } from "../../src/features/auth/keys";
import { STORE_DEADLINE_MS } from "../../src/features/faqs/postgres/unavailable";
import { createApp } from "../../src/app/app";
import { type Backends, nodeEnv, startBackends } from "./support/backends";

let backends: Backends;
let key: string;
const app = createApp({ services: () => backends.services("postgres") });

beforeAll(async () => {
  backends = await startBackends();
  const db = backends.services("d1").db;
  const tenant = await createTenant(db, { name: "faults", now: Date.now() });
  key = (await createApiKey(db, { tenantId: tenant.id, role: "client", now: Date.now() })).key;
});
afterAll(() => backends?.close());

async function call(path: string, body?: unknown) {
  const started = Date.now();
  const res = await app.request(
    path,
    {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    // Limits are not what this file tests: nodeEnv's are unlimited.
    nodeEnv({ DB: backends.services("d1").db }),
  );
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, never>, ms: Date.now() - started };
}

describe("FAQ routes on Postgres when the database fails", () => {
  it("answer 503 with Retry-After while Postgres is down, and everything acknowledged is there when it is back", async () => {
    const before = await call("/v1/faqs", { question: "How do I reset my password?", answer: "Settings → Security." });
    expect(before.status).toBe(201);

    await backends.postgres.pause();
    const tried = [];
    for (const [path, body] of [
      ["/v1/faqs/search", { query: "reset password" }],
      ["/v1/faqs", { question: "Written during the outage?", answer: "No: refused with 503." }],
      [`/v1/faqs/${before.json.id}`, undefined],
    ] as const) {
      const res = await call(path, body);
      tried.push(res.status);
      expect(res.json).toMatchObject({ error: { code: "STORE_UNAVAILABLE" } });
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.ms).toBeLessThan(STORE_DEADLINE_MS + 1000);
    }
    expect(tried).toEqual([503, 503, 503]);

    await backends.postgres.resume();
    const after = await call("/v1/faqs", { question: "Written after the outage?", answer: "Yes." });
    expect(after.status).toBe(201);
    const listed = await call("/v1/faqs");
    expect(listed.json.faqs).toEqual([expect.objectContaining({ id: after.json.id }), expect.objectContaining({ id: before.json.id })]);
    const found = await call("/v1/faqs/search", { query: "reset password" });
    expect(found.status).toBe(200);
    expect(found.json.results).toEqual(expect.arrayContaining([expect.objectContaining({ id: before.json.id })]));
  });

  it("answers 503 within the bound when Postgres is too slow to answer", async () => {
    backends.postgres.stall();
    try {
      const slow = await call("/v1/faqs/search", { query: "reset password" });
      expect(slow.status).toBe(503);
      expect(slow.json).toMatchObject({ error: { code: "STORE_UNAVAILABLE" } });
      expect(slow.headers.get("retry-after")).toBe("5");
      expect(slow.ms).toBeLessThan(STORE_DEADLINE_MS + 1000);
    } finally {
      backends.postgres.unstall();
    }
    expect((await call("/v1/faqs/search", { query: "reset password" })).status).toBe(200);
  }, 30_000);
});
