/**
 * End to end, per provider: the helpdesk's delivery → the local TICKETS queue → the consumer
 * (real local embedder, heuristic judge) → a decision. With no FAQ the ticket becomes a NEW staging
 * item carrying the mapped question and answer; with an FAQ already asking the same, its question
 * becomes a variant or is skipped — the provider's text reached the pipeline intact.
 */
import { describe, expect, it } from "vitest";
import { QA } from "../fixtures/helpdesk";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";
import { connect, expectDelivery } from "../support/helpdesk";
import { freshId, scenarios, sendAll } from "../support/helpdesk-scenarios";
import { seedFaq, waitForDecision } from "../support/tickets";

describe.each(scenarios)("$provider delivery → queue → staging", (scenario) => {
  it("a solved ticket becomes a NEW staging item with the provider's question and answer", async () => {
    const tenant = await newTenant();
    const conn = await connect(tenant, scenario.provider);
    const { ticket } = await expectDelivery(sendAll(scenario, conn, scenario.solved(freshId())), "queued");
    const decided = await waitForDecision(tenant, ticket.id);
    expect(decided.status).toBe("decided");
    expect(decided.decision).toMatchObject({ action: "NEW", stagingId: expect.any(String) });
    expect(decided.decision!.cleanedQuestion).toContain(QA.question);
    const staged = await expectJson(
      apiClient(tenant.adminKey).v1.staging[":id"].$get({ param: { id: decided.decision!.stagingId! } }),
      200,
    );
    expect(staged).toMatchObject({ action: "NEW", status: "pending" });
    expect(staged.question).toContain(QA.question);
    expect(staged.answer).toContain(QA.answer);
    expect(staged.answer).not.toMatch(/internal/i);
  });
});

describe("helpdesk delivery → queue → decision against an existing FAQ", () => {
  it("a Zendesk ticket asking an existing FAQ's question is matched to it (SKIP ≥ 0.95)", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, QA.question, QA.answer);
    const zendesk = scenarios.find((s) => s.provider === "zendesk")!;
    const conn = await connect(tenant, "zendesk");
    const { ticket } = await expectDelivery(sendAll(zendesk, conn, zendesk.solved(freshId())), "queued");
    const decided = await waitForDecision(tenant, ticket.id);
    expect(decided.decision).toMatchObject({ action: "SKIP", matchedFaqId: faqId });
  });
});
