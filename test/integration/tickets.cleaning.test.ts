/** The README's own ticket, end to end: what reaches production as a variant has no sign-off and no name. */
import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";
import { deliver, newWebhookSecret, seedFaq, ticket, waitForDecision } from "../support/tickets";

describe("ticket pipeline: cleaning before ADD_VARIANT (seed 002)", () => {
  it("adds 'how long until I get my refund?' without 'Thanks, Ann'", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, "How long does a refund take to arrive?", "Refunds reach your card within 5 to 10 business days after we receive the return.");
    const secret = await newWebhookSecret(tenant);
    const body = ticket("Hi team, how long until I get my refund? Thanks, Ann", "Refunds reach your card within 5 to 10 business days.");
    const res = await deliver(tenant, secret, body);
    expect(res.status).toBe(202);
    const decided = await waitForDecision(tenant, res.json!.id as string);
    expect(decided.decision).toMatchObject({ action: "ADD_VARIANT", cleanedQuestion: "how long until I get my refund?" });
    const faq = await call(`/v1/faqs/${faqId}`, { key: tenant.adminKey });
    expect(faq.json!.variants.map((v: { variantText: string }) => v.variantText)).toEqual(["how long until I get my refund?"]);
  });
});
