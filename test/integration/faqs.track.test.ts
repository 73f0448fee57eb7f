import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";

/** A shop's knowledge base where "package" is in many answers and variants, "track" in one question. */
const SHOP = [
  {
    question: "How do I track my order?",
    answer: "Open Orders in your account and choose Track: you see the carrier and the latest scan.",
  },
  {
    question: "Can I change my order after placing it?",
    answer:
      "Within one hour of placing it you can change the address or items from Orders; once the package has shipped it can no longer be changed.",
  },
  { question: "What is your return policy?", answer: "Return unused items within 30 days for a full refund." },
  { question: "How long does shipping take?", answer: "Standard shipping takes 3 to 5 business days; express takes 1 to 2." },
  { question: "Where is my refund?", answer: "Refunds reach your card 5 to 10 days after we receive the return." },
  { question: "My package arrived damaged, what now?", answer: "Send us a photo within 7 days and we replace it." },
];
const VARIANTS: [faq: number, text: string][] = [
  [1, "Can I change the delivery address of my package?"],
  [1, "Can I add an item to a package that has not shipped?"],
  [5, "The package came broken"],
];

describe("FAQ search: a keyword of the question against words spread over answers and variants", () => {
  it("ranks the FAQ whose question holds the query's rarer word first (issue 32: track package)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const ids: string[] = [];
    for (const faq of SHOP) ids.push((await expectJson(api.v1.faqs.$post({ json: faq }), 201)).id);
    for (const [faq, variantText] of VARIANTS)
      await expectJson(api.v1.faqs[":id"].variants.$post({ param: { id: ids[faq]! }, json: { variantText } }), 201);
    for (const query of ["track package", "package tracking"]) {
      const { results } = await expectJson(api.v1.faqs.search.$post({ json: { query } }), 200);
      expect(results[0]!.id, query).toBe(ids[0]);
      expect(results[0]!.matchType).toContain("canonical_bm25");
    }
  });
});
