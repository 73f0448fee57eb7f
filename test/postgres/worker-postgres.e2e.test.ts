/**
 * End to end through the Worker: the deploy bundle under Miniflare (workerd) with
 * FAQ_STORE=postgres, its Neon driver reaching the local Postgres through the WebSocket proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM module shared with the benches, no type declarations
import { startWorker } from "../../bench/support/worker.mjs";
// @ts-expect-error: plain ESM modules shared with `npm start` and the bench
import { startLocalPostgres } from "../../scripts/local-postgres.mjs";
// @ts-expect-error: plain ESM module shared with `npm run db:migrate:pg`
import { migratePostgres } from "../../scripts/pg-migrate.mjs";
import type { LocalPostgres } from "./support/backends";

interface Worker {
  db: D1Database;
  call(path: string, body?: unknown, options?: { method?: string }): Promise<{ json: Record<string, never> }>;
  close(): Promise<void>;
}

let postgres: LocalPostgres & {
  activeConnections(): number; db: { query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> } };
let worker: Worker;

beforeAll(async () => {
  postgres = await startLocalPostgres();
  const wsProxy = `127.0.0.1:${postgres.proxyPort}`;
  await migratePostgres(postgres.databaseUrl, { wsProxy });
  worker = await startWorker({ helperEmbedder: false, bindings: { FAQ_STORE: "postgres", DATABASE_URL: postgres.databaseUrl, DATABASE_WS_PROXY: wsProxy } });
}, 180_000);
afterAll(async () => {
  await worker?.close();
  await postgres?.stop();
});

describe("the Worker on Postgres", () => {
  it("creates and searches FAQs that live in Postgres, not in D1", async () => {
    const created = await worker.call("/v1/faqs", { question: "How do I reset my password?", answer: "Settings → Security.", tags: ["account"] });
    await worker.call(`/v1/faqs/${created.json.id}/variants`, { variantText: "locked out of my account" });
    const found = await worker.call("/v1/faqs/search", { query: "locked out" });
    expect(found.json.results).toEqual([expect.objectContaining({ id: created.json.id, matchType: expect.arrayContaining(["variant_bm25", "variant_vector"]) })]);
    const rows = await postgres.db.query("SELECT id, index_state, embedding_model FROM faqs WHERE id = $1", [created.json.id]);
    expect(rows.rows).toEqual([{ id: created.json.id, index_state: "indexed", embedding_model: "use-lite-512" }]);
    expect(await worker.db.prepare("SELECT COUNT(*) AS n FROM faqs").first("n")).toBe(0);
  });

  it("closes each request's connections when the request is done", async () => {
    for (let i = 0; i < 15; i++) {
      const res = await worker.call("/v1/faqs/search", { query: `password ${i}` });
      expect(res.json.results).toBeDefined();
    }
    await expect.poll(() => postgres.activeConnections(), { timeout: 5_000 }).toBe(0);
  });
});
