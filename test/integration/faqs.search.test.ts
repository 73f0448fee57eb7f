import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";

/** A small purchasing knowledge base (seed 002's domain). */
const KB = [
  { question: "How do I reset my password?", answer: "Open Settings, choose Security, then Reset password. A link is emailed to you.", tags: ["account"] },
  { question: "How do I track a purchase order?", answer: "Open Purchasing, then Orders; each order shows its shipment status.", tags: ["purchasing"] },
  { question: "How do I cancel a purchase order?", answer: "Orders can be cancelled until the supplier confirms them.", tags: ["purchasing"] },
  { question: "Why was my purchase order rejected?", answer: "Order PO-12345 and others are rejected when the budget code is missing.", tags: ["purchasing"] },
  { question: "What does the checkout failure mean?", answer: "Error E500 at checkout means the payment service is down; retry in a few minutes.", tags: ["errors"] },
  { question: "How do I change my shipping address?", answer: "Edit the address under Profile before the order ships.", tags: ["account"] },
  { question: "How can I download my invoices?", answer: "Invoices are under Billing as PDF files.", tags: ["billing"] },
];

async function seed(key: string) {
  const ids: string[] = [];
  for (const faq of KB) {
    const res = await call("/v1/faqs", { key, body: faq });
    expect(res.status).toBe(201);
    ids.push(res.json!.id);
  }
  return ids;
}

async function search(key: string, body: Record<string, unknown>) {
  const res = await call("/v1/faqs/search", { key, body });
  expect(res.status).toBe(200);
  return res.json!.results as { id: string; score: number; matchType: string[]; matchedVariant?: { id: string; variantText: string } }[];
}

describe("POST /v1/faqs/search", () => {
  it("returns the variant's FAQ first when only a variant shares the query's words", async () => {
    const { clientKey } = await newTenant();
    const ids = await seed(clientKey);
    const variant = await call(`/v1/faqs/${ids[0]}/variants`, { key: clientKey, body: { variantText: "forgot login, locked out of my account" } });
    expect(variant.status).toBe(201);

    // No word of the query is in any canonical question or answer: only the variant's full-text
    // row can match it, and its vector is the closest variant.
    const results = await search(clientKey, { query: "locked out, forgot login" });
    expect(results[0]!.id).toBe(ids[0]);
    expect(results[0]!.matchType).toEqual(expect.arrayContaining(["variant_bm25", "variant_vector"]));
    expect(results[0]!.matchType).not.toContain("canonical_bm25");
    expect(results[0]!.matchedVariant).toEqual({ id: variant.json!.id, variantText: "forgot login, locked out of my account" });
    // No other FAQ has a variant: at most the canonical vector list found them.
    for (const other of results.slice(1)) expect(other.matchType).toEqual(["canonical_vector"]);
  });

  it("finds the FAQ of an exact code first, where vector-only search does not", async () => {
    const { clientKey } = await newTenant();
    const ids = await seed(clientKey);
    // The codes appear only in the answers (weight B) of their FAQs.
    for (const [query, expected] of [
      ["PO-12345", ids[3]],
      ["error E500", ids[4]],
    ] as const) {
      const hybrid = await search(clientKey, { query });
      expect(hybrid[0]!.id).toBe(expected);
      expect(hybrid[0]!.matchType).toContain("canonical_bm25");
      // By meaning alone a code is close to nothing in particular: its FAQ is not first.
      const vectorOnly = await search(clientKey, { query, weights: { bm25: 0, vector: 1 } });
      expect(vectorOnly[0]?.id).not.toBe(expected);
      expect(vectorOnly.every((r) => r.matchType.every((m) => m.endsWith("_vector")))).toBe(true);
    }
    // The same vector-only search does find FAQs by meaning.
    const meaning = await search(clientKey, { query: "I forgot my password", weights: { bm25: 0, vector: 1 } });
    expect(meaning[0]).toMatchObject({ id: ids[0], matchType: ["canonical_vector"] });
  });

  it("ranks a question-column match above an answer-column match (bm25 column weights 10 : 3)", async () => {
    const { clientKey } = await newTenant();
    const inAnswer = await call("/v1/faqs", { key: clientKey, body: { question: "Which couriers do you use?", answer: "We ship with several couriers; warehouse pickups are possible too." } });
    const inQuestion = await call("/v1/faqs", { key: clientKey, body: { question: "Can I pick up at the warehouse?", answer: "Yes, with an appointment." } });
    const results = await search(clientKey, { query: "warehouse", weights: { bm25: 1, vector: 0 } });
    expect(results.map((r) => r.id)).toEqual([inQuestion.json!.id, inAnswer.json!.id]);
  });

  it("keeps only FAQs carrying every requested tag", async () => {
    const { clientKey } = await newTenant();
    const ids = await seed(clientKey);
    const results = await search(clientKey, { query: "purchase order", tags: ["purchasing"] });
    expect(new Set(results.map((r) => r.id))).toEqual(new Set([ids[1], ids[2], ids[3]]));
  });

  it("treats FTS operator characters as plain text", async () => {
    const { clientKey } = await newTenant();
    await seed(clientKey);
    for (const query of ['NEAR(" OR *', '"unbalanced', "password AND NOT -reset", "col:umn ^ (a OR", "*"]) {
      const res = await call("/v1/faqs/search", { key: clientKey, body: { query } });
      expect(res.status).toBe(200);
    }
    const results = await search(clientKey, { query: 'reset* "password' });
    expect(results[0]!.matchType).toContain("canonical_bm25");
  });

  it("searches Chinese FAQs lexically (the English-only model cannot embed them)", async () => {
    const { clientKey } = await newTenant();
    const zh = await call("/v1/faqs", { key: clientKey, body: { question: "如何修改用户密码？", answer: "在设置里选择安全。" } });
    expect(zh.json!.indexState).toBe("lexical_only");
    await call("/v1/faqs", { key: clientKey, body: { question: "如何下载发票？", answer: "在账单页面。" } });
    const results = await search(clientKey, { query: "用户密码" });
    expect(results.map((r) => r.id)).toEqual([zh.json!.id]);
    expect(results[0]!.matchType).toEqual(["canonical_bm25"]);
  });

  it("leaves deleted FAQs and deleted variants out", async () => {
    const { clientKey } = await newTenant();
    const ids = await seed(clientKey);
    const variant = await call(`/v1/faqs/${ids[6]}/variants`, { key: clientKey, body: { variantText: "where are my receipts" } });
    expect((await call(`/v1/faqs/${ids[0]}`, { key: clientKey, method: "DELETE" })).status).toBe(204);
    expect((await call(`/v1/faqs/variants/${variant.json!.id}`, { key: clientKey, method: "DELETE" })).status).toBe(204);
    const results = await search(clientKey, { query: "reset password receipts" });
    expect(results.map((r) => r.id)).not.toContain(ids[0]);
    expect(results.some((r) => r.matchType.includes("variant_bm25") || r.matchType.includes("variant_vector"))).toBe(false);
  });

  it("refuses weights that are both 0, and an empty query", async () => {
    const { clientKey } = await newTenant();
    const zero = await call("/v1/faqs/search", { key: clientKey, body: { query: "x", weights: { bm25: 0, vector: 0 } } });
    expect(zero.status).toBe(400);
    expect(zero.json!.error.code).toBe("VALIDATION_FAILED");
    const empty = await call("/v1/faqs/search", { key: clientKey, body: { query: "   " } });
    expect(empty.status).toBe(400);
    const tooMany = await call("/v1/faqs/search", { key: clientKey, body: { query: "x", limit: 51 } });
    expect(tooMany.status).toBe(400);
  });
});
