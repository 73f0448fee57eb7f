import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/services";
import { processTicket } from "../../src/tickets/consume";
import { insertTicket } from "../../src/tickets/store";
import { call, newTenant, type TestTenant } from "../support/api";
import { seedFaq } from "../support/tickets";

const REFUND_Q = "How long does a refund take to arrive?";
const REFUND_A = "Refunds reach your card within 5 to 10 business days after we receive the return.";

/** Stores a ticket and runs the consumer on it directly (no queue): returns the staging item id. */
async function staged(tenant: TestTenant, question: string, answer: string): Promise<{ stagingId: string; ticketRowId: string }> {
  const { row } = await insertTicket(env.DB, tenant.tenantId, { ticketId: `S-${crypto.randomUUID()}`, subject: "", question, answer, tags: [], resolvedAt: 0 }, Date.now());
  const outcome = await processTicket(createServices(env), { tenantId: tenant.tenantId, ticketRowId: row.id });
  expect(outcome.kind).toBe("decided");
  const t = await call(`/v1/tickets/${row.id}`, { key: tenant.adminKey });
  expect(t.json!.decision.stagingId).toBeTruthy();
  return { stagingId: t.json!.decision.stagingId as string, ticketRowId: row.id };
}

describe("/v1/staging", () => {
  it("lists pending items; approving a NEW item creates the FAQ (with edits); approving twice is a 409", async () => {
    const tenant = await newTenant();
    const { stagingId } = await staged(tenant, "Do you offer express delivery?", "Yes, next-day delivery costs 9 EUR.");
    const pending = await call("/v1/staging?status=pending", { key: tenant.clientKey });
    expect(pending.json!.items.map((i: { id: string }) => i.id)).toEqual([stagingId]);

    expect((await call(`/v1/staging/${stagingId}/approve`, { key: tenant.clientKey, body: {} })).status).toBe(403);
    const approved = await call(`/v1/staging/${stagingId}/approve`, { key: tenant.adminKey, body: { answer: "Yes: next-day delivery costs 9 EUR in the EU." } });
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({ status: "approved", action: "NEW", resultFaqId: expect.any(String) });
    const faq = await call(`/v1/faqs/${approved.json!.resultFaqId}`, { key: tenant.adminKey });
    expect(faq.json).toMatchObject({ question: "Do you offer express delivery?", answer: "Yes: next-day delivery costs 9 EUR in the EU." });

    const twice = await call(`/v1/staging/${stagingId}/approve`, { key: tenant.adminKey, body: {} });
    expect(twice.status).toBe(409);
    expect((await call(`/v1/staging/${stagingId}/reject`, { key: tenant.adminKey, body: { reason: "late" } })).status).toBe(409);
    expect((await call("/v1/staging?status=pending", { key: tenant.clientKey })).json!.items).toHaveLength(0);
    expect((await call("/v1/staging?status=approved", { key: tenant.clientKey })).json!.items).toHaveLength(1);
  });

  it("approving a MERGE item updates the FAQ's answer as a new version and adds the ticket's question as a pipeline variant", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, REFUND_Q, REFUND_A);
    const { stagingId, ticketRowId } = await staged(
      tenant,
      "How long until I get my refund?",
      "PayPal refunds arrive instantly; bank transfers need three extra working days because of clearing.",
    );
    const item = await call(`/v1/staging/${stagingId}`, { key: tenant.adminKey });
    expect(item.json).toMatchObject({ action: "MERGE", faqId });
    const approved = await call(`/v1/staging/${stagingId}/approve`, { key: tenant.adminKey, body: {} });
    expect(approved.status).toBe(200);
    expect(approved.json!.resultFaqId).toBe(faqId);

    const faq = await call(`/v1/faqs/${faqId}`, { key: tenant.adminKey });
    expect(faq.json!.version).toBe(2);
    expect(faq.json!.answer).toContain("PayPal refunds arrive instantly");
    expect(faq.json!.variants).toEqual([expect.objectContaining({ variantText: "How long until I get my refund?", source: "pipeline" })]);
    const versions = await call(`/v1/faqs/${faqId}/versions`, { key: tenant.adminKey });
    expect(JSON.stringify(versions.json)).toContain(REFUND_A);
    const t = await call(`/v1/tickets/${ticketRowId}`, { key: tenant.adminKey });
    expect(t.json!.decision.variantId).toBe(faq.json!.variants[0].id);
  });

  it("rejecting needs a reason, records it, changes no FAQ, and cannot be repeated", async () => {
    const tenant = await newTenant();
    const { stagingId } = await staged(tenant, "Do you offer express delivery?", "Yes.");
    expect((await call(`/v1/staging/${stagingId}/reject`, { key: tenant.adminKey, body: {} })).status).toBe(400);
    const rejected = await call(`/v1/staging/${stagingId}/reject`, { key: tenant.adminKey, body: { reason: "one-off question" } });
    expect(rejected.json).toMatchObject({ status: "rejected", rejectReason: "one-off question", resultFaqId: null });
    expect((await call(`/v1/staging/${stagingId}/approve`, { key: tenant.adminKey, body: {} })).status).toBe(409);
    expect((await call("/v1/faqs", { key: tenant.adminKey })).json!.faqs).toHaveLength(0);
    expect((await call("/v1/staging?status=rejected", { key: tenant.clientKey })).json!.items).toHaveLength(1);
  });

  it("another tenant's staging item is a 404", async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const { stagingId } = await staged(tenant, "Do you offer express delivery?", "Yes.");
    expect((await call(`/v1/staging/${stagingId}`, { key: other.adminKey })).status).toBe(404);
    expect((await call(`/v1/staging/${stagingId}/approve`, { key: other.adminKey, body: {} })).status).toBe(404);
    expect((await call(`/v1/staging/${stagingId}`, { key: tenant.adminKey })).status).toBe(200);
  });
});
