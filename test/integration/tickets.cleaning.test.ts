/** The API reference's example ticket, end to end: what reaches production as a variant has no sign-off and no name. */
import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";
import { SURE_REFUND_REWORDING } from "../fixtures/ticket-questions";
import { deliver, expectDelivered, newWebhookSecret, seedFaq, ticket, waitForDecision } from "../support/tickets";

describe("ticket pipeline: cleaning before ADD_VARIANT (seed 002)", () => {
  it("adds the question without 'Hi team' and 'Thanks, Ann'", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(
      tenant,
      "How long does a refund take to arrive?",
      "Refunds reach your card within 5 to 10 business days after we receive the return.",
    );
    const secret = await newWebhookSecret(tenant);
    const body = ticket(`Hi team, ${SURE_REFUND_REWORDING} Thanks, Ann`, "Refunds reach your card within 5 to 10 business days.");
    const decided = await waitForDecision(tenant, (await expectDelivered(deliver(tenant, secret, body))).id);
    expect(decided.decision).toMatchObject({ action: "ADD_VARIANT", cleanedQuestion: SURE_REFUND_REWORDING });
    const faq = await expectJson(apiClient(tenant.adminKey).v1.faqs[":id"].$get({ param: { id: faqId } }), 200);
    expect(faq.variants.map((v) => v.variantText)).toEqual([SURE_REFUND_REWORDING]);
  });
});
