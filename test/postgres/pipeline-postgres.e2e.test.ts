/**
 * The ticket pipeline end to end through the Worker with FAQ_STORE=postgres: the deploy bundle
 * under Miniflare (workerd) with its TICKETS queue consumer, the FAQs in the local Postgres
 * (PGlite + pgvector behind the WebSocket proxy, reached by Neon's driver). Signed webhook →
 * queue → match against the Postgres FAQs → variant or staging → approve → FAQ in Postgres.
 * The tickets and staging items are in Postgres too; the webhook secrets stay in D1 (docs/guides/postgres.md).
 * Then an outage: Postgres stops mid-run, intake still answers 202 (each ticket carried in its
 * queue message), the queue retries, and every ticket that arrived is decided once Postgres is back.
 */
import { SURE_REFUND_REWORDING } from "../fixtures/ticket-questions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM module shared with the benches, no type declarations
import { startWorker } from "../../bench/support/worker.mjs";
// @ts-expect-error: plain ESM modules shared with `npm start` and the bench
import { startLocalPostgres } from "../../scripts/local-postgres.mjs";
// @ts-expect-error: plain ESM module shared with `npm run db:migrate:pg`
import { migratePostgres } from "../../scripts/pg-migrate.mjs";
import type { RecallClient } from "../../src/client/client";
import { signPayload } from "../../src/features/tickets/signature";
import type { LocalPostgres } from "./support/backends";

interface Worker {
  db: D1Database;
  client(key?: string): RecallClient;
  close(): Promise<void>;
}

const DEV_TENANT = "t_dev";
const REFUND_Q = "How long does a refund take to arrive?";
const REFUND_A = "Refunds reach your card within 5 to 10 business days after we receive the return.";

async function expectJson<R extends { status: number; json(): Promise<unknown> }>(
  pending: Promise<R>,
  status: number,
): Promise<Awaited<ReturnType<R["json"]>>> {
  const res = await pending;
  const body = (await res.json()) as Awaited<ReturnType<R["json"]>>;
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body;
}

let postgres: LocalPostgres & { db: { query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> } };
let worker: Worker;
let secret: string;
let counter = 0;

beforeAll(async () => {
  postgres = await startLocalPostgres();
  const wsProxy = `127.0.0.1:${postgres.proxyPort}`;
  await migratePostgres(postgres.databaseUrl, { wsProxy });
  worker = await startWorker({
    helperEmbedder: false,
    ticketConsumer: true,
    bindings: { FAQ_STORE: "postgres", DATABASE_URL: postgres.databaseUrl, DATABASE_WS_PROXY: wsProxy },
  });
  const created = await expectJson(worker.client().v1.admin["webhook-secrets"].$post({ json: {} }), 201);
  secret = created.secret!;
}, 180_000);
afterAll(async () => {
  await worker?.close();
  await postgres?.stop();
});

/** A signed delivery to /v1/webhooks/tickets; resolves to the stored ticket's id (202). */
async function deliver(question: string, answer: string): Promise<string> {
  const raw = JSON.stringify({ ticketId: `T-pg-${++counter}`, subject: "", question, answer, resolvedAt: "2026-11-01T10:00:00Z" });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headers = {
    "content-type": "application/json",
    "x-recall-tenant": DEV_TENANT,
    "x-recall-timestamp": timestamp,
    "x-recall-signature": await signPayload(secret, timestamp, raw),
  };
  const body = await expectJson(worker.client().v1.webhooks.tickets.$post({}, { headers, init: { body: raw } }), 202);
  if (!("id" in body)) throw new Error(`a batch answer to one ticket: ${JSON.stringify(body)}`);
  return body.id;
}

async function waitForDecision(id: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    // 404 until a queue-carried ticket is stored by the consumer.
    const res = await worker.client().v1.tickets[":id"].$get({ param: { id } });
    const ticket = res.ok ? await res.json() : null;
    if (ticket && ticket.status !== "received") return ticket;
    if (Date.now() > until)
      throw new Error(`ticket ${id} still ${ticket?.status ?? res.status} after ${timeoutMs} ms (${ticket?.lastError})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("the ticket pipeline on Postgres, through the Worker", () => {
  it("adds a close ticket's question as a variant of the Postgres FAQ, and stages a new one that approval creates in Postgres", async () => {
    const api = worker.client();
    const faq = await expectJson(api.v1.faqs.$post({ json: { question: REFUND_Q, answer: REFUND_A } }), 201);

    // Sure of the same question in a new phrasing (test/fixtures/ticket-questions.ts): ADD_VARIANT, straight into production.
    const close = await waitForDecision(await deliver(SURE_REFUND_REWORDING, "Refunds reach your card within 5 to 10 business days."));
    expect(close.decision).toMatchObject({ action: "ADD_VARIANT", matchedFaqId: faq.id, similarityMethod: "calibrated" });
    const variants = await postgres.db.query("SELECT id, variant_text, source, index_state FROM faq_variants WHERE faq_id = $1", [faq.id]);
    expect(variants.rows).toEqual([
      { id: close.decision!.variantId, variant_text: SURE_REFUND_REWORDING, source: "pipeline", index_state: "indexed" },
    ]);
    // A second delivery of the same phrasing now matches that variant (read from Postgres by the match).
    const again = await waitForDecision(await deliver(SURE_REFUND_REWORDING, "Within 10 business days."));
    expect(again.decision).toMatchObject({ action: "SKIP", matchedFaqId: faq.id, matchedVariantId: close.decision!.variantId });

    const fresh = await waitForDecision(await deliver("Do you offer express delivery?", "Yes, for 9.90 within Germany."));
    expect(fresh.decision).toMatchObject({ action: "NEW", stagingId: expect.any(String) });
    const approved = await expectJson(api.v1.staging[":id"].approve.$post({ param: { id: fresh.decision!.stagingId! }, json: {} }), 200);
    expect(approved).toMatchObject({ status: "approved", resultFaqId: expect.any(String) });
    const created = await postgres.db.query("SELECT question, index_state FROM faqs WHERE id = $1", [approved.resultFaqId]);
    expect(created.rows).toEqual([{ question: expect.stringContaining("express delivery"), index_state: "indexed" }]);
    expect(await worker.db.prepare("SELECT COUNT(*) AS n FROM faqs").first("n")).toBe(0);
    // The pipeline's rows are next to the FAQs: in Postgres, none in D1.
    const pgTickets = await postgres.db.query("SELECT status, COUNT(*)::int AS n FROM tickets GROUP BY status");
    expect(pgTickets.rows).toEqual([{ status: "decided", n: 3 }]);
    const pgStaging = await postgres.db.query("SELECT id, status, result_faq_id FROM staging_items");
    expect(pgStaging.rows).toEqual([{ id: fresh.decision!.stagingId, status: "approved", result_faq_id: approved.resultFaqId }]);
    expect(await worker.db.prepare("SELECT (SELECT COUNT(*) FROM tickets) + (SELECT COUNT(*) FROM staging_items) AS n").first("n")).toBe(0);

    // The FAQ's detail on Postgres: its variant, its stats, and links (auto and manual) stored next to it.
    const detail = await expectJson(api.v1.faqs[":id"].$get({ param: { id: faq.id } }), 200);
    expect(detail.variants.map((v) => v.source)).toEqual(["pipeline"]);
    const link = await expectJson(
      api.v1.faqs[":id"].related.$post({
        param: { id: faq.id },
        json: { targetFaqId: approved.resultFaqId!, relationshipType: "see_also" },
      }),
      201,
    );
    expect((await expectJson(api.v1.faqs[":id"].$get({ param: { id: faq.id } }), 200)).related).toMatchObject([
      { relationshipId: link.relationshipId, id: approved.resultFaqId, relationshipType: "see_also" },
    ]);

    // The pipeline's stats count the Postgres FAQs and re-check the approved one for duplicates there.
    const stats = await expectJson(api.v1.pipeline.stats.$get({ query: {} }), 200);
    expect(stats.variantsPerFaq).toMatchObject({ faqs: 2, variants: 1, pipelineVariants: 1, max: 1 });
    expect(stats.duplicateCreation).toMatchObject({ created: 1, checked: 1, likelyDuplicates: 0 });
  });

  it("keeps answering webhooks 202 while Postgres is down, and decides every ticket once it is back", async () => {
    const api = worker.client();
    await expectJson(api.v1.faqs.$post({ json: { question: "How do I reset my password?", answer: "Use the reset link." } }), 201);
    await postgres.pause();
    const arrived: string[] = [];
    try {
      for (const question of ["How can I reset my password?", "Where can I download my invoices?", "Can I pay by bank transfer?"])
        arrived.push(await deliver(question, "Answered by support."));
      // Tickets and FAQ routes say so meanwhile (the tickets are in Postgres too); the queue holds the tickets for a retry.
      expect((await worker.client().v1.tickets[":id"].$get({ param: { id: arrived[0]! } })).status).toBe(503);
      const res = await api.v1.faqs.search.$post({ json: { query: "password" } });
      expect(res.status).toBe(503);
      // Let the consumer try (and fail) while the database is down.
      await new Promise((r) => setTimeout(r, 3_000));
    } finally {
      await postgres.resume();
    }
    const backAt = Date.now();
    // Back: the retries (10 s backoff after the first failed attempt) store and decide them all under
    // the ids the webhook answered, none lost or dead-lettered.
    const decided = await Promise.all(arrived.map((id) => waitForDecision(id, 60_000)));
    expect(decided.map((t) => [t.id, t.status])).toEqual(arrived.map((id) => [id, "decided"]));
    for (const t of decided) expect(Date.parse(t.decision!.decidedAt!)).toBeGreaterThanOrEqual(backAt - 1000);
    // A new phrasing of the FAQ's question, decided sure: it became a variant.
    expect(decided[0]!.decision).toMatchObject({ action: "ADD_VARIANT" });
  }, 90_000);
});
