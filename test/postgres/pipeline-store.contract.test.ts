/**
 * The pipeline store port's contract: the same ticket-pipeline cases on both backends (D1, and
 * Postgres through the real Neon driver; each with the FAQ store of the same backend, as
 * FAQ_STORE selects them): store, decide, staging approve/reject, dead letter, requeue, stats,
 * listing, the stranded-ticket sweep, and a queue-carried ticket.
 */
import { SURE_REFUND_REWORDING } from "../fixtures/ticket-questions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heuristicJudge } from "../../src/platform/judge/heuristic";
import type { Services } from "../../src/platform/ports/services";
import { consumeTickets, processTicket, TICKET_MAX_ATTEMPTS } from "../../src/features/tickets/consume";
import type { TicketMessage } from "../../src/platform/ports/ticket-message";
import type { TicketInput } from "../../src/platform/ports/ticket-message";
import { pipelineStore } from "../../src/features/tickets/select";
import { approveStaging, rejectStaging } from "../../src/features/tickets/staging";
import { pipelineStats } from "../../src/features/tickets/stats";
import { resendStrandedTickets, STRANDED_AFTER_MS } from "../../src/features/tickets/sweep";
import { BACKENDS, type Backends, newTenant, startBackends } from "./support/backends";

const REFUND_Q = "How long does a refund take to arrive?";
const REFUND_A = "Refunds reach your card within 5 to 10 business days after we receive the return.";

let backends: Backends;
beforeAll(async () => {
  backends = await startBackends();
});
afterAll(() => backends?.close());

let counter = 0;
const ticket = (question: string, answer = "Answered by support.", extra: Partial<TicketInput> = {}): TicketInput => ({
  ticketId: `C-${++counter}`,
  subject: "",
  question,
  answer,
  tags: ["billing"],
  resolvedAt: Date.UTC(2026, 10, 1),
  ...extra,
});

/** A queue batch as the platform hands it over, recording what the consumer acked or retried. */
function batchOf(messages: { id: string; attempts: number; body: unknown }[]) {
  const acked: string[] = [];
  const retried: string[] = [];
  const batch = {
    queue: "recall-tickets",
    messages: messages.map((m) => ({
      ...m,
      timestamp: new Date(),
      ack: () => acked.push(m.id),
      retry: () => retried.push(m.id),
    })),
    ackAll: () => {},
    retryAll: () => {},
  } as unknown as MessageBatch<unknown>;
  return { batch, acked, retried };
}

describe.each(BACKENDS)("the ticket pipeline's store on %s", (backend) => {
  const services = () => backends.services(backend);
  const store = () => pipelineStore(services());
  const seedFaq = async (tenant: string, question: string, answer: string) =>
    (await backends.store(backend).create(tenant, "key_test", { question, answer, tags: [], metadata: {} })).id;

  it("is served by the adapter of the FAQ store's backend", () => {
    expect(store().backend).toBe(backend);
  });

  it("stores a ticket once per tenant and ticket id, reads it back field for field, and lists newest first by status", async () => {
    const [tenant, other] = [await newTenant(backends), await newTenant(backends)];
    const input = ticket("Where is my parcel?", "It ships in 2 days.", { source: "zendesk" });
    const first = await store().insertTicket(tenant, input, 1_000);
    expect(first.created).toBe(true);
    expect(first.row).toMatchObject({
      tenantId: tenant,
      ticketId: input.ticketId,
      question: "Where is my parcel?",
      tags: ["billing"],
      resolvedAt: input.resolvedAt,
      source: "zendesk",
      status: "received",
      receivedAt: 1_000,
      attempts: 0,
      action: null,
      leaseUntil: null,
    });
    const again = await store().insertTicket(tenant, { ...input, question: "changed" }, 2_000);
    expect(again).toEqual({ created: false, row: first.row });
    expect(await store().getTicket(tenant, first.row.id)).toEqual(first.row);
    expect(await store().getTicket(other, first.row.id)).toBeNull();
    // The same ticket id in another tenant is another ticket.
    expect((await store().insertTicket(other, input, 1_000)).created).toBe(true);

    const second = (await store().insertTicket(tenant, ticket("Can I change my address?"), 3_000)).row;
    const page = await store().listTickets(tenant, { limit: 1 });
    expect(page.rows.map((r) => r.id)).toEqual([second.id]);
    const next = await store().listTickets(tenant, { limit: 1, before: page.nextCursor! });
    expect(next).toEqual({ rows: [first.row], nextCursor: null });
    expect((await store().listTickets(tenant, { limit: 10, status: "decided" })).rows).toEqual([]);
    expect((await store().listTickets(tenant, { limit: 10, status: "received" })).rows).toHaveLength(2);
  });

  it("removes a ticket intake could not enqueue, but never one a consumer has touched", async () => {
    const tenant = await newTenant(backends);
    const fresh = (await store().insertTicket(tenant, ticket("Is there a student discount?"), 1_000)).row;
    await store().deleteReceivedTicket(tenant, fresh.id);
    expect(await store().getTicket(tenant, fresh.id)).toBeNull();
    const claimed = (await store().insertTicket(tenant, ticket("Is there a family plan?"), 1_000)).row;
    expect(await store().claimTicket(tenant, claimed.id, 5_000, 65_000)).toMatchObject({ attempts: 1, leaseUntil: 65_000 });
    await store().deleteReceivedTicket(tenant, claimed.id);
    expect(await store().getTicket(tenant, claimed.id)).not.toBeNull();
  });

  it("leases a ticket to one consumer at a time", async () => {
    const tenant = await newTenant(backends);
    const { id } = (await store().insertTicket(tenant, ticket("Do you ship abroad?"), 1_000)).row;
    expect(await store().claimTicket(tenant, id, 10_000, 70_000)).toMatchObject({ attempts: 1 });
    expect(await store().claimTicket(tenant, id, 20_000, 80_000)).toBeNull();
    expect(await store().claimTicket(tenant, id, 70_001, 130_001)).toMatchObject({ attempts: 2, leaseUntil: 130_001 });
    await store().releaseTicket(tenant, id);
    expect(await store().claimTicket(tenant, id, 70_002, 130_002)).toMatchObject({ attempts: 3 });
  });

  it("decides a close ticket as a variant of the FAQ, and a redelivery decides nothing again", async () => {
    const tenant = await newTenant(backends);
    const faqId = await seedFaq(tenant, REFUND_Q, REFUND_A);
    const { id } = (await store().insertTicket(tenant, ticket(SURE_REFUND_REWORDING, "Within 10 business days."), Date.now())).row;
    expect(await processTicket(services(), { tenantId: tenant, ticketRowId: id })).toEqual({ kind: "decided", action: "ADD_VARIANT" });
    const decided = await store().getTicket(tenant, id);
    expect(decided).toMatchObject({
      status: "decided",
      action: "ADD_VARIANT",
      matchedFaqId: faqId,
      similarityMethod: "calibrated",
      cleanedQuestion: SURE_REFUND_REWORDING,
      variantId: expect.any(String),
      stagingId: null,
      leaseUntil: null,
      attempts: 1,
    });
    const variants = await backends.store(backend).listVariants(tenant, faqId, { limit: 10 });
    expect(variants.map((v) => [v.id, v.source])).toEqual([[decided!.variantId, "pipeline"]]);
    expect(await processTicket(services(), { tenantId: tenant, ticketRowId: id })).toEqual({ kind: "already", status: "decided" });
    expect(await processTicket(services(), { tenantId: tenant, ticketRowId: "tkt_missing" })).toEqual({ kind: "missing" });
  });

  it("stages a new question, approval creates the FAQ once; a rejected item keeps its reason", async () => {
    const tenant = await newTenant(backends);
    const a = (await store().insertTicket(tenant, ticket("Do you offer express delivery?", "Yes, for 9.90."), Date.now())).row;
    const b = (await store().insertTicket(tenant, ticket("Can I pay with crypto currency?", "No."), Date.now())).row;
    for (const row of [a, b])
      expect(await processTicket(services(), { tenantId: tenant, ticketRowId: row.id })).toEqual({ kind: "decided", action: "NEW" });
    const stagingId = (await store().getTicket(tenant, a.id))!.stagingId!;
    const pending = await store().listStaging(tenant, { status: "pending", limit: 1 });
    expect(pending.rows).toMatchObject([{ ticketRowId: b.id, externalTicketId: b.ticketId, action: "NEW", tags: ["billing"] }]);
    expect((await store().listStaging(tenant, { status: "pending", limit: 1, before: pending.nextCursor! })).rows.map((r) => r.id)).toEqual(
      [stagingId],
    );

    const approved = await approveStaging(services(), tenant, stagingId, "key_admin", { answer: "Yes: 9.90 within Germany." });
    expect(approved).toMatchObject({ ok: true, value: { status: "approved", reviewedBy: "key_admin", resultFaqId: expect.any(String) } });
    const faqId = approved.ok ? approved.value.resultFaqId! : "";
    expect(await backends.store(backend).get(tenant, faqId)).toMatchObject({
      question: "Do you offer express delivery?",
      answer: "Yes: 9.90 within Germany.",
    });
    expect(await approveStaging(services(), tenant, stagingId, "key_admin", {})).toEqual({ ok: false, error: "already_reviewed" });

    const bStaging = (await store().getTicket(tenant, b.id))!.stagingId!;
    expect(await rejectStaging(services(), tenant, bStaging, "key_admin", "not a policy")).toMatchObject({
      ok: true,
      value: { status: "rejected", rejectReason: "not a policy", resultFaqId: null },
    });
    expect(await rejectStaging(services(), tenant, "stg_missing", "key_admin", "x")).toEqual({ ok: false, error: "not_found" });
    expect(await store().getStaging(await newTenant(backends), bStaging)).toBeNull();
    expect(await store().stagingCounts(tenant)).toEqual({ pending: 0, approved: 1, rejected: 1 });
    expect(await store().stagingCounts(await newTenant(backends))).toEqual({ pending: 0, approved: 0, rejected: 0 });
  });

  it("refuses to approve a NEW item whose question an FAQ made meanwhile asks, naming it, unless told to go ahead", async () => {
    const tenant = await newTenant(backends);
    const { row } = await store().insertTicket(
      tenant,
      ticket("Where can I download my invoices as PDF?", "Billing → Invoices."),
      Date.now(),
    );
    expect(await processTicket(services(), { tenantId: tenant, ticketRowId: row.id })).toEqual({ kind: "decided", action: "NEW" });
    const stagingId = (await store().getTicket(tenant, row.id))!.stagingId!;
    const faqId = await seedFaq(tenant, "Where can I download my invoices as a PDF?", "Billing → Invoices → Download.");
    const refused = await approveStaging(services(), tenant, stagingId, "key_admin", {});
    expect(refused).toMatchObject({ ok: false, error: { duplicateOf: { id: faqId } } });
    expect((await store().getStaging(tenant, stagingId))!.status).toBe("pending");
    expect(await approveStaging(services(), tenant, stagingId, "key_admin", { allowDuplicate: true })).toMatchObject({
      ok: true,
      value: { status: "approved" },
    });
  });

  it("stages a MERGE when the judge says so, and approval updates the FAQ and adds the ticket's question as a variant", async () => {
    const tenant = await newTenant(backends);
    const faqId = await seedFaq(tenant, "How do I reset my password?", "Click 'Forgot password' on the sign-in page.");
    const merging: Services = {
      ...services(),
      judge: {
        ...heuristicJudge,
        kind: "always-merge",
        mergeOrNew: async () => ({ action: "MERGE", rationale: "same topic", judge: "always-merge" }),
      },
    };
    const row = (await store().insertTicket(tenant, ticket("My login code never arrives by email", "Check spam."), Date.now())).row;
    expect(await processTicket(merging, { tenantId: tenant, ticketRowId: row.id })).toEqual({ kind: "decided", action: "MERGE" });
    const decided = (await store().getTicket(tenant, row.id))!;
    const item = await store().getStaging(tenant, decided.stagingId!);
    expect(item).toMatchObject({ action: "MERGE", faqId, variantText: "My login code never arrives by email", judge: "always-merge" });
    const approved = await approveStaging(services(), tenant, item!.id, "key_admin", {});
    expect(approved).toMatchObject({ ok: true, value: { resultFaqId: faqId } });
    const variantId = (await store().getTicket(tenant, row.id))!.variantId;
    expect((await backends.store(backend).listVariants(tenant, faqId, { limit: 10 })).map((v) => v.id)).toEqual([variantId]);
    expect((await backends.store(backend).get(tenant, faqId))!.version).toBe(2);
  });

  it("dead-letters a ticket that keeps failing, and an admin's requeue lets the consumer decide it", async () => {
    const tenant = await newTenant(backends);
    await seedFaq(tenant, REFUND_Q, REFUND_A);
    const { id } = (await store().insertTicket(tenant, ticket(SURE_REFUND_REWORDING), Date.now())).row;
    const crashing: Services = {
      ...services(),
      judge: {
        ...heuristicJudge,
        answerAddsInformation: async () => {
          throw new Error("judge crashed");
        },
      },
    };
    const body: TicketMessage = { tenantId: tenant, ticketRowId: id };
    const early = batchOf([{ id: "m1", attempts: 1, body }]);
    await consumeTickets(early.batch, crashing);
    expect(early.retried).toEqual(["m1"]);
    expect(await store().getTicket(tenant, id)).toMatchObject({ status: "received", lastError: "Error: judge crashed", leaseUntil: null });

    const last = batchOf([{ id: "m1", attempts: TICKET_MAX_ATTEMPTS, body }]);
    await consumeTickets(last.batch, crashing);
    expect(last.acked).toEqual(["m1"]);
    expect(await store().getTicket(tenant, id)).toMatchObject({ status: "dead_letter", attempts: TICKET_MAX_ATTEMPTS });
    expect((await store().listTickets(tenant, { status: "dead_letter", limit: 10 })).rows.map((r) => r.id)).toEqual([id]);

    expect(await store().requeueTicket(tenant, id)).toBe(true);
    expect(await store().requeueTicket(tenant, id)).toBe(false);
    expect(await store().getTicket(tenant, id)).toMatchObject({ status: "received", attempts: 0 });
    expect(await processTicket(services(), body)).toEqual({ kind: "decided", action: "ADD_VARIANT" });
  });

  it("counts decisions by action and UTC day, ticket and staging states", async () => {
    const tenant = await newTenant(backends);
    await seedFaq(tenant, REFUND_Q, REFUND_A);
    for (const question of [SURE_REFUND_REWORDING, "Do you offer gift wrapping?", "Do you sell gift cards?"]) {
      const { id } = (await store().insertTicket(tenant, ticket(question), Date.now())).row;
      await processTicket(services(), { tenantId: tenant, ticketRowId: id });
    }
    await store().insertTicket(tenant, ticket("Still waiting"), Date.now());
    const stats = await pipelineStats(services(), tenant, 7);
    const today = new Date().toISOString().slice(0, 10);
    expect(stats.byAction).toEqual({ SKIP: 0, ADD_VARIANT: 1, MERGE: 0, NEW: 2 });
    expect(stats.byDay).toEqual([{ day: today, ADD_VARIANT: 1, NEW: 2 }]);
    expect(stats.tickets).toEqual({ decided: 3, received: 1 });
    expect(stats.staging).toEqual([{ action: "NEW", status: "pending", count: 2 }]);
    expect(stats.variantsPerFaq).toMatchObject({ faqs: 1, variants: 1, pipelineVariants: 1 });
    expect(stats.duplicates).toMatchObject({ scanned: 1, checked: 1, likelyDuplicates: 0, pairs: [] });
    await seedFaq(tenant, "How long do refunds take to arrive?", REFUND_A);
    const twins = (await pipelineStats(services(), tenant, 7)).duplicates;
    expect(twins).toMatchObject({ scanned: 2, checked: 2, likelyDuplicates: 2, rate: 1 });
    expect(twins.pairs).toEqual([
      expect.objectContaining({ otherQuestion: expect.any(String), reason: expect.stringContaining("same question") }),
    ]);
  });

  it("re-sends tickets stranded long after they arrived, and leaves fresh or leased ones alone", async () => {
    const tenant = await newTenant(backends);
    const now = Date.now() + 10 * STRANDED_AFTER_MS;
    const stranded = (await store().insertTicket(tenant, ticket("Old question"), now - STRANDED_AFTER_MS - 1)).row;
    await store().insertTicket(tenant, ticket("Fresh question"), now - 1_000);
    const leased = (await store().insertTicket(tenant, ticket("Leased question"), now - STRANDED_AFTER_MS - 1)).row;
    await store().claimTicket(tenant, leased.id, now, now + 60_000);
    const sent: unknown[] = [];
    const queue = { sendBatch: async (messages: Iterable<{ body: unknown }>) => void sent.push(...[...messages].map((m) => m.body)) };
    const { resent } = await resendStrandedTickets(store(), queue as unknown as Queue<TicketMessage>, now);
    // Other test files' tenants are in other databases; this file's earlier tickets arrived "now", long before `now` here.
    expect(sent).toContainEqual({ tenantId: tenant, ticketRowId: stranded.id });
    expect(sent).not.toContainEqual({ tenantId: tenant, ticketRowId: leased.id });
    expect(resent).toBe(sent.length);
  });

  it("inserts a queue-carried ticket under the id intake answered, once, and decides it", async () => {
    const tenant = await newTenant(backends);
    const input = ticket("Do you deliver on Sundays?", "No, Monday to Saturday.");
    const message: TicketMessage = { tenantId: tenant, ticketRowId: "tkt_carried_1", ticket: { ...input, receivedAt: 5_000 } };
    expect(await processTicket(services(), message)).toEqual({ kind: "decided", action: "NEW" });
    expect(await store().getTicket(tenant, "tkt_carried_1")).toMatchObject({
      ticketId: input.ticketId,
      receivedAt: 5_000,
      status: "decided",
    });
    // The queue delivers it again: nothing inserted or decided twice.
    expect(await processTicket(services(), message)).toEqual({ kind: "already", status: "decided" });
    // The sender had already delivered this ticket id before: its first row is the one decided.
    const earlier = (await store().insertTicket(tenant, ticket("Is there a loyalty program?"), 1_000)).row;
    const late: TicketMessage = {
      tenantId: tenant,
      ticketRowId: "tkt_carried_2",
      ticket: { ...ticket("Is there a loyalty program?", "x", { ticketId: earlier.ticketId }), receivedAt: 6_000 },
    };
    expect(await processTicket(services(), late)).toEqual({ kind: "decided", action: "NEW" });
    expect(await store().getTicket(tenant, "tkt_carried_2")).toBeNull();
    expect(await store().getTicket(tenant, earlier.id)).toMatchObject({ status: "decided" });
  });
});
