import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services";
import { processTicket } from "../../src/features/tickets/consume";
import { d1PipelineStore } from "../../src/features/tickets/d1-store";
import { newTenant } from "../support/api";
import { readTicket, seedFaq } from "../support/tickets";

describe("the ticket cleaning keeps the knowledge base's own words", () => {
  it("keeps a product named like a person when the FAQs say it, and still takes out the customer's name", async () => {
    const tenant = await newTenant();
    await seedFaq(tenant, "How do I connect Alexa to the hub?", "Open the app, choose Devices, then Alexa.");
    const { row } = await d1PipelineStore(env.DB).insertTicket(
      tenant.tenantId,
      {
        ticketId: `V-${crypto.randomUUID()}`,
        subject: "",
        question: "Why does Alexa keep dropping off the hub after an update? My colleague Darnell Whitaker sees it too.",
        answer: "Re-pair Alexa under Devices.",
        tags: [],
        resolvedAt: 0,
      },
      Date.now(),
    );
    await processTicket(createServices(env), { tenantId: tenant.tenantId, ticketRowId: row.id });
    const ticket = await readTicket(tenant, row.id);
    expect(ticket.decision!.cleanedQuestion).toContain("Alexa");
    expect(ticket.decision!.cleanedQuestion).not.toContain("Darnell");
    // The review desk reads the same cleaning: Alexa stays, the colleague is a removal.
    expect(ticket.cleaning.question).toContain("Alexa");
    expect(ticket.cleaning.removals).toContainEqual({ kind: "name", text: "Darnell Whitaker" });
  });
});
