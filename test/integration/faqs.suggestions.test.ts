import { describe, expect, it } from "vitest";
import { newTenant, send } from "../support/api";
import { clientWith } from "../support/app";
import { apiClient, expectError, expectJson, optionalJsonBody, type TestClient } from "../support/client";

const same = <T>(real: T) => real;
/** Searches through the app itself, so the suggestion recorded after the response is written before the next step. */
const searchAndWait = (key: string, query: string) => expectJson(clientWith(same, key).v1.faqs.search.$post({ json: { query } }), 200);
const resolve = (api: TestClient, id: string, action: "accept" | "dismiss", body: { faqId?: string; variantText?: string } = {}) =>
  api.v1.faqs.suggestions[":id"][":action{accept|dismiss}"].$post({ param: { id, action } }, optionalJsonBody(body));
const listSuggestions = async (api: TestClient) => (await expectJson(api.v1.faqs.suggestions.$get({ query: {} }), 200)).suggestions;

describe("GET /v1/faqs/suggestions · accept · dismiss", () => {
  it("records ambiguous searches as clusters an admin accepts (a variant) or dismisses", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const reset = await expectJson(
      api.v1.faqs.$post({ json: { question: "How do I reset my password?", answer: "Use the reset link." } }),
      201,
    );
    const change = await expectJson(
      api.v1.faqs.$post({ json: { question: "How do I change my password?", answer: "Settings → Security." } }),
      201,
    );
    await expectJson(api.v1.faqs.$post({ json: { question: "Where is the Berlin office?", answer: "Alexanderplatz." } }), 201);
    const pair = new Set([reset.id, change.id]);

    // Both password FAQs are about equally close to these queries (within the 0.05 margin);
    // "Berlin office" has one clear answer, and an FAQ's own question is nothing to learn.
    for (const query of [
      "password help please",
      "please password help!",
      "password help please",
      "password trouble",
      "Berlin office",
      "How do I reset my password?",
    ]) {
      await searchAndWait(clientKey, query);
    }
    const suggestions = await listSuggestions(api);
    expect(suggestions).toHaveLength(2);
    const [help, trouble] = suggestions as [(typeof suggestions)[number], (typeof suggestions)[number]];
    expect(help).toMatchObject({ queryText: "password help please", samples: ["password help please", "please password help!"], count: 3 });
    expect(trouble).toMatchObject({ queryText: "password trouble", count: 1 });
    for (const s of suggestions) {
      expect(pair.has(s.faqId) && pair.has(s.alternateFaqId) && s.faqId !== s.alternateFaqId).toBe(true);
    }

    // Accept onto the alternate FAQ: the query becomes its variant, source "suggestion".
    const accepted = await expectJson(resolve(api, help.id, "accept", { faqId: help.alternateFaqId }), 201);
    expect(accepted).toMatchObject({ faqId: help.alternateFaqId, variantText: "password help please", source: "suggestion" });
    await expectError(resolve(api, help.id, "accept"), 404);

    // Accepting onto an FAQ that is not one of the pair is a 404; dismissing closes it with nothing added.
    await expectError(resolve(api, trouble.id, "accept", { faqId: "faq_other" }), 404);
    expect((await resolve(api, trouble.id, "dismiss")).status).toBe(204);
    expect(await listSuggestions(api)).toEqual([]);
    const { variants } = await expectJson(api.v1.faqs[":id"].variants.$get({ param: { id: trouble.faqId }, query: {} }), 200);
    expect(variants.map((v) => v.variantText)).not.toContain("password trouble");
  });

  it("answers 409 when the accepted phrasing is already a variant, and 404 for another tenant's suggestion", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const intruder = apiClient((await newTenant()).clientKey);
    const a = await expectJson(
      api.v1.faqs.$post({ json: { question: "How do I reset my password?", answer: "Use the reset link." } }),
      201,
    );
    const b = await expectJson(
      api.v1.faqs.$post({ json: { question: "How do I change my password?", answer: "Settings → Security." } }),
      201,
    );
    await searchAndWait(clientKey, "password help please");
    const [s] = await listSuggestions(api);
    expect([a.id, b.id]).toContain(s!.faqId);
    await expectError(resolve(intruder, s!.id, "dismiss"), 404);
    expect(await listSuggestions(intruder)).toEqual([]);
    await expectJson(api.v1.faqs[":id"].variants.$post({ param: { id: s!.faqId }, json: { variantText: "Password help, please" } }), 201);
    await expectError(resolve(api, s!.id, "accept"), 409);
    // Still open: the admin can dismiss it or accept it with edited text.
    await expectJson(resolve(api, s!.id, "accept", { variantText: "need help with my password" }), 201);
    // An action the route does not have: sent raw.
    await expectError(send(`/v1/faqs/suggestions/${s!.id}/bogus`, { key: clientKey, body: {} }), 404);
  });
});
