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
import type { RecallClient } from "../../src/client/client";
import type { LocalPostgres } from "./support/backends";

interface Worker {
  db: D1Database;
  client(): RecallClient;
  close(): Promise<void>;
}

/** The typed body of a response that must have this status (test/support/client.ts needs workerd). */
async function expectJson<R extends { status: number; json(): Promise<unknown> }>(
  pending: Promise<R>,
  status: number,
): Promise<Awaited<ReturnType<R["json"]>>> {
  const res = await pending;
  expect(res.status).toBe(status);
  return (await res.json()) as Awaited<ReturnType<R["json"]>>;
}

let postgres: LocalPostgres & {
  activeConnections(): number;
  db: { query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };
};
let worker: Worker;

beforeAll(async () => {
  postgres = await startLocalPostgres();
  const wsProxy = `127.0.0.1:${postgres.proxyPort}`;
  await migratePostgres(postgres.databaseUrl, { wsProxy });
  worker = await startWorker({
    helperEmbedder: false,
    bindings: { FAQ_STORE: "postgres", DATABASE_URL: postgres.databaseUrl, DATABASE_WS_PROXY: wsProxy },
  });
}, 180_000);
afterAll(async () => {
  await worker?.close();
  await postgres?.stop();
});

describe("the Worker on Postgres", () => {
  it("creates and searches FAQs that live in Postgres, not in D1", async () => {
    const api = worker.client();
    const created = await expectJson(
      api.v1.faqs.$post({ json: { question: "How do I reset my password?", answer: "Settings → Security.", tags: ["account"] } }),
      201,
    );
    await expectJson(
      api.v1.faqs[":id"].variants.$post({ param: { id: created.id }, json: { variantText: "locked out of my account" } }),
      201,
    );
    const found = await expectJson(api.v1.faqs.search.$post({ json: { query: "locked out" } }), 200);
    expect(found.results).toEqual([
      expect.objectContaining({ id: created.id, matchType: expect.arrayContaining(["variant_bm25", "variant_vector"]) }),
    ]);
    const rows = await postgres.db.query("SELECT id, index_state, embedding_model FROM faqs WHERE id = $1", [created.id]);
    expect(rows.rows).toEqual([{ id: created.id, index_state: "indexed", embedding_model: "use-lite-512" }]);
    expect(await worker.db.prepare("SELECT COUNT(*) AS n FROM faqs").first("n")).toBe(0);
  });

  it("closes each request's connections when the request is done", async () => {
    for (let i = 0; i < 15; i++) {
      const res = await expectJson(worker.client().v1.faqs.search.$post({ json: { query: `password ${i}` } }), 200);
      expect(res.results).toBeDefined();
    }
    await expect.poll(() => postgres.activeConnections(), { timeout: 5_000 }).toBe(0);
  });
});
