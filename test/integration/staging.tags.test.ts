import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services";
import { processTicket } from "../../src/features/tickets/consume";
import { d1PipelineStore } from "../../src/features/tickets/d1-store";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";
import { readTicket } from "../support/tickets";

describe("POST /v1/staging/:id/approve", () => {
  it("gives the new FAQ only the ticket's tags an FAQ can have, lower-cased (npm run fuzz found FAQs with 'k=B')", async () => {
    const tenant = await newTenant();
    const tags = ["Billing Issue", " Refunds ", "k=B", "eu/shipping"];
    const { row } = await d1PipelineStore(env.DB).insertTicket(
      tenant.tenantId,
      { ticketId: "TAGS-1", subject: "", question: "Do you ship to Iceland?", answer: "Yes, in 5 days.", tags, resolvedAt: 0 },
      Date.now(),
    );
    await processTicket(createServices(env), { tenantId: tenant.tenantId, ticketRowId: row.id });
    const admin = apiClient(tenant.adminKey);
    const stagingId = (await readTicket(tenant, row.id)).decision!.stagingId!;
    const approved = await expectJson(admin.v1.staging[":id"].approve.$post({ param: { id: stagingId }, json: {} }), 200);
    const faq = await expectJson(admin.v1.faqs[":id"].$get({ param: { id: approved.resultFaqId! } }), 200);
    expect(faq.tags).toEqual(["refunds", "eu/shipping"]);
    expect((await expectJson(admin.v1.faqs.$get({ query: { tag: "refunds" } }), 200)).faqs).toHaveLength(1);
  });
});
