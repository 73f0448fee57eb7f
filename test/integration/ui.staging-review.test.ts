/**
 * The staging queue on the review desk: one line per item with counts on the tabs, the review page
 * with the evidence decided again and its key script, a NEW item an FAQ now answers refused with
 * the FAQ named, and a notice after every review.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services";
import { processTicket } from "../../src/features/tickets/consume";
import { d1PipelineStore } from "../../src/features/tickets/d1-store";
import { reviewScript } from "../../src/ui/assets";
import { newTenant, type TestTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";
import { seedFaq } from "../support/tickets";
import { uiBrowser } from "../support/ui";

async function staged(tenant: TestTenant, question: string, answer: string, ticketId = `UI-${crypto.randomUUID().slice(0, 8)}`) {
  const { row } = await d1PipelineStore(env.DB).insertTicket(
    tenant.tenantId,
    { ticketId, subject: "", question, answer, tags: [], resolvedAt: 0 },
    Date.now(),
  );
  await processTicket(createServices(env), { tenantId: tenant.tenantId, ticketRowId: row.id });
  const t = await expectJson(apiClient(tenant.adminKey).v1.tickets[":id"].$get({ param: { id: row.id } }), 200);
  return t.decision!.stagingId!;
}

describe("GET /ui/staging", () => {
  it("lists one line per item with the counts on the tabs, and links the review page", async () => {
    const tenant = await newTenant();
    const a = await staged(tenant, "Do you ship to Norway?", "Yes, in 5 days.", "UI-A");
    await staged(tenant, "Can I pay with bitcoin?", "No.", "UI-B");
    await expectJson(apiClient(tenant.adminKey).v1.staging[":id"].reject.$post({ param: { id: a }, json: { reason: "one-off" } }), 200);
    const browser = await uiBrowser(tenant.adminKey);
    const page = await browser.get("/ui/staging");
    expect(page.status).toBe(200);
    expect(page.html.match(/data-testid="staging-item"/g)).toHaveLength(1);
    expect(page.html).toMatch(/pending <span class="count">1<\/span>/);
    expect(page.html).toMatch(/rejected <span class="count">1<\/span>/);
    expect(page.html).toContain('href="/ui/staging/review"');
    // The card is behind its summary line, not open.
    expect(page.html).toMatch(/<details><summary class="queue-summary">/);
    const review = await browser.get("/ui/staging/review");
    expect(review.status).toBe(303);
    expect(review.headers.get("location")).toMatch(/^\/ui\/staging\/stg_/);
  });
});

describe("GET /ui/staging/:id", () => {
  it("shows the evidence decided again, the position, and loads the key script only for an admin's pending item", async () => {
    const tenant = await newTenant();
    await seedFaq(tenant, "What does error E500 mean on the checkout page?", "The card was declined.");
    const id = await staged(tenant, "What does error E501 mean on the checkout page?", "The payment timed out.");
    const admin = await (await uiBrowser(tenant.adminKey)).get(`/ui/staging/${id}`);
    expect(admin.status).toBe(200);
    expect(admin.html).toContain('data-testid="evidence"');
    expect(admin.html).toContain("e501 ≠ e500");
    expect(admin.html).toContain("another code or number");
    expect(admin.html).toContain("Item 1 of 1 pending");
    expect(admin.html).toContain(`<script src="${reviewScript.path}" defer="">`);
    expect(admin.html).toContain("data-review-approve");
    expect(admin.html).toContain("data-review-reject");
    const client = await (await uiBrowser(tenant.clientKey)).get(`/ui/staging/${id}`);
    expect(client.html).toContain('data-testid="evidence"');
    expect(client.html).not.toContain(reviewScript.path);
    expect(client.html).not.toContain(`/ui/staging/${id}/approve`);
    const script = await (await uiBrowser(tenant.clientKey)).get(reviewScript.path);
    expect(script.headers.get("content-type")).toContain("javascript");
    expect(script.html).toContain("data-review-next");
  });

  it("warns that the knowledge base changed, refuses the duplicate with the FAQ named, and approves anyway when told", async () => {
    const tenant = await newTenant();
    const id = await staged(tenant, "Where can I download my invoices as PDF?", "Billing → Invoices.", "UI-DUP");
    const faqId = await seedFaq(tenant, "Where can I download my invoices as a PDF?", "Billing → Invoices → Download.");
    const browser = await uiBrowser(tenant.adminKey);
    const page = await browser.get(`/ui/staging/${id}`);
    expect(page.html).toContain('data-testid="kb-changed"');
    expect(page.html).toContain("would make a duplicate");
    const form = {
      from: "review",
      question: "Where can I download my invoices as PDF?",
      originalQuestion: "Where can I download my invoices as PDF?",
      answer: "Billing.",
    };
    const refused = await browser.post(`/ui/staging/${id}/approve`, form, page.html);
    expect(refused.status).toBe(409);
    expect(refused.html).toContain("Not approved");
    expect(refused.html).toContain(`/ui/faqs/${faqId}`);
    expect(refused.html).toContain('name="allowDuplicate"');
    expect(refused.html).toContain("Reject as a duplicate");
    const approved = await browser.post(`/ui/staging/${id}/approve`, { ...form, allowDuplicate: "1" }, refused.html);
    expect(approved.status).toBe(303);
    expect(approved.location).toBe("/ui/staging");
    const after = await browser.get("/ui/staging");
    expect(after.html).toContain("Approved ticket UI-DUP: created a new FAQ.");
    // Shown once.
    expect((await browser.get("/ui/staging")).html).not.toContain("Approved ticket UI-DUP");
  });

  it("rejects from the review page and moves on to the next pending item with a notice", async () => {
    const tenant = await newTenant();
    const first = await staged(tenant, "Do you ship to Norway?", "Yes.", "UI-N1");
    const second = await staged(tenant, "Can I pay with bitcoin?", "No.", "UI-N2");
    const browser = await uiBrowser(tenant.adminKey);
    // Newest first: the second ticket heads the queue.
    const page = await browser.get(`/ui/staging/${second}`);
    expect(page.html).toContain(`href="/ui/staging/${first}"`);
    const empty = await browser.post(`/ui/staging/${second}/reject`, { from: "review", reason: "" }, page.html);
    expect(empty.status).toBe(400);
    expect(empty.html).toMatch(/<details class="two-step" data-testid="reject-step" open=""/);
    const rejected = await browser.post(`/ui/staging/${second}/reject`, { from: "review", reason: "not ours" }, page.html);
    expect(rejected.location).toBe(`/ui/staging/${first}`);
    const next = await browser.get(rejected.location!);
    expect(next.html).toContain("Rejected ticket UI-N2: “not ours”.");
    expect(next.html).toContain("Item 1 of 1 pending");
  });
});
