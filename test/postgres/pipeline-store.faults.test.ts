/**
 * Ticket intake while the pipeline store's Postgres is down or hung: the signed webhook still
 * answers 202 within a bound (its secret is on D1), the whole ticket rides in its queue message,
 * and once Postgres is back the consumer inserts it under the id the webhook answered and decides
 * it; meanwhile the ticket routes answer 503 STORE_UNAVAILABLE. The Worker's own Hono app
 * (createApp) with the Postgres-backed services, under Node; the queue records what it is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, createTenant } from "../../src/features/auth/keys";
import { STORE_DEADLINE_MS } from "../../src/features/faqs/postgres/unavailable";
import { createApp } from "../../src/app/app";
import { consumeTickets } from "../../src/features/tickets/consume";
import type { TicketMessage } from "../../src/platform/ports/ticket-message";
import { pipelineStore } from "../../src/features/tickets/select";
import { signPayload } from "../../src/features/tickets/signature";
import { type Backends, nodeEnv, startBackends } from "./support/backends";

let backends: Backends;
let tenantId: string;
let adminKey: string;
let secret: string;
const sent: { body: TicketMessage }[] = [];
const queue = {
  send: async (body: TicketMessage) => void sent.push({ body }),
  sendBatch: async (messages: Iterable<{ body: TicketMessage }>) => void sent.push(...messages),
};
const app = createApp({ services: () => ({ ...backends.services("postgres"), ticketQueue: queue as unknown as Queue<TicketMessage> }) });

async function call(path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
  const started = Date.now();
  const res = await app.request(
    path,
    {
      method: init.body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json", ...init.headers },
      body: init.body,
    },
    // Limits are not what this file tests: nodeEnv's are unlimited.
    nodeEnv({ DB: backends.services("d1").db, TICKETS: queue }),
  );
  return { status: res.status, json: (await res.json()) as Record<string, any>, ms: Date.now() - started };
}

let counter = 0;
async function deliver(...questions: string[]) {
  const tickets = questions.map((question) => ({
    ticketId: `OUT-${++counter}`,
    subject: "",
    question,
    answer: "Answered by support.",
    resolvedAt: "2026-11-01T10:00:00Z",
  }));
  const raw = JSON.stringify(tickets.length === 1 ? tickets[0] : { tickets });
  const timestamp = String(Math.floor(Date.now() / 1000));
  return call("/v1/webhooks/tickets", {
    body: raw,
    headers: {
      "x-recall-tenant": tenantId,
      "x-recall-timestamp": timestamp,
      "x-recall-signature": await signPayload(secret, timestamp, raw),
    },
  });
}

/** Hands the recorded messages to the consumer as one batch, as the queue would: a retried one is delivered again next time. */
async function consumeSent() {
  const acked: string[] = [];
  const messages = sent.splice(0).map((m, i) => ({
    id: `m${i}`,
    attempts: 1,
    body: m.body,
    timestamp: new Date(),
    ack: () => acked.push(`m${i}`),
    retry: () => sent.push(m),
  }));
  await consumeTickets({ queue: "recall-tickets", messages } as unknown as MessageBatch<unknown>, backends.services("postgres"));
  return { acked, count: messages.length };
}

beforeAll(async () => {
  backends = await startBackends();
  const db = backends.services("d1").db;
  tenantId = (await createTenant(db, { name: "intake-faults", now: Date.now() })).id;
  adminKey = (await createApiKey(db, { tenantId, role: "admin", now: Date.now() })).key;
  const created = await call("/v1/admin/webhook-secrets", { body: "{}" });
  expect(created.status).toBe(201);
  secret = created.json.secret;
});
afterAll(() => backends?.close());

describe("ticket intake while the pipeline store's Postgres fails", () => {
  it("answers 202 while Postgres is down, carries each ticket in its message, and decides them all once it is back", async () => {
    await backends.postgres.pause();
    const answered: string[] = [];
    try {
      const one = await deliver("Do you deliver on Sundays?");
      expect(one.status).toBe(202);
      expect(one.json).toMatchObject({ status: "received", duplicate: false, decision: null });
      expect(one.ms).toBeLessThan(STORE_DEADLINE_MS + 1000);
      answered.push(one.json.id);
      const batch = await deliver("Can I pay by bank transfer?", "Where can I download my invoices?");
      expect(batch.status).toBe(202);
      answered.push(...(batch.json.tickets as { id: string }[]).map((t) => t.id));
      expect(sent.map((m) => m.body)).toEqual(
        answered.map((id) => ({ tenantId, ticketRowId: id, ticket: expect.objectContaining({ receivedAt: expect.any(Number) }) })),
      );
      // Reading tickets needs the store: 503, not a hang and not a 500.
      const read = await call(`/v1/tickets/${answered[0]}`);
      expect(read).toMatchObject({ status: 503, json: { error: { code: "STORE_UNAVAILABLE" } } });
      // The consumer cannot store them yet: nothing acked, the queue keeps them for a retry.
      const early = await consumeSent();
      expect(early).toEqual({ acked: [], count: 3 });
    } finally {
      await backends.postgres.resume();
    }
    // The retry (the same carried messages, redelivered) stores and decides every one under its answered id.
    const later = await consumeSent();
    expect(later.acked).toHaveLength(3);
    for (const id of answered) {
      const read = await call(`/v1/tickets/${id}`);
      expect(read).toMatchObject({ status: 200, json: { id, status: "decided", decision: { action: "NEW" } } });
    }
    expect((await pipelineStore(backends.services("postgres")).listTickets(tenantId, { limit: 10 })).rows).toHaveLength(3);
  }, 60_000);

  it("answers 202 within the bound when Postgres hangs, and the ticket is decided after", async () => {
    backends.postgres.stall();
    let id: string;
    try {
      const res = await deliver("Is there a student discount?");
      expect(res.status).toBe(202);
      expect(res.ms).toBeLessThan(STORE_DEADLINE_MS + 1000);
      id = res.json.id;
    } finally {
      backends.postgres.unstall();
    }
    expect(await consumeSent()).toEqual({ acked: ["m0"], count: 1 });
    expect((await call(`/v1/tickets/${id}`)).json).toMatchObject({ status: "decided" });
  }, 30_000);
});
