/**
 * The FAQ store port's contract: the same cases against both adapters (D1 and Postgres through
 * the real Neon driver), including the relevance cases of test/integration/faqs.search.test.ts
 * on the same fixtures (test/fixtures/faq-relevance.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaqStore } from "../../src/features/faqs/port";
import type { FaqSearchArgs } from "../../src/features/faqs/types";
import { faqStore } from "../../src/features/faqs/select";
import { CHINESE, CODE_QUERIES, COLUMN_WEIGHT, KB, MEANING_QUERY, OPERATOR_QUERIES, VARIANT_ONLY } from "../fixtures/faq-relevance";
import { BACKENDS, type Backends, newTenant, startBackends } from "./support/backends";

let backends: Backends;
beforeAll(async () => {
  backends = await startBackends();
});
afterAll(() => backends?.close());

async function seed(store: FaqStore, tenantId: string): Promise<string[]> {
  const ids: string[] = [];
  for (const faq of KB) ids.push((await store.create(tenantId, "key_test", { ...faq, metadata: {} })).id);
  return ids;
}

const search = async (store: FaqStore, tenantId: string, args: Partial<FaqSearchArgs> & { query: string }) =>
  (await store.search(tenantId, { limit: 10, ...args })).results.map((r) => ({
    id: r.faq.id,
    matchType: r.matchType,
    matchedVariant: r.matchedVariant,
    score: r.score,
  }));

describe.each(BACKENDS)("FAQ store on %s", (backend) => {
  const store = () => backends.store(backend);

  it("is served by the adapter its configuration names", () => {
    expect(store().backend).toBe(backend);
  });

  it("says which words the tenant's live FAQs already use: any case, as words, this tenant only, not deleted ones", async () => {
    const tenant = await newTenant(backends);
    await store().create(tenant, "key_a", {
      question: "How do I connect Alexa to the hub with adapter SKU-448812?",
      answer: "Pair it in the app.",
      tags: [],
      metadata: {},
    });
    const gone = await store().create(tenant, "key_a", { question: "Does it work with Okta?", answer: "Yes.", tags: [], metadata: {} });
    await store().softDelete(tenant, gone.id, "key_a");
    expect(await store().wordsInUse(tenant, ["Alexa", "alexa", "Darnell", "Okta", 'pa"ir', "hub", "SKU-448812", "SKU-448813"])).toEqual(
      new Set(["Alexa", "alexa", "hub", "SKU-448812"]),
    );
    expect(await store().wordsInUse(await newTenant(backends), ["Alexa"])).toEqual(new Set());
    expect(await store().wordsInUse(tenant, [])).toEqual(new Set());
  });

  describe("FAQs, variants and versions", () => {
    it("creates an FAQ that reads back field for field, indexed, and lists it newest first", async () => {
      const tenant = await newTenant(backends);
      const first = await store().create(tenant, "key_a", {
        question: "How do I export a report?",
        answer: "Use Export.",
        tags: ["reports"],
        metadata: { owner: "ops" },
      });
      const second = await store().create(tenant, "key_a", {
        question: "Where are my invoices?",
        answer: "Billing.",
        tags: [],
        metadata: {},
      });
      expect(first.index_state).toBe("indexed");
      expect(await store().get(tenant, first.id)).toEqual({ ...first, seq: expect.any(Number) });
      const page = await store().list(tenant, { limit: 1 });
      expect(page).toMatchObject({ more: true, rows: [{ id: second.id }] });
      const next = await store().list(tenant, { limit: 1, beforeSeq: page.rows[0]!.seq });
      expect(next).toMatchObject({ more: false, rows: [{ id: first.id }] });
      expect((await store().list(tenant, { limit: 10, tag: "reports" })).rows.map((r) => r.id)).toEqual([first.id]);
      expect((await store().list(tenant, { limit: 10, q: "exporting reports" })).rows.map((r) => r.id)).toEqual([first.id]);
      expect((await store().list(tenant, { limit: 10, q: "the of" })).rows).toEqual([]);
    });

    it("keeps every tenant's FAQs to itself", async () => {
      const [a, b] = [await newTenant(backends), await newTenant(backends)];
      const faq = await store().create(a, "key_a", {
        question: "How do I reset my password?",
        answer: "Settings.",
        tags: [],
        metadata: {},
      });
      expect(await store().get(b, faq.id)).toBeNull();
      expect((await store().search(b, { query: "reset password", limit: 10 })).results).toEqual([]);
      expect(await store().update(b, faq.id, "key_b", { answer: "x" })).toEqual({ ok: false, error: "not_found" });
      expect(await store().softDelete(b, faq.id, "key_b")).toBe(false);
      expect(await store().addVariant(b, faq.id, "key_b", { variantText: "forgot password", source: "manual" })).toEqual({
        ok: false,
        error: "not_found",
      });
    });

    it("writes the replaced content as a version on each change and rolls back to it", async () => {
      const tenant = await newTenant(backends);
      const faq = await store().create(tenant, "key_a", { question: "How do I pay?", answer: "By card.", tags: ["billing"], metadata: {} });
      const changed = await store().update(
        tenant,
        faq.id,
        "key_b",
        { answer: "By card or invoice.", tags: ["billing", "payments"] },
        { changeType: "update", reason: "invoices" },
      );
      expect(changed).toMatchObject({
        ok: true,
        value: { contentChanged: true, questionChanged: false, row: { version: 2, answer: "By card or invoice.", updated_by: "key_b" } },
      });
      const metadataOnly = await store().update(tenant, faq.id, "key_b", { metadata: { reviewed: true } });
      expect(metadataOnly).toMatchObject({
        ok: true,
        value: { contentChanged: false, row: { version: 2, metadata: '{"reviewed":true}' } },
      });
      const versions = await store().listVersions(tenant, faq.id, { limit: 100 });
      expect(versions).toEqual([
        {
          versionNumber: 1,
          question: "How do I pay?",
          answer: "By card.",
          tags: ["billing"],
          changeType: "update",
          changeReason: "invoices",
          changedBy: "key_b",
          changedAt: expect.any(String),
        },
      ]);
      const rolled = await store().rollback(tenant, faq.id, 1, "key_c");
      expect(rolled).toMatchObject({ ok: true, value: { version: 3, answer: "By card.", tags: '["billing"]' } });
      expect((await store().listVersions(tenant, faq.id, { limit: 100 })).map((v) => [v.versionNumber, v.changeType])).toEqual([
        [2, "rollback"],
        [1, "update"],
      ]);
      expect(await store().rollback(tenant, faq.id, 9, "key_c")).toEqual({ ok: false, error: "version_not_found" });
      // Daily retention: versions are kept 90 days.
      expect(await store().pruneVersions(Date.now())).toEqual({ deleted: 0 });
      expect((await store().pruneVersions(Date.now() + 91 * 24 * 3600 * 1000)).deleted).toBeGreaterThanOrEqual(2);
      expect(await store().listVersions(tenant, faq.id, { limit: 100 })).toEqual([]);
    });

    it("re-embeds a changed question, and a soft-deleted FAQ leaves reads, lists and search", async () => {
      const tenant = await newTenant(backends);
      const faq = await store().create(tenant, "key_a", { question: "How do I pay?", answer: "By card.", tags: [], metadata: {} });
      const renamed = await store().update(tenant, faq.id, "key_a", { question: "Which payment methods do you accept?" });
      expect(renamed).toMatchObject({ ok: true, value: { questionChanged: true, row: { index_state: "indexed" } } });
      const found = await search(store(), tenant, { query: "accepted payment methods", weights: { bm25: 0, vector: 1 } });
      expect(found[0]?.id).toBe(faq.id);
      expect(await store().softDelete(tenant, faq.id, "key_a")).toBe(true);
      expect(await store().softDelete(tenant, faq.id, "key_a")).toBe(false);
      expect(await store().get(tenant, faq.id)).toBeNull();
      expect((await store().list(tenant, { limit: 10 })).rows).toEqual([]);
      expect(await search(store(), tenant, { query: "accepted payment methods" })).toEqual([]);
    });

    it("adds variants, refuses duplicates of the question or another variant, lists and deletes them", async () => {
      const tenant = await newTenant(backends);
      const faq = await store().create(tenant, "key_a", {
        question: "How do I reset my password?",
        answer: "Settings.",
        tags: [],
        metadata: {},
      });
      const added = await store().addVariant(tenant, faq.id, "key_a", {
        variantText: "Forgot my login",
        source: "pipeline",
        sourceTicketId: "tk_1",
      });
      expect(added).toMatchObject({
        ok: true,
        value: { faq_id: faq.id, variant_text: "Forgot my login", source: "pipeline", source_ticket_id: "tk_1", index_state: "indexed" },
      });
      expect(await store().addVariant(tenant, faq.id, "key_a", { variantText: "forgot  my LOGIN!", source: "manual" })).toEqual({
        ok: false,
        error: "duplicate",
      });
      expect(await store().addVariant(tenant, faq.id, "key_a", { variantText: "how do I reset my password", source: "manual" })).toEqual({
        ok: false,
        error: "duplicate",
      });
      const listed = await store().listVariants(tenant, faq.id);
      expect(listed.map((v) => v.variant_text)).toEqual(["Forgot my login"]);
      if (!added.ok) throw new Error("unreachable");
      expect(await store().deleteVariant(tenant, added.value.id)).toBe(true);
      expect(await store().deleteVariant(tenant, added.value.id)).toBe(false);
      expect(await store().listVariants(tenant, faq.id)).toEqual([]);
    });

    it("commits rows 'pending' while the embedder is down, and the cron's re-index gives them their vectors", async () => {
      const tenant = await newTenant(backends);
      const services = backends.services(backend);
      const down = Object.assign(Object.create(services.embedder) as typeof services.embedder, {
        embed: () => Promise.reject(new Error("embedder down")),
      });
      const offline = faqStore({ ...services, embedder: down });
      const faq = await offline.create(tenant, "key_a", {
        question: "Which payment methods do you accept?",
        answer: "Cards.",
        tags: [],
        metadata: {},
      });
      expect(faq.index_state).toBe("pending");
      const variant = await offline.addVariant(tenant, faq.id, "key_a", { variantText: "can I pay with a credit card", source: "manual" });
      expect(variant).toMatchObject({ ok: true, value: { index_state: "pending" } });
      const vectorOnly = { query: "accepted payment methods", weights: { bm25: 0, vector: 1 } };
      expect(await search(store(), tenant, vectorOnly)).toEqual([]);
      // Still down: the attempt is counted and the rows stay pending.
      expect(await offline.reindexPending()).toMatchObject({ indexed: 0 });
      expect((await store().get(tenant, faq.id))?.index_state).toBe("pending");
      const reindexed = await store().reindexPending();
      expect(reindexed.indexed).toBeGreaterThanOrEqual(2);
      // It names the FAQs it indexed, for the cron to give them their automatic related links.
      expect(reindexed.faqs).toContainEqual({ tenantId: tenant, id: faq.id, question: faq.question });
      expect((await store().get(tenant, faq.id))?.index_state).toBe("indexed");
      expect((await store().listVariants(tenant, faq.id))[0]?.index_state).toBe("indexed");
      expect((await search(store(), tenant, vectorOnly))[0]?.id).toBe(faq.id);
    });

    it("imports FAQs with their variants, dropping duplicate variants, all searchable", async () => {
      const tenant = await newTenant(backends);
      const report = await store().import(tenant, "key_a", [
        {
          line: 1,
          question: "How do I export a report?",
          answer: "Use Export.",
          tags: ["reports"],
          metadata: {},
          variants: ["download a report", "Download a report!", "How do I export a report"],
        },
        { line: 2, question: "如何下载发票？", answer: "在账单页面。", tags: [], metadata: {}, variants: [] },
      ]);
      expect(report).toMatchObject({ duplicateVariants: 2, indexed: 2, pendingIndex: 0 });
      expect(report.imported.map((i) => [i.line, i.variants])).toEqual([
        [1, 1],
        [2, 0],
      ]);
      const found = await search(store(), tenant, { query: "download report" });
      expect(found[0]).toMatchObject({ id: report.imported[0]!.id, matchedVariant: { variantText: "download a report" } });
      expect((await search(store(), tenant, { query: "下载发票" }))[0]?.id).toBe(report.imported[1]!.id);
    });
  });

  describe("search relevance (as test/integration/faqs.search.test.ts)", () => {
    it("returns the variant's FAQ first when only a variant shares the query's words", async () => {
      const tenant = await newTenant(backends);
      const ids = await seed(store(), tenant);
      const variant = await store().addVariant(tenant, ids[0]!, "key_a", {
        variantText: VARIANT_ONLY.variantText,
        source: "manual",
      });
      if (!variant.ok) throw new Error(variant.error);
      const results = await search(store(), tenant, { query: VARIANT_ONLY.query });
      expect(results[0]!.id).toBe(ids[0]);
      expect(results[0]!.matchType).toEqual(expect.arrayContaining(["variant_bm25", "variant_vector"]));
      expect(results[0]!.matchType).not.toContain("canonical_bm25");
      expect(results[0]!.matchedVariant).toEqual({ id: variant.value.id, variantText: VARIANT_ONLY.variantText });
      for (const other of results.slice(1)) expect(other.matchType).toEqual(["canonical_vector"]);
    });

    it("finds the FAQ of an exact code first, where vector-only search does not", async () => {
      const tenant = await newTenant(backends);
      const ids = await seed(store(), tenant);
      for (const [query, index] of CODE_QUERIES) {
        const expected = ids[index];
        const hybrid = await search(store(), tenant, { query });
        expect(hybrid[0]!.id).toBe(expected);
        expect(hybrid[0]!.matchType).toContain("canonical_bm25");
        const vectorOnly = await search(store(), tenant, { query, weights: { bm25: 0, vector: 1 } });
        expect(vectorOnly[0]?.id).not.toBe(expected);
      }
      const meaning = await search(store(), tenant, { query: MEANING_QUERY, weights: { bm25: 0, vector: 1 } });
      expect(meaning[0]).toMatchObject({ id: ids[0], matchType: ["canonical_vector"] });
    });

    it("ranks a question-column match above an answer-column match", async () => {
      const tenant = await newTenant(backends);
      const inAnswer = await store().create(tenant, "key_a", { ...COLUMN_WEIGHT.inAnswer, tags: [], metadata: {} });
      const inQuestion = await store().create(tenant, "key_a", { ...COLUMN_WEIGHT.inQuestion, tags: [], metadata: {} });
      const results = await search(store(), tenant, { query: COLUMN_WEIGHT.query, weights: { bm25: 1, vector: 0 } });
      expect(results.map((r) => r.id)).toEqual([inQuestion.id, inAnswer.id]);
    });

    it("keeps only FAQs carrying every requested tag", async () => {
      const tenant = await newTenant(backends);
      const ids = await seed(store(), tenant);
      const results = await search(store(), tenant, { query: "purchase order", tags: ["purchasing"] });
      expect(new Set(results.map((r) => r.id))).toEqual(new Set([ids[1], ids[2], ids[3]]));
    });

    it("treats full-text operator characters as plain text", async () => {
      const tenant = await newTenant(backends);
      await seed(store(), tenant);
      for (const query of OPERATOR_QUERIES) await search(store(), tenant, { query });
      const results = await search(store(), tenant, { query: 'reset* "password' });
      expect(results[0]!.matchType).toContain("canonical_bm25");
    });

    it("searches Chinese FAQs lexically (the English-only model cannot embed them)", async () => {
      const tenant = await newTenant(backends);
      const zh = await store().create(tenant, "key_a", { ...CHINESE.faqs[0]!, tags: [], metadata: {} });
      expect(zh.index_state).toBe("lexical_only");
      await store().create(tenant, "key_a", { ...CHINESE.faqs[1]!, tags: [], metadata: {} });
      const results = await search(store(), tenant, { query: CHINESE.query });
      expect(results.map((r) => r.id)).toEqual([zh.id]);
      expect(results[0]!.matchType).toEqual(["canonical_bm25"]);
    });

    it("leaves deleted FAQs and deleted variants out", async () => {
      const tenant = await newTenant(backends);
      const ids = await seed(store(), tenant);
      const variant = await store().addVariant(tenant, ids[6]!, "key_a", { variantText: "where are my receipts", source: "manual" });
      if (!variant.ok) throw new Error(variant.error);
      await store().softDelete(tenant, ids[0]!, "key_a");
      await store().deleteVariant(tenant, variant.value.id);
      const results = await search(store(), tenant, { query: "reset password receipts" });
      expect(results.map((r) => r.id)).not.toContain(ids[0]);
      expect(results.some((r) => r.matchType.includes("variant_bm25") || r.matchType.includes("variant_vector"))).toBe(false);
    });
  });
});
