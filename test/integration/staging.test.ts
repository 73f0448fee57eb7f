import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/services";
import { processTicket } from "../../src/tickets/consume";
import { d1PipelineStore } from "../../src/tickets/d1-store";
import { newTenant, send, type TestTenant } from "../support/api";
import { apiClient, expectError, expectJson, type TestClient } from "../support/client";
import { seedFaq } from "../support/tickets";

const REFUND_Q = "How long does a refund take to arrive?";
const REFUND_A = "Refunds reach your card within 5 to 10 business days after we receive the return.";

/** Stores a ticket and runs the consumer on it directly (no queue): returns the staging item id. */
async function staged(tenant: TestTenant, question: string, answer: string): Promise<{ stagingId: string; ticketRowId: string }> {
  const { row } = await d1PipelineStore(env.DB).insertTicket(
    tenant.tenantId,
    { ticketId: `S-${crypto.randomUUID()}`, subject: "", question, answer, tags: [], resolvedAt: 0 },
    Date.now(),
  );
  const outcome = await processTicket(createServices(env), { tenantId: tenant.tenantId, ticketRowId: row.id });
  expect(outcome.kind).toBe("decided");
  const t = await expectJson(apiClient(tenant.adminKey).v1.tickets[":id"].$get({ param: { id: row.id } }), 200);
  expect(t.decision!.stagingId).toBeTruthy();
  return { stagingId: t.decision!.stagingId!, ticketRowId: row.id };
}

const items = async (api: TestClient, status: "pending" | "approved" | "rejected") =>
  (await expectJson(api.v1.staging.$get({ query: { status } }), 200)).items;

describe("/v1/staging", () => {
  it("lists pending items; approving a NEW item creates the FAQ (with edits); approving twice is a 409", async () => {
    const tenant = await newTenant();
    const client = apiClient(tenant.clientKey);
    const admin = apiClient(tenant.adminKey);
    const { stagingId } = await staged(tenant, "Do you offer express delivery?", "Yes, next-day delivery costs 9 EUR.");
    const param = { id: stagingId };
    expect((await items(client, "pending")).map((i) => i.id)).toEqual([stagingId]);

    await expectError(client.v1.staging[":id"].approve.$post({ param, json: {} }), 403);
    const approved = await expectJson(
      admin.v1.staging[":id"].approve.$post({ param, json: { answer: "Yes: next-day delivery costs 9 EUR in the EU." } }),
      200,
    );
    expect(approved).toMatchObject({ status: "approved", action: "NEW", resultFaqId: expect.any(String) });
    const faq = await expectJson(admin.v1.faqs[":id"].$get({ param: { id: approved.resultFaqId! } }), 200);
    expect(faq).toMatchObject({ question: "Do you offer express delivery?", answer: "Yes: next-day delivery costs 9 EUR in the EU." });

    await expectError(admin.v1.staging[":id"].approve.$post({ param, json: {} }), 409);
    await expectError(admin.v1.staging[":id"].reject.$post({ param, json: { reason: "late" } }), 409);
    expect(await items(client, "pending")).toHaveLength(0);
    expect(await items(client, "approved")).toHaveLength(1);
  });

  it("approving a MERGE item updates the FAQ's answer as a new version and adds the ticket's question as a pipeline variant", async () => {
    const tenant = await newTenant();
    const admin = apiClient(tenant.adminKey);
    const faqId = await seedFaq(tenant, REFUND_Q, REFUND_A);
    const { stagingId, ticketRowId } = await staged(
      tenant,
      "How long until I get my refund?",
      "PayPal refunds arrive instantly; bank transfers need three extra working days because of clearing.",
    );
    const item = await expectJson(admin.v1.staging[":id"].$get({ param: { id: stagingId } }), 200);
    expect(item).toMatchObject({ action: "MERGE", faqId });
    const approved = await expectJson(admin.v1.staging[":id"].approve.$post({ param: { id: stagingId }, json: {} }), 200);
    expect(approved.resultFaqId).toBe(faqId);

    const faq = await expectJson(admin.v1.faqs[":id"].$get({ param: { id: faqId } }), 200);
    expect(faq.version).toBe(2);
    expect(faq.answer).toContain("PayPal refunds arrive instantly");
    expect(faq.variants).toEqual([expect.objectContaining({ variantText: "How long until I get my refund?", source: "pipeline" })]);
    const versions = await expectJson(admin.v1.faqs[":id"].versions.$get({ param: { id: faqId }, query: {} }), 200);
    expect(JSON.stringify(versions)).toContain(REFUND_A);
    const t = await expectJson(admin.v1.tickets[":id"].$get({ param: { id: ticketRowId } }), 200);
    expect(t.decision!.variantId).toBe(faq.variants[0]!.id);
  });

  it("rejecting needs a reason, records it, changes no FAQ, and cannot be repeated", async () => {
    const tenant = await newTenant();
    const admin = apiClient(tenant.adminKey);
    const { stagingId } = await staged(tenant, "Do you offer express delivery?", "Yes.");
    const param = { id: stagingId };
    // No reason: off the schema, sent raw.
    await expectError(send(`/v1/staging/${stagingId}/reject`, { key: tenant.adminKey, body: {} }), 400);
    const rejected = await expectJson(admin.v1.staging[":id"].reject.$post({ param, json: { reason: "one-off question" } }), 200);
    expect(rejected).toMatchObject({ status: "rejected", rejectReason: "one-off question", resultFaqId: null });
    await expectError(admin.v1.staging[":id"].approve.$post({ param, json: {} }), 409);
    expect((await expectJson(admin.v1.faqs.$get({ query: {} }), 200)).faqs).toHaveLength(0);
    expect(await items(apiClient(tenant.clientKey), "rejected")).toHaveLength(1);
  });

  it("another tenant's staging item is a 404", async () => {
    const tenant = await newTenant();
    const other = apiClient((await newTenant()).adminKey);
    const { stagingId } = await staged(tenant, "Do you offer express delivery?", "Yes.");
    const param = { id: stagingId };
    await expectError(other.v1.staging[":id"].$get({ param }), 404);
    await expectError(other.v1.staging[":id"].approve.$post({ param, json: {} }), 404);
    await expectJson(apiClient(tenant.adminKey).v1.staging[":id"].$get({ param }), 200);
  });
});
