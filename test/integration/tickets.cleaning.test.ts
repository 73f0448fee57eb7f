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

describe("ticket pipeline: no customer's personal details reach staged FAQ text (issue 44)", () => {
  it("stages a NEW item without the customer's or the agent's details, flags the card, and says what it removed", async () => {
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const body = ticket(
      "Hi team,\n\nI'm Ravi from Umbrella Corp and we just moved to Business Plus. Card is 4111 1111 1111 1111, exp 09/27, CVC 382. " +
        "Why is my card declined when I upgrade?\n\nBest,\nRavi Sharma | Procurement Lead | Umbrella Corp\n+44 20 7946 0958\n\nSent from my iPhone",
      "Hi Ravi,\n\nPlease never send card details. PAY-051 means your bank declined it; approve the payment in your banking app.\n\nCheers,\nSam",
    );
    const decided = await waitForDecision(tenant, (await expectDelivered(deliver(tenant, secret, body))).id);
    expect(decided.decision).toMatchObject({
      action: "NEW",
      cleanedQuestion: "We just moved to Business Plus. Why is my card declined when I upgrade?",
    });
    expect(decided.decision!.rationale).toMatch(/^the ticket carried a payment card \(removed; ask the customer to change it\)/);
    const api = apiClient(tenant.adminKey);
    const item = await expectJson(api.v1.staging[":id"].$get({ param: { id: decided.decision!.stagingId! } }), 200);
    expect(item.question).toBe("We just moved to Business Plus. Why is my card declined when I upgrade?");
    expect(item.answer).toBe(
      "Please never send card details. PAY-051 means your bank declined it; approve the payment in your banking app.",
    );
    const staged = JSON.stringify(item);
    for (const detail of ["Ravi", "Umbrella", "4111", "382", "09/27", "7946", "iPhone", "Sam"]) expect(staged).not.toContain(detail);

    const read = await expectJson(api.v1.tickets[":id"].$get({ param: { id: decided.id } }), 200);
    expect(read.cleaning.flagged).toEqual(["card"]);
    expect(read.cleaning.removals.map((r) => r.kind)).toEqual(expect.arrayContaining(["greeting", "introduction", "card", "signature"]));
    // The original stays where the tenant already keeps it: the ticket row.
    expect(read.question).toContain("4111 1111 1111 1111");
  });
});
