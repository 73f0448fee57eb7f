/**
 * The upkeep that takes customers' details out of FAQ text tickets made before today's cleaning
 * (src/features/tickets/reclean.ts): text approved "as it was" (a reviewer kept the agent's greeting and
 * sign-off, as the old cleaning staged them) and a pending item staged dirty are cleaned, with an
 * FAQ version to roll back to; a second run changes nothing.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services";
import { processTicket } from "../../src/features/tickets/consume";
import { d1PipelineStore } from "../../src/features/tickets/d1-store";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";
import { readTicket } from "../support/tickets";

const QUESTION = "Hi,\nDo you ship to Iceland? My phone is +44 20 7946 0958.\nThanks,\nRavi Sharma";
const ANSWER = "Hi Ravi,\n\nYes, Iceland takes 5 days.\n\nCheers,\nSam Lee";

async function decided(tenantId: string, ticketId: string, question: string) {
  const store = d1PipelineStore(env.DB);
  const { row } = await store.insertTicket(
    tenantId,
    { ticketId, subject: "", question, answer: ANSWER, tags: [], resolvedAt: 0 },
    Date.now(),
  );
  await processTicket(createServices(env), { tenantId, ticketRowId: row.id });
  return row.id;
}

describe("POST /v1/pipeline/reclean", () => {
  it("cleans an FAQ approved with the ticket's details and a pending item staged with them, once, with a version to roll back to", async () => {
    const tenant = await newTenant();
    const admin = apiClient(tenant.adminKey);
    const approvedTicket = await decided(tenant.tenantId, "RC-1", QUESTION);
    const stagingId = (await readTicket(tenant, approvedTicket)).decision!.stagingId!;
    // The reviewer approved the text as the old cleaning staged it: the agent's answer as written.
    const approved = await expectJson(
      admin.v1.staging[":id"].approve.$post({
        param: { id: stagingId },
        json: { question: "Do you ship to Iceland? My phone is +44 20 7946 0958.", answer: ANSWER },
      }),
      200,
    );
    const pendingTicket = await decided(
      tenant.tenantId,
      "RC-2",
      "Hi,\nCan I pay by invoice? Call me on +44 20 7946 0958.\nThanks,\nRavi Sharma",
    );
    const pendingId = (await readTicket(tenant, pendingTicket)).decision!.stagingId!;
    await env.DB.prepare("UPDATE staging_items SET answer = ? WHERE id = ?").bind(ANSWER, pendingId).run();

    const report = await expectJson(admin.v1.pipeline.reclean.$post({ query: {} }), 200);
    expect(report).toEqual({ tickets: 2, faqsUpdated: 1, variantsReplaced: 0, stagingRewritten: 1, next: null });

    const faq = await expectJson(admin.v1.faqs[":id"].$get({ param: { id: approved.resultFaqId! } }), 200);
    expect(faq.question).toBe("Do you ship to Iceland? My phone is [phone].");
    expect(faq.answer).toBe("Yes, Iceland takes 5 days.");
    const pending = await expectJson(admin.v1.staging[":id"].$get({ param: { id: pendingId } }), 200);
    expect(pending.answer).toBe("Yes, Iceland takes 5 days.");

    const versions = await expectJson(admin.v1.faqs[":id"].versions.$get({ param: { id: faq.id }, query: {} }), 200);
    expect(versions.versions[0]).toMatchObject({ answer: ANSWER, changedBy: "upkeep:personal-details" });
    expect(await expectJson(admin.v1.pipeline.reclean.$post({ query: {} }), 200)).toEqual({
      tickets: 2,
      faqsUpdated: 0,
      variantsReplaced: 0,
      stagingRewritten: 0,
      next: null,
    });
  });

  it("is an admin's step", async () => {
    const tenant = await newTenant();
    expect((await apiClient(tenant.clientKey).v1.pipeline.reclean.$post({ query: {} })).status).toBe(403);
  });
});
