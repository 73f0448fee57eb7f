/**
 * A staged item waits while the knowledge base changes: GET /v1/staging/:id/decision decides it
 * again with the same-question decision's evidence, and approving a NEW item that an FAQ now
 * answers is refused (409 DUPLICATE_FAQ naming that FAQ) unless the reviewer says to go ahead.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services";
import { processTicket } from "../../src/features/tickets/consume";
import { d1PipelineStore } from "../../src/features/tickets/d1-store";
import { newTenant, type TestTenant } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";
import { seedFaq } from "../support/tickets";

const INVOICES = "Where can I download my invoices as PDF?";

async function staged(tenant: TestTenant, question: string, answer: string): Promise<string> {
  const { row } = await d1PipelineStore(env.DB).insertTicket(
    tenant.tenantId,
    { ticketId: `R-${crypto.randomUUID()}`, subject: "", question, answer, tags: [], resolvedAt: 0 },
    Date.now(),
  );
  expect((await processTicket(createServices(env), { tenantId: tenant.tenantId, ticketRowId: row.id })).kind).toBe("decided");
  const t = await expectJson(apiClient(tenant.adminKey).v1.tickets[":id"].$get({ param: { id: row.id } }), 200);
  return t.decision!.stagingId!;
}

describe("GET /v1/staging/:id/decision", () => {
  it("says a NEW item is stale and a duplicate once an FAQ asks its question, with the pair's evidence", async () => {
    const tenant = await newTenant();
    const api = apiClient(tenant.clientKey);
    const id = await staged(tenant, INVOICES, "Settings → Billing → Invoices, then the download button.");
    const before = await expectJson(api.v1.staging[":id"].decision.$get({ param: { id } }), 200);
    expect(before).toMatchObject({ stagingId: id, question: INVOICES, staged: { action: "NEW", faqId: null }, match: null, band: "new" });
    expect(before).toMatchObject({ sameQuestion: null, actions: ["NEW"], stale: false, duplicate: false });

    const faqId = await seedFaq(tenant, "Where can I download my invoices as a PDF?", "Billing → Invoices → Download.");
    const after = await expectJson(api.v1.staging[":id"].decision.$get({ param: { id } }), 200);
    expect(after.match).toMatchObject({ faqId, variant: null, changedSinceStaged: true });
    expect(after.match!.similarity).toBeGreaterThanOrEqual(0.85);
    expect(after.sameQuestion).toMatchObject({ relation: "same", evidence: { method: "embedding", contrasts: [] } });
    expect(after.sameQuestion!.evidence.sharedWords).toBeGreaterThan(0.5);
    expect(after.actions).not.toContain("NEW");
    expect(after).toMatchObject({ stale: true, duplicate: true });
  });

  it("names the contrast when the closest FAQ differs by a code, and keeps NEW", async () => {
    const tenant = await newTenant();
    await seedFaq(tenant, "What does error E500 mean on the checkout page?", "The card was declined.");
    const id = await staged(tenant, "What does error E501 mean on the checkout page?", "The payment timed out.");
    const now = await expectJson(apiClient(tenant.clientKey).v1.staging[":id"].decision.$get({ param: { id } }), 200);
    expect(now.staged.action).toBe("NEW");
    expect(now.sameQuestion!.evidence.contrasts).toEqual([expect.objectContaining({ kind: "code" })]);
    expect(now.sameQuestion!.reason).toContain("e501 ≠ e500");
    expect(now).toMatchObject({ actions: ["NEW"], stale: false, duplicate: false });
  });

  it("does not call an unrelated FAQ a duplicate because a small model puts it in the same-question band", async () => {
    const tenant = await newTenant();
    const admin = apiClient(tenant.adminKey);
    const id = await staged(tenant, "Can I rent a locker for returns?", "Yes, at any station.");
    await seedFaq(tenant, "Can I pay an invoice by bank transfer from abroad?", "Yes: use the IBAN on the invoice.");
    const now = await expectJson(admin.v1.staging[":id"].decision.$get({ param: { id } }), 200);
    // The local model scores these two questions in the same-question band; the decision reads them as different.
    expect(now.band).toBe("same_question");
    expect(now.sameQuestion).toMatchObject({ relation: "different", evidence: { sharedWords: 0 } });
    expect(now).toMatchObject({ actions: ["MERGE"], stale: true, duplicate: false });
    await expectJson(admin.v1.staging[":id"].approve.$post({ param: { id }, json: {} }), 200);
  });

  it("is a 404 for another tenant's item", async () => {
    const tenant = await newTenant();
    const id = await staged(tenant, "Do you ship to Norway?", "Yes, in 5 days.");
    await expectError(apiClient((await newTenant()).adminKey).v1.staging[":id"].decision.$get({ param: { id } }), 404);
  });
});

describe("POST /v1/staging/:id/approve on a NEW item an FAQ now answers", () => {
  it("answers 409 DUPLICATE_FAQ with the FAQ, changes nothing, and creates it with allowDuplicate", async () => {
    const tenant = await newTenant();
    const admin = apiClient(tenant.adminKey);
    const id = await staged(tenant, INVOICES, "Settings → Billing → Invoices, then the download button.");
    const faqId = await seedFaq(tenant, "Where can I download my invoices as a PDF?", "Billing → Invoices → Download.");

    const refused = await expectError(admin.v1.staging[":id"].approve.$post({ param: { id }, json: {} }), 409, "DUPLICATE_FAQ");
    expect(refused.error.duplicateOf).toMatchObject({ id: faqId, question: "Where can I download my invoices as a PDF?" });
    expect(refused.error.message).toContain(faqId);
    expect((await expectJson(admin.v1.staging[":id"].$get({ param: { id } }), 200)).status).toBe("pending");
    expect((await expectJson(admin.v1.faqs.$get({ query: {} }), 200)).faqs).toHaveLength(1);

    // An edited question that asks something else is no duplicate.
    const other = await staged(tenant, "Can I get my invoices sent by post?", "Yes, for 2 EUR each.");
    await expectJson(admin.v1.staging[":id"].approve.$post({ param: { id: other }, json: {} }), 200);

    const approved = await expectJson(admin.v1.staging[":id"].approve.$post({ param: { id }, json: { allowDuplicate: true } }), 200);
    expect(approved).toMatchObject({ status: "approved", resultFaqId: expect.any(String) });
    expect(approved.resultFaqId).not.toBe(faqId);
  });
});

describe("GET /v1/staging counts", () => {
  it("counts the tenant's items in every status", async () => {
    const tenant = await newTenant();
    const admin = apiClient(tenant.adminKey);
    const a = await staged(tenant, "Do you ship to Norway?", "Yes, in 5 days.");
    await staged(tenant, "Can I pay with bitcoin?", "No.");
    await expectJson(admin.v1.staging[":id"].reject.$post({ param: { id: a }, json: { reason: "one-off" } }), 200);
    const list = await expectJson(admin.v1.staging.$get({ query: {} }), 200);
    expect(list.counts).toEqual({ pending: 1, approved: 0, rejected: 1 });
    const other = await expectJson(apiClient((await newTenant()).adminKey).v1.staging.$get({ query: {} }), 200);
    expect(other.counts).toEqual({ pending: 0, approved: 0, rejected: 0 });
  });
});
