/** The README's own ticket, end to end: what reaches production as a variant has no sign-off and no name. */
import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";
import { deliver, expectDelivered, newWebhookSecret, seedFaq, ticket, waitForDecision } from "../support/tickets";

describe("ticket pipeline: cleaning before ADD_VARIANT (seed 002)", () => {
  it("adds 'how long until I get my refund?' without 'Thanks, Ann'", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(
      tenant,
      "How long does a refund take to arrive?",
      "Refunds reach your card within 5 to 10 business days after we receive the return.",
    );
    const secret = await newWebhookSecret(tenant);
    const body = ticket("Hi team, how long until I get my refund? Thanks, Ann", "Refunds reach your card within 5 to 10 business days.");
    const decided = await waitForDecision(tenant, (await expectDelivered(deliver(tenant, secret, body))).id);
    expect(decided.decision).toMatchObject({ action: "ADD_VARIANT", cleanedQuestion: "how long until I get my refund?" });
    const faq = await expectJson(apiClient(tenant.adminKey).v1.faqs[":id"].$get({ param: { id: faqId } }), 200);
    expect(faq.variants.map((v) => v.variantText)).toEqual(["how long until I get my refund?"]);
  });
});
