/**
 * The pipeline end to end: signed webhook → TICKETS queue → consumer → decision, with the real
 * local embedder (USE-lite, calibrated). The sentence pairs were chosen by their measured
 * calibrated similarity to land in each band (values in the comments).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Judge } from "../../src/platform/judge/port";
import { createServices } from "../../src/app/services";
import { processTicket } from "../../src/features/tickets/consume";
import { d1PipelineStore } from "../../src/features/tickets/d1-store";
import { newTenant, type TestTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";
import { SURE_REFUND_REWORDING } from "../fixtures/ticket-questions";
import { deliver, expectDelivered, newWebhookSecret, readTicket, seedFaq, ticket, waitForDecision } from "../support/tickets";

const PASSWORD_Q = "How do I reset my password?";
const PASSWORD_A = "Click 'Forgot password' on the sign-in page and follow the link we email you.";
const REFUND_Q = "How long does a refund take to arrive?";
const REFUND_A = "Refunds reach your card within 5 to 10 business days after we receive the return.";
const ADDRESS_Q = "Can I change the shipping address after ordering?";
const ADDRESS_A = "Yes, until the order ships: open the order and edit the address.";

const readFaq = (tenant: TestTenant, id: string) => expectJson(apiClient(tenant.adminKey).v1.faqs[":id"].$get({ param: { id } }), 200);
const readStaging = (tenant: TestTenant, id: string) =>
  expectJson(apiClient(tenant.adminKey).v1.staging[":id"].$get({ param: { id } }), 200);

async function run(tenant: TestTenant, body: ReturnType<typeof ticket>) {
  const secret = await newWebhookSecret(tenant);
  return waitForDecision(tenant, (await expectDelivered(deliver(tenant, secret, body))).id);
}

describe("ticket pipeline: decisions by similarity band", () => {
  it("files a ≥ 0.95 rewording as a new variant (0.995: 'How can I reset my password?'), then SKIPs that phrasing", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, PASSWORD_Q, PASSWORD_A);
    const decided = await run(tenant, ticket("Hello,\nHow can I reset my password?\nThanks,\nBob", PASSWORD_A));
    expect(decided.status).toBe("decided");
    expect(decided.decision).toMatchObject({
      action: "ADD_VARIANT",
      matchedFaqId: faqId,
      similarityMethod: "calibrated",
      cleanedQuestion: "How can I reset my password?",
    });
    expect(decided.decision!.similarity).toBeGreaterThanOrEqual(0.95);
    // The same phrasing again, in another case and without its question mark: known now, nothing to add.
    const again = await run(tenant, ticket("how can i reset my password", PASSWORD_A));
    expect(again.decision).toMatchObject({ action: "SKIP", matchedFaqId: faqId, matchedVariantId: decided.decision!.variantId });
    const faq = await readFaq(tenant, faqId);
    expect(faq.variants.map((v: { variantText: string }) => v.variantText)).toEqual(["How can I reset my password?"]);
  });

  it("SKIPs a ticket whose question is the FAQ's own, case and punctuation aside", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, PASSWORD_Q, PASSWORD_A);
    const decided = await run(tenant, ticket("how do i reset my password", PASSWORD_A));
    expect(decided.decision).toMatchObject({ action: "SKIP", matchedFaqId: faqId, matchedVariantId: null });
    expect((await readFaq(tenant, faqId)).variants).toHaveLength(0);
  });

  it("ADD_VARIANTs a rewording the decision is sure of (0.978) whose answer adds nothing: straight into production", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, REFUND_Q, REFUND_A);
    const body = ticket(SURE_REFUND_REWORDING, "Refunds reach your card within 5 to 10 business days.");
    const decided = await run(tenant, body);
    expect(decided.decision).toMatchObject({ action: "ADD_VARIANT", matchedFaqId: faqId, judge: "heuristic", stagingId: null });
    expect(decided.decision!.similarity).toBeGreaterThanOrEqual(0.85);
    const faq = await readFaq(tenant, faqId);
    expect(faq.variants).toEqual([
      expect.objectContaining({
        id: decided.decision!.variantId,
        variantText: SURE_REFUND_REWORDING,
        source: "pipeline",
        sourceTicketId: body.ticketId,
      }),
    ]);
    // The variant is searchable at once
    const found = await expectJson(apiClient(tenant.clientKey).v1.faqs.search.$post({ json: { query: SURE_REFUND_REWORDING } }), 200);
    expect(found.results[0]!.id).toBe(faqId);
  });

  it("MERGEs a 0.85–0.95 match whose answer adds information: staging with the merged answer and the variant", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, REFUND_Q, REFUND_A);
    const decided = await run(
      tenant,
      ticket(
        "How long until I get my refund?",
        "PayPal refunds arrive instantly; bank transfers need three extra working days because of clearing.",
      ),
    );
    expect(decided.decision).toMatchObject({ action: "MERGE", matchedFaqId: faqId, judge: "heuristic", variantId: null });
    const staged = await readStaging(tenant, decided.decision!.stagingId!);
    expect(staged).toMatchObject({
      action: "MERGE",
      status: "pending",
      faqId,
      question: REFUND_Q,
      variantText: "How long until I get my refund?",
    });
    expect(staged.answer).toContain(REFUND_A);
    expect(staged.answer).toContain("PayPal refunds arrive instantly");
  });

  it("asks the judge in the 0.70–0.85 band (0.742: 'My login code never arrives by email'): a different question is NEW", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, PASSWORD_Q, PASSWORD_A);
    const decided = await run(
      tenant,
      ticket("My login code never arrives by email", "Check the spam folder; codes come from no-reply@example.com."),
    );
    expect(decided.decision).toMatchObject({ action: "NEW", matchedFaqId: faqId, judge: "heuristic" });
    expect(decided.decision!.similarity).toBeGreaterThanOrEqual(0.7);
    expect(decided.decision!.similarity).toBeLessThan(0.85);
    expect(decided.decision!.rationale).toContain("shared content words");
    const staged = await readStaging(tenant, decided.decision!.stagingId!);
    expect(staged).toMatchObject({ action: "NEW", question: "My login code never arrives by email", faqId: null });
  });

  it("in the 0.70–0.85 band, a judge that says MERGE makes a MERGE staging item", async () => {
    const tenant = await newTenant();
    await seedFaq(tenant, PASSWORD_Q, PASSWORD_A);
    const mergeJudge: Judge = {
      kind: "always-merge",
      answerAddsInformation: async () => ({ addsInformation: false, rationale: "n/a", judge: "always-merge" }),
      mergeOrNew: async () => ({ action: "MERGE", rationale: "same topic", judge: "always-merge" }),
    };
    const services = { ...createServices(env), judge: mergeJudge };
    const { row } = await d1PipelineStore(env.DB).insertTicket(
      tenant.tenantId,
      {
        ticketId: "T-judge-merge",
        subject: "",
        question: "My login code never arrives by email",
        answer: "Check spam.",
        tags: [],
        resolvedAt: 0,
      },
      Date.now(),
    );
    expect(await processTicket(services, { tenantId: tenant.tenantId, ticketRowId: row.id })).toEqual({ kind: "decided", action: "MERGE" });
    const t = await readTicket(tenant, row.id);
    expect(t.decision).toMatchObject({ action: "MERGE", judge: "always-merge" });
  });

  it("makes a < 0.70 match NEW (0.557: 'How do I return an item?' vs the refund FAQ) with no judge", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, REFUND_Q, REFUND_A);
    const decided = await run(
      tenant,
      ticket("How do I return an item?", "Print the return label from your order page and drop the parcel at any post office."),
    );
    expect(decided.decision).toMatchObject({ action: "NEW", judge: null, matchedFaqId: faqId });
    expect(decided.decision!.similarity).toBeGreaterThan(0.5);
    expect(decided.decision!.similarity).toBeLessThan(0.7);
  });

  it("makes an unrelated ticket NEW (0.476: 'Do you offer express delivery?'; the FAQ search may offer no candidate at all)", async () => {
    const tenant = await newTenant();
    await seedFaq(tenant, ADDRESS_Q, ADDRESS_A);
    const decided = await run(tenant, ticket("Do you offer express delivery?", "Yes, next-day delivery costs 9 EUR."));
    expect(decided.decision).toMatchObject({ action: "NEW", judge: null });
    expect(decided.decision!.similarity ?? 0).toBeLessThan(0.7);
  });

  it("makes a ticket NEW when the tenant has no FAQ at all", async () => {
    const tenant = await newTenant();
    const decided = await run(tenant, ticket("Do you offer express delivery?", "Yes."));
    expect(decided.decision).toMatchObject({ action: "NEW", similarity: null, matchedFaqId: null });
  });

  it("matches over variants too: a ticket that repeats a variant is SKIPped with the variant named", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, REFUND_Q, REFUND_A);
    const v = await expectJson(
      apiClient(tenant.adminKey).v1.faqs[":id"].variants.$post({
        param: { id: faqId },
        json: { variantText: "Can I get store credit instead of money back?" },
      }),
      201,
    );
    const decided = await run(tenant, ticket("Can I get store credit instead of money back?", "Yes."));
    expect(decided.decision).toMatchObject({ action: "SKIP", matchedFaqId: faqId, matchedVariantId: v.id });
  });

  it("compares Chinese tickets lexically on the English-only model, and says so", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, "如何重置密码？", "在登录页点击忘记密码。");
    const decided = await run(tenant, ticket("如何重置密码？", "在登录页点击忘记密码。"));
    expect(decided.decision).toMatchObject({ action: "SKIP", matchedFaqId: faqId, similarityMethod: "lexical" });
    expect(decided.decision!.rationale).toContain("lexical");
  });

  it("processing a decided ticket again does nothing", async () => {
    const tenant = await newTenant();
    await seedFaq(tenant, REFUND_Q, REFUND_A);
    const decided = await run(tenant, ticket(SURE_REFUND_REWORDING, "Within 5 to 10 business days."));
    const again = await processTicket(createServices(env), { tenantId: tenant.tenantId, ticketRowId: decided.id });
    expect(again).toEqual({ kind: "already", status: "decided" });
    const faq = await readFaq(tenant, decided.decision!.matchedFaqId!);
    expect(faq.variants).toHaveLength(1);
  });
});
