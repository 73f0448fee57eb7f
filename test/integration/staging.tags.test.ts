import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/services";
import { processTicket } from "../../src/tickets/consume";
import { insertTicket } from "../../src/tickets/store";
import { call, newTenant } from "../support/api";

describe("POST /v1/staging/:id/approve", () => {
  it("gives the new FAQ only the ticket's tags an FAQ can have, lower-cased (npm run fuzz found FAQs with 'k=B')", async () => {
    const tenant = await newTenant();
    const tags = ["Billing Issue", " Refunds ", "k=B", "eu/shipping"];
    const { row } = await insertTicket(env.DB, tenant.tenantId, { ticketId: "TAGS-1", subject: "", question: "Do you ship to Iceland?", answer: "Yes, in 5 days.", tags, resolvedAt: 0 }, Date.now());
    await processTicket(createServices(env), { tenantId: tenant.tenantId, ticketRowId: row.id });
    const stagingId = (await call(`/v1/tickets/${row.id}`, { key: tenant.adminKey })).json!.decision.stagingId as string;
    const approved = await call(`/v1/staging/${stagingId}/approve`, { key: tenant.adminKey, body: {} });
    expect(approved.status).toBe(200);
    const faq = await call(`/v1/faqs/${approved.json!.resultFaqId}`, { key: tenant.adminKey });
    expect(faq.json!.tags).toEqual(["refunds", "eu/shipping"]);
    expect((await call("/v1/faqs?tag=refunds", { key: tenant.adminKey })).json!.faqs).toHaveLength(1);
  });
});
