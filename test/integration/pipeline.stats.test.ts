import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services";
import { processTicket } from "../../src/features/tickets/consume";
import { d1PipelineStore } from "../../src/features/tickets/d1-store";
import { newTenant, type TestTenant } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";
import { SURE_REFUND_REWORDING } from "../fixtures/ticket-questions";
import { seedFaq } from "../support/tickets";

async function decide(tenant: TestTenant, question: string, answer: string) {
  const { row } = await d1PipelineStore(env.DB).insertTicket(
    tenant.tenantId,
    { ticketId: `P-${crypto.randomUUID()}`, subject: "", question, answer, tags: [], resolvedAt: 0 },
    Date.now(),
  );
  await processTicket(createServices(env), { tenantId: tenant.tenantId, ticketRowId: row.id });
  return expectJson(apiClient(tenant.adminKey).v1.tickets[":id"].$get({ param: { id: row.id } }), 200);
}

describe("GET /v1/pipeline/stats", () => {
  it("counts decisions by action and day, variants per FAQ, and flags an approved NEW FAQ that duplicates an existing one", async () => {
    const tenant = await newTenant();
    await seedFaq(tenant, "How long does a refund take to arrive?", "Refunds reach your card within 5 to 10 business days.");
    expect((await decide(tenant, SURE_REFUND_REWORDING, "Within 5 to 10 business days.")).decision!.action).toBe("ADD_VARIANT");
    expect((await decide(tenant, "How can I reset my password?", "Use Forgot password.")).decision!.action).toBe("NEW");
    const distinct = await decide(tenant, "Do you offer a student discount?", "Students get 20% off.");
    expect(distinct.decision!.action).toBe("NEW");

    // A reviewer approves the password item with a question that repeats the refund FAQ: refused (DUPLICATE_FAQ) until
    // the reviewer insists; then it is a duplicate the proxy must see.
    const admin = apiClient(tenant.adminKey);
    const { items } = await expectJson(admin.v1.staging.$get({ query: { status: "pending" } }), 200);
    const password = items.find((i) => i.question.includes("password"))!;
    const student = items.find((i) => i.question.includes("student"))!;
    const param = { id: password.id };
    await expectError(
      admin.v1.staging[":id"].approve.$post({ param, json: { question: "When will my refund arrive?" } }),
      409,
      "DUPLICATE_FAQ",
    );
    await expectJson(
      admin.v1.staging[":id"].approve.$post({ param, json: { question: "When will my refund arrive?", allowDuplicate: true } }),
      200,
    );
    await expectJson(admin.v1.staging[":id"].approve.$post({ param: { id: student.id }, json: {} }), 200);

    const stats = await expectJson(apiClient(tenant.clientKey).v1.pipeline.stats.$get({ query: {} }), 200);
    const today = new Date().toISOString().slice(0, 10);
    expect(stats).toMatchObject({
      byAction: { SKIP: 0, ADD_VARIANT: 1, MERGE: 0, NEW: 2 },
      byDay: [{ day: today, ADD_VARIANT: 1, NEW: 2 }],
      tickets: { decided: 3 },
      variantsPerFaq: { faqs: 3, variants: 1, pipelineVariants: 1, max: 1 },
      duplicateCreation: { created: 2, checked: 2, likelyDuplicates: 1, rate: 0.5, threshold: 0.85 },
    });
    expect(stats.staging).toEqual(expect.arrayContaining([{ action: "NEW", status: "approved", count: 2 }]));
    // Every live FAQ is checked too, however it was made.
    expect(stats.duplicates).toMatchObject({ scanned: 3, checked: 3 });
  });
});
