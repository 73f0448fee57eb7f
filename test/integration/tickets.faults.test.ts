/**
 * The consumer under faults, driven through its real queue handler contract (createMessageBatch +
 * getQueueResult) on real D1: the embedder down (retried with backoff, never decided), a judge
 * that crashes on one ticket mid-batch (only that message is retried), dead-lettering after
 * TICKET_MAX_ATTEMPTS, a judge answering garbage (the heuristic decides, and the record says so).
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { heuristicJudge } from "../../src/platform/judge/heuristic";
import { workersAiJudge } from "../../src/adapters/judge/workers-ai";
import { createServices } from "../../src/app/services";
import { type Services } from "../../src/platform/ports/services";
import { consumeTickets, processTicket, retryDelaySeconds, TICKET_MAX_ATTEMPTS } from "../../src/features/tickets/consume";
import { d1PipelineStore } from "../../src/features/tickets/d1-store";
import { newTenant, type TestTenant } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";
import { embedderDown } from "../support/app";
import { SURE_REFUND_REWORDING } from "../fixtures/ticket-questions";
import { readTicket, seedFaq } from "../support/tickets";

const REFUND_Q = "How long does a refund take to arrive?";
const REFUND_A = "Refunds reach your card within 5 to 10 business days after we receive the return.";

async function stored(tenant: TestTenant, question: string, answer = "Within 5 to 10 business days.") {
  const { row } = await d1PipelineStore(env.DB).insertTicket(
    tenant.tenantId,
    { ticketId: `F-${crypto.randomUUID()}`, subject: "", question, answer, tags: [], resolvedAt: 0 },
    Date.now(),
  );
  return row.id;
}

async function consume(services: Services, messages: { id: string; attempts: number; body: unknown }[]) {
  const batch = createMessageBatch(
    "recall-tickets",
    messages.map((m) => ({ ...m, timestamp: new Date() })),
  );
  const ctx = createExecutionContext();
  await consumeTickets(batch, services);
  return getQueueResult(batch, ctx);
}

async function status(tenant: TestTenant, id: string) {
  return readTicket(tenant, id);
}

describe("TICKETS consumer faults", () => {
  it("retries with backoff while the embedder is down, without deciding; decides once it is back", async () => {
    const tenant = await newTenant();
    await seedFaq(tenant, REFUND_Q, REFUND_A);
    const id = await stored(tenant, SURE_REFUND_REWORDING);
    const real = createServices(env);
    const result = await consume(embedderDown(real), [{ id: "m1", attempts: 2, body: { tenantId: tenant.tenantId, ticketRowId: id } }]);
    expect(result.explicitAcks).toEqual([]);
    // (getQueueResult does not report the delay; retryDelaySeconds is checked below)
    expect(result.retryMessages).toEqual([expect.objectContaining({ msgId: "m1" })]);
    const t = await status(tenant, id);
    expect(t).toMatchObject({ status: "received", decision: null });
    expect(t.lastError).toContain("PipelineUnavailable");

    const again = await consume(real, [{ id: "m1", attempts: 3, body: { tenantId: tenant.tenantId, ticketRowId: id } }]);
    expect(again.explicitAcks).toEqual(["m1"]);
    expect((await status(tenant, id)).decision!.action).toBe("ADD_VARIANT");
  });

  it("acks each message only after its outcome is stored: a crash on one ticket retries that one only", async () => {
    const tenant = await newTenant();
    await seedFaq(tenant, REFUND_Q, REFUND_A);
    const a = await stored(tenant, "How long until I get my refund?");
    const b = await stored(tenant, "Why was my refund declined?");
    const c = await stored(tenant, "Do you offer express delivery?");
    const crashing: Services = {
      ...createServices(env),
      judge: {
        ...heuristicJudge,
        kind: "crashing",
        answerAddsInformation: async (ticket, faq) => {
          if (ticket.question.startsWith("Why was")) throw new Error("judge crashed");
          return heuristicJudge.answerAddsInformation(ticket, faq);
        },
      },
    };
    const body = (ticketRowId: string) => ({ tenantId: tenant.tenantId, ticketRowId });
    const result = await consume(crashing, [
      { id: "a", attempts: 1, body: body(a) },
      { id: "b", attempts: 1, body: body(b) },
      { id: "c", attempts: 1, body: body(c) },
    ]);
    expect(result.explicitAcks.sort()).toEqual(["a", "c"]);
    expect(result.retryMessages).toEqual([expect.objectContaining({ msgId: "b" })]);
    expect((await status(tenant, a)).status).toBe("decided");
    expect((await status(tenant, b)).status).toBe("received");
    expect((await status(tenant, c)).status).toBe("decided");
  });

  it(`dead-letters a ticket at attempt ${TICKET_MAX_ATTEMPTS} with its last error, acks it, and lists it for admins; requeue puts it back`, async () => {
    const tenant = await newTenant();
    await seedFaq(tenant, REFUND_Q, REFUND_A);
    const id = await stored(tenant, "How long until my refund gets back to me?");
    const down = embedderDown(createServices(env));
    const early = await consume(down, [
      { id: "m", attempts: TICKET_MAX_ATTEMPTS - 1, body: { tenantId: tenant.tenantId, ticketRowId: id } },
    ]);
    expect(early.retryMessages).toHaveLength(1);
    const last = await consume(down, [{ id: "m", attempts: TICKET_MAX_ATTEMPTS, body: { tenantId: tenant.tenantId, ticketRowId: id } }]);
    expect(last.explicitAcks).toEqual(["m"]);
    expect(last.retryMessages).toEqual([]);

    const admin = apiClient(tenant.adminKey);
    const listed = await expectJson(admin.v1.tickets.$get({ query: { status: "dead_letter" } }), 200);
    expect(listed.tickets).toEqual([
      expect.objectContaining({ id, status: "dead_letter", decision: null, lastError: expect.stringContaining("PipelineUnavailable") }),
    ]);

    const requeue = () => admin.v1.tickets[":id"].requeue.$post({ param: { id } });
    expect((await expectJson(requeue(), 202)).status).toBe("received");
    await expectError(requeue(), 409);
  });

  it("backs off exponentially, capped", () => {
    expect([1, 2, 3, 4, 5, 6].map(retryDelaySeconds)).toEqual([10, 20, 40, 80, 160, 300]);
  });

  it("acks a malformed message (nothing to store it against) and a message for a ticket that does not exist", async () => {
    const tenant = await newTenant();
    const result = await consume(createServices(env), [
      { id: "x", attempts: 1, body: "garbage" },
      { id: "y", attempts: 1, body: { tenantId: tenant.tenantId, ticketRowId: "tkt_missing" } },
    ]);
    expect(result.explicitAcks.sort()).toEqual(["x", "y"]);
  });

  it("a judge model answering garbage falls back to the heuristic, and the decision names both", async () => {
    const tenant = await newTenant();
    await seedFaq(tenant, REFUND_Q, REFUND_A);
    const id = await stored(tenant, SURE_REFUND_REWORDING);
    let calls = 0;
    const garbageAi = {
      run: async () => {
        calls++;
        return { response: "Sure! Here is my answer: maybe?" };
      },
    };
    const services = { ...createServices(env), judge: workersAiJudge(garbageAi) };
    expect(await processTicket(services, { tenantId: tenant.tenantId, ticketRowId: id })).toEqual({
      kind: "decided",
      action: "ADD_VARIANT",
    });
    expect(calls).toBe(2);
    const t = await status(tenant, id);
    expect(t.decision!.judge).toBe("workers-ai:@cf/meta/llama-3.1-8b-instruct → heuristic (unusable model answer)");
  });
});
