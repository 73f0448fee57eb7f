import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";
import { callWith } from "../support/app";

const same = <T>(real: T) => real;

describe("GET /v1/faqs/suggestions · accept · dismiss", () => {
  it("records ambiguous searches as clusters an admin accepts (a variant) or dismisses", async () => {
    const { clientKey } = await newTenant();
    const reset = (await call("/v1/faqs", { key: clientKey, body: { question: "How do I reset my password?", answer: "Use the reset link." } })).json!;
    const change = (await call("/v1/faqs", { key: clientKey, body: { question: "How do I change my password?", answer: "Settings → Security." } })).json!;
    await call("/v1/faqs", { key: clientKey, body: { question: "Where is the Berlin office?", answer: "Alexanderplatz." } });
    const pair = new Set([reset.id, change.id]);

    // Both password FAQs are about equally close to these queries (within the 0.05 margin);
    // "Berlin office" has one clear answer, and an FAQ's own question is nothing to learn.
    for (const query of ["password help please", "please password help!", "password help please", "password trouble", "Berlin office", "How do I reset my password?"]) {
      const res = await callWith(same, "/v1/faqs/search", clientKey, { query });
      expect(res.status).toBe(200);
    }
    const { suggestions } = (await call("/v1/faqs/suggestions", { key: clientKey })).json!;
    expect(suggestions).toHaveLength(2);
    const [help, trouble] = suggestions;
    expect(help).toMatchObject({ queryText: "password help please", samples: ["password help please", "please password help!"], count: 3 });
    expect(trouble).toMatchObject({ queryText: "password trouble", count: 1 });
    for (const s of suggestions) {
      expect(pair.has(s.faqId) && pair.has(s.alternateFaqId) && s.faqId !== s.alternateFaqId).toBe(true);
    }

    // Accept onto the alternate FAQ: the query becomes its variant, source "suggestion".
    const accepted = await call(`/v1/faqs/suggestions/${help.id}/accept`, { key: clientKey, body: { faqId: help.alternateFaqId } });
    expect(accepted.status).toBe(201);
    expect(accepted.json).toMatchObject({ faqId: help.alternateFaqId, variantText: "password help please", source: "suggestion" });
    expect((await call(`/v1/faqs/suggestions/${help.id}/accept`, { key: clientKey, body: {} })).status).toBe(404);

    // Accepting onto an FAQ that is not one of the pair is a 404; dismissing closes it with nothing added.
    expect((await call(`/v1/faqs/suggestions/${trouble.id}/accept`, { key: clientKey, body: { faqId: "faq_other" } })).status).toBe(404);
    expect((await call(`/v1/faqs/suggestions/${trouble.id}/dismiss`, { key: clientKey, body: {} })).status).toBe(204);
    expect((await call("/v1/faqs/suggestions", { key: clientKey })).json!.suggestions).toEqual([]);
    const variants = (await call(`/v1/faqs/${trouble.faqId}/variants`, { key: clientKey })).json!.variants;
    expect(variants.map((v: { variantText: string }) => v.variantText)).not.toContain("password trouble");
  });

  it("answers 409 when the accepted phrasing is already a variant, and 404 for another tenant's suggestion", async () => {
    const { clientKey } = await newTenant();
    const intruder = await newTenant();
    const a = (await call("/v1/faqs", { key: clientKey, body: { question: "How do I reset my password?", answer: "Use the reset link." } })).json!;
    const b = (await call("/v1/faqs", { key: clientKey, body: { question: "How do I change my password?", answer: "Settings → Security." } })).json!;
    await callWith(same, "/v1/faqs/search", clientKey, { query: "password help please" });
    const [s] = (await call("/v1/faqs/suggestions", { key: clientKey })).json!.suggestions;
    expect([a.id, b.id]).toContain(s.faqId);
    expect((await call(`/v1/faqs/suggestions/${s.id}/dismiss`, { key: intruder.clientKey, body: {} })).status).toBe(404);
    expect((await call("/v1/faqs/suggestions", { key: intruder.clientKey })).json!.suggestions).toEqual([]);
    await call(`/v1/faqs/${s.faqId}/variants`, { key: clientKey, body: { variantText: "Password help, please" } });
    const conflict = await call(`/v1/faqs/suggestions/${s.id}/accept`, { key: clientKey, body: {} });
    expect(conflict.status).toBe(409);
    // Still open: the admin can dismiss it or accept it with edited text.
    const edited = await call(`/v1/faqs/suggestions/${s.id}/accept`, { key: clientKey, body: { variantText: "need help with my password" } });
    expect(edited.status).toBe(201);
    expect((await call(`/v1/faqs/suggestions/${s.id}/bogus`, { key: clientKey, body: {} })).status).toBe(404);
  });
});
