import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { searchFaqSchema } from "../../src/http/schemas/faqs";
import { CHINESE, CODE_QUERIES, COLUMN_WEIGHT, KB, MEANING_QUERY, OPERATOR_QUERIES, VARIANT_ONLY } from "../fixtures/faq-relevance";
import { newTenant } from "../support/api";
import { apiClient, expectError, expectJson, type TestClient } from "../support/client";

async function seed(api: TestClient) {
  const ids: string[] = [];
  for (const faq of KB) ids.push((await expectJson(api.v1.faqs.$post({ json: faq }), 201)).id);
  return ids;
}

async function search(api: TestClient, json: z.input<typeof searchFaqSchema>) {
  return (await expectJson(api.v1.faqs.search.$post({ json }), 200)).results;
}

describe("POST /v1/faqs/search", () => {
  it("returns the variant's FAQ first when only a variant shares the query's words", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const ids = await seed(api);
    const variant = await expectJson(
      api.v1.faqs[":id"].variants.$post({ param: { id: ids[0]! }, json: { variantText: VARIANT_ONLY.variantText } }),
      201,
    );

    // No word of the query is in any canonical question or answer: only the variant's full-text
    // row can match it, and its vector is the closest variant.
    const results = await search(api, { query: VARIANT_ONLY.query });
    expect(results[0]!.id).toBe(ids[0]);
    expect(results[0]!.matchType).toEqual(expect.arrayContaining(["variant_bm25", "variant_vector"]));
    expect(results[0]!.matchType).not.toContain("canonical_bm25");
    expect(results[0]!.matchedVariant).toEqual({ id: variant.id, variantText: VARIANT_ONLY.variantText });
    // No other FAQ has a variant: at most the canonical vector list found them.
    for (const other of results.slice(1)) expect(other.matchType).toEqual(["canonical_vector"]);
  });

  it("finds the FAQ of an exact code first, where vector-only search does not", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const ids = await seed(api);
    // The codes appear only in the answers (weight B) of their FAQs.
    for (const [query, index] of CODE_QUERIES) {
      const expected = ids[index];
      const hybrid = await search(api, { query });
      expect(hybrid[0]!.id).toBe(expected);
      expect(hybrid[0]!.matchType).toContain("canonical_bm25");
      // By meaning alone a code is close to nothing in particular: its FAQ is not first.
      const vectorOnly = await search(api, { query, weights: { bm25: 0, vector: 1 } });
      expect(vectorOnly[0]?.id).not.toBe(expected);
      expect(vectorOnly.every((r) => r.matchType.every((m) => m.endsWith("_vector")))).toBe(true);
    }
    // The same vector-only search does find FAQs by meaning.
    const meaning = await search(api, { query: MEANING_QUERY, weights: { bm25: 0, vector: 1 } });
    expect(meaning[0]).toMatchObject({ id: ids[0], matchType: ["canonical_vector"] });
  });

  it("ranks a question-column match above an answer-column match (bm25 column weights 10 : 3)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const inAnswer = await expectJson(api.v1.faqs.$post({ json: COLUMN_WEIGHT.inAnswer }), 201);
    const inQuestion = await expectJson(api.v1.faqs.$post({ json: COLUMN_WEIGHT.inQuestion }), 201);
    const results = await search(api, { query: COLUMN_WEIGHT.query, weights: { bm25: 1, vector: 0 } });
    expect(results.map((r) => r.id)).toEqual([inQuestion.id, inAnswer.id]);
  });

  it("keeps only FAQs carrying every requested tag", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const ids = await seed(api);
    const results = await search(api, { query: "purchase order", tags: ["purchasing"] });
    expect(new Set(results.map((r) => r.id))).toEqual(new Set([ids[1], ids[2], ids[3]]));
  });

  it("treats FTS operator characters as plain text", async () => {
    const api = apiClient((await newTenant()).clientKey);
    await seed(api);
    for (const query of OPERATOR_QUERIES) {
      await search(api, { query });
    }
    const results = await search(api, { query: 'reset* "password' });
    expect(results[0]!.matchType).toContain("canonical_bm25");
  });

  it("searches Chinese FAQs lexically (the English-only model cannot embed them)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const zh = await expectJson(api.v1.faqs.$post({ json: CHINESE.faqs[0]! }), 201);
    expect(zh.indexState).toBe("lexical_only");
    await expectJson(api.v1.faqs.$post({ json: CHINESE.faqs[1]! }), 201);
    const results = await search(api, { query: CHINESE.query });
    expect(results.map((r) => r.id)).toEqual([zh.id]);
    expect(results[0]!.matchType).toEqual(["canonical_bm25"]);
  });

  it("leaves deleted FAQs and deleted variants out", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const ids = await seed(api);
    const variant = await expectJson(
      api.v1.faqs[":id"].variants.$post({ param: { id: ids[6]! }, json: { variantText: "where are my receipts" } }),
      201,
    );
    expect((await api.v1.faqs[":id"].$delete({ param: { id: ids[0]! } })).status).toBe(204);
    expect((await api.v1.faqs.variants[":variantId"].$delete({ param: { variantId: variant.id } })).status).toBe(204);
    const results = await search(api, { query: "reset password receipts" });
    expect(results.map((r) => r.id)).not.toContain(ids[0]);
    expect(results.some((r) => r.matchType.includes("variant_bm25") || r.matchType.includes("variant_vector"))).toBe(false);
  });

  it("refuses weights that are both 0, and an empty query", async () => {
    const api = apiClient((await newTenant()).clientKey);
    await expectError(api.v1.faqs.search.$post({ json: { query: "x", weights: { bm25: 0, vector: 0 } } }), 400, "VALIDATION_FAILED");
    await expectError(api.v1.faqs.search.$post({ json: { query: "   " } }), 400);
    await expectError(api.v1.faqs.search.$post({ json: { query: "x", limit: 51 } }), 400);
  });
});
