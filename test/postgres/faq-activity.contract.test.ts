/**
 * The FAQ store port's activity contract (hits, relationships, suggestions): the same cases
 * against both adapters, as test/integration/faqs.happy.test.ts and faqs.suggestions.test.ts
 * exercise them through the Worker on D1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaqStore } from "../../src/features/faqs/port";
import type { FaqSearchHit } from "../../src/features/faqs/types";
import { BACKENDS, type Backends, newTenant, startBackends } from "./support/backends";

let backends: Backends;
beforeAll(async () => {
  backends = await startBackends();
});
afterAll(() => backends?.close());

const DAY = 24 * 3600 * 1000;
const T0 = Date.UTC(2026, 0, 10, 12);

const faq = (store: FaqStore, tenant: string, question: string) =>
  store.create(tenant, "key_a", { question, answer: "See the help centre.", tags: [], metadata: {} });

describe.each(BACKENDS)("FAQ activity on %s", (backend) => {
  const store = () => backends.store(backend);

  describe("hits", () => {
    it("aggregates the hits of each FAQ: totals, sessions, days, last hit, mean similarity, per-day counts", async () => {
      const tenant = await newTenant(backends);
      const invoice = await faq(store(), tenant, "Where is my invoice?");
      const colleague = await faq(store(), tenant, "How do I add a colleague?");
      const hit = (similarity: number | null): FaqSearchHit => ({
        faq: invoice,
        score: 1,
        matchType: ["canonical_vector"],
        matchedVariant: null,
        similarity,
      });
      // The stores stamp hits with the services' clock: record through a store whose clock is set.
      const at = (now: number) => backends.storeAt(backend, now);
      await at(T0).recordHits(tenant, "s-1", "invoice", [hit(0.8)]);
      await at(T0 + 1000).recordHits(tenant, "s-1", "invoice pdf", [hit(0.7)]);
      await at(T0 + DAY).recordHits(tenant, "s-2", "where's the invoice", [hit(null)]);
      await store().recordHits(tenant, "s-3", "nothing", []);

      expect(await store().stats(tenant, invoice.id)).toEqual({
        totalHits: 3,
        uniqueSessions: 2,
        daysWithHits: 2,
        lastHitAt: new Date(T0 + DAY).toISOString(),
        avgScore: 0.5,
      });
      expect(await store().stats(tenant, colleague.id)).toEqual({
        totalHits: 0,
        uniqueSessions: 0,
        daysWithHits: 0,
        lastHitAt: null,
        avgScore: null,
      });
      expect((await store().allStats(tenant, 10)).map((s) => [s.id, s.question, s.totalHits])).toEqual([
        [invoice.id, "Where is my invoice?", 3],
        [colleague.id, "How do I add a colleague?", 0],
      ]);
      expect(await store().allStats(tenant, 1)).toHaveLength(1);
      expect(await store().hitsPerDay(tenant, invoice.id, 3, T0 + DAY)).toEqual([
        { day: "2026-01-09", hits: 0 },
        { day: "2026-01-10", hits: 2 },
        { day: "2026-01-11", hits: 1 },
      ]);
      // A search returns up to 50 FAQs: more hits than one D1 insert binds.
      const many = await newTenant(backends);
      const bulk = await faq(store(), many, "How do I export a report?");
      await store().recordHits(
        many,
        "s-9",
        "export",
        Array.from({ length: 50 }, () => ({ ...hit(0.9), faq: bulk })),
      );
      expect(await store().stats(many, bulk.id)).toMatchObject({ totalHits: 50, uniqueSessions: 1, avgScore: 0.9 });
      const other = await newTenant(backends);
      expect((await store().stats(other, invoice.id)).totalHits).toBe(0);
      expect(await store().allStats(other, 10)).toEqual([]);
    });
  });

  describe("usage", () => {
    it("counts live FAQs' hits per day, the trend of this week against the previous, and the never-used oldest first", async () => {
      const tenant = await newTenant(backends);
      const rising = await faq(store(), tenant, "How do I export my data?");
      const falling = await faq(store(), tenant, "How do I change my plan?");
      const unused = await faq(store(), tenant, "Do you have a mobile app?");
      const gone = await faq(store(), tenant, "Is there a student discount?");
      const hit = (row: typeof rising): FaqSearchHit => ({
        faq: row,
        score: 1,
        matchType: ["canonical_bm25"],
        matchedVariant: null,
        similarity: 0.8,
      });
      const now = T0 + 20 * DAY;
      await backends.storeAt(backend, now - 3600_000).recordHits(tenant, "s-1", "export", [hit(rising), hit(gone)]);
      await backends.storeAt(backend, now - 1000).recordHits(tenant, "s-2", "export data", [hit(rising)]);
      await backends.storeAt(backend, now - 9 * DAY).recordHits(tenant, "s-3", "plan", [hit(falling)]);
      expect(await store().softDelete(tenant, gone.id, "key_a")).toBe(true);

      const usage = await store().usage(tenant, now, 14, 10);
      expect(usage.daily).toHaveLength(14);
      expect(usage.daily.at(-1)).toEqual({ day: new Date(now).toISOString().slice(0, 10), hits: 2 });
      expect(usage).toMatchObject({ hits: 3, sessions: 3, liveFaqs: 3, neverUsedFaqs: 1 });
      expect(usage.trending).toEqual([
        { id: rising.id, question: rising.question, thisWeek: 2, previousWeek: 0 },
        { id: falling.id, question: falling.question, thisWeek: 0, previousWeek: 1 },
      ]);
      expect(usage.neverUsed).toEqual([{ id: unused.id, question: unused.question, createdAt: expect.any(String) }]);
      expect(await store().usage(await newTenant(backends), now, 7, 10)).toMatchObject({
        hits: 0,
        liveFaqs: 0,
        trending: [],
        neverUsed: [],
      });
    });
  });

  describe("relationships", () => {
    it("links the nearest FAQs automatically, lets a manual link replace the auto one, and reads both sides", async () => {
      const tenant = await newTenant(backends);
      const reset = await faq(store(), tenant, "How do I reset my password?");
      const unrelated = await faq(store(), tenant, "What are the opening hours of the Berlin office?");
      const change = await faq(store(), tenant, "How can I change my password?");
      expect(await store().refreshAutoRelated(tenant, change.id, change.question, "key_a")).toBe(1);
      const auto = await store().listRelated(tenant, change.id);
      expect(auto).toMatchObject([{ id: reset.id, question: reset.question, relationshipType: "related", isAutoGenerated: true }]);
      expect(auto[0]!.similarity).toBeGreaterThanOrEqual(0.6);
      expect(await store().listRelated(tenant, reset.id)).toMatchObject([{ id: change.id, isAutoGenerated: true }]);

      const manual = await store().createRelationship(tenant, reset.id, change.id, "parent", "key_b");
      expect(manual).toMatchObject({
        ok: true,
        value: { id: change.id, relationshipType: "parent", isAutoGenerated: false, similarity: null },
      });
      expect(await store().createRelationship(tenant, change.id, reset.id, "related", "key_b")).toEqual({ ok: false, error: "exists" });
      expect(await store().listRelated(tenant, change.id)).toMatchObject([
        { id: reset.id, relationshipType: "child", isAutoGenerated: false },
      ]);
      // A refresh never overwrites the manual link on its pair.
      await store().refreshAutoRelated(tenant, change.id, change.question, "key_a");
      expect(await store().listRelated(tenant, change.id)).toMatchObject([
        { id: reset.id, relationshipType: "child", isAutoGenerated: false },
      ]);

      const seeAlso = await store().createRelationship(tenant, unrelated.id, reset.id, "see_also", "key_b");
      if (!seeAlso.ok) throw new Error(seeAlso.error);
      // Manual links first, then auto links; `limit` cuts the list.
      expect((await store().listRelated(tenant, reset.id)).map((r) => r.id)).toEqual([change.id, unrelated.id]);
      expect(await store().listRelated(tenant, reset.id, 1)).toHaveLength(1);
      expect(await store().deleteRelationship(tenant, seeAlso.value.relationshipId)).toBe(true);
      expect(await store().deleteRelationship(tenant, seeAlso.value.relationshipId)).toBe(false);
      expect(await store().listRelated(tenant, unrelated.id)).toEqual([]);
    });

    it("refuses self links, unknown and deleted targets, other tenants' FAQs, and hides links to deleted FAQs", async () => {
      const tenant = await newTenant(backends);
      const a = await faq(store(), tenant, "How do I pay by card?");
      const b = await faq(store(), tenant, "Can I pay by invoice?");
      const gone = await faq(store(), tenant, "Is PayPal accepted?");
      await store().softDelete(tenant, gone.id, "key_a");
      expect(await store().createRelationship(tenant, a.id, a.id, "related", "k")).toEqual({ ok: false, error: "self" });
      expect(await store().createRelationship(tenant, "faq_nope", a.id, "related", "k")).toEqual({ ok: false, error: "not_found" });
      expect(await store().createRelationship(tenant, a.id, "faq_nope", "related", "k")).toEqual({ ok: false, error: "target_not_found" });
      expect(await store().createRelationship(tenant, a.id, gone.id, "related", "k")).toEqual({ ok: false, error: "target_deleted" });
      const other = await newTenant(backends);
      expect(await store().createRelationship(other, a.id, b.id, "related", "k")).toEqual({ ok: false, error: "not_found" });

      const link = await store().createRelationship(tenant, a.id, b.id, "see_also", "k");
      if (!link.ok) throw new Error(link.error);
      expect(await store().deleteRelationship(other, link.value.relationshipId)).toBe(false);
      expect(await store().listRelated(other, a.id)).toEqual([]);
      await store().softDelete(tenant, b.id, "key_a");
      expect(await store().listRelated(tenant, a.id)).toEqual([]);
    });
  });

  describe("suggestions", () => {
    const ambiguous = (top: { id: string }, second: { id: string }): FaqSearchHit[] =>
      [
        [top, 0.81],
        [second, 0.79],
      ].map(([f, similarity]) => ({
        faq: f as FaqSearchHit["faq"],
        score: 1,
        matchType: ["canonical_vector"],
        matchedVariant: null,
        similarity: similarity as number,
      }));

    it("clusters ambiguous searches by content words, keeps distinct samples, and accepts or dismisses them", async () => {
      const tenant = await newTenant(backends);
      const reset = await faq(store(), tenant, "How do I reset my password?");
      const change = await faq(store(), tenant, "How do I change my password?");
      const results = ambiguous(reset, change);
      for (const query of ["password help please", "please password help!", "password help please"])
        expect(await store().recordSuggestion(tenant, query, results)).toBe(true);
      expect(await store().recordSuggestion(tenant, "password trouble", results)).toBe(true);
      // One clear answer is nothing to learn.
      expect(await store().recordSuggestion(tenant, "reset", [results[0]!])).toBe(false);

      const listed = await store().listSuggestions(tenant, 10);
      expect(listed).toMatchObject([
        {
          faqId: reset.id,
          faqQuestion: reset.question,
          alternateFaqId: change.id,
          queryText: "password help please",
          samples: ["password help please", "please password help!"],
          count: 3,
        },
        { queryText: "password trouble", samples: ["password trouble"], count: 1 },
      ]);
      const [help, trouble] = listed as [(typeof listed)[number], (typeof listed)[number]];
      expect(await store().listSuggestions(tenant, 1)).toHaveLength(1);

      const other = await newTenant(backends);
      expect(await store().listSuggestions(other, 10)).toEqual([]);
      expect(await store().resolveSuggestion(other, help.id, "dismiss", "k")).toEqual({ ok: false, error: "not_found" });
      expect(await store().resolveSuggestion(tenant, help.id, "accept", "k", { faqId: "faq_other" })).toEqual({
        ok: false,
        error: "not_found",
      });

      const accepted = await store().resolveSuggestion(tenant, help.id, "accept", "k", { faqId: change.id });
      expect(accepted).toMatchObject({ ok: true, value: { variant: { ok: true, value: { faq_id: change.id, source: "suggestion" } } } });
      expect((await store().listVariants(tenant, change.id)).map((v) => v.variant_text)).toEqual(["password help please"]);
      expect(await store().resolveSuggestion(tenant, help.id, "accept", "k")).toEqual({ ok: false, error: "not_found" });
      expect(await store().resolveSuggestion(tenant, trouble.id, "dismiss", "k")).toEqual({ ok: true, value: { variant: null } });
      expect(await store().listSuggestions(tenant, 10)).toEqual([]);
    });

    it("leaves a suggestion open when its phrasing is already a variant, and hides those of deleted FAQs", async () => {
      const tenant = await newTenant(backends);
      const reset = await faq(store(), tenant, "How do I reset my password?");
      const change = await faq(store(), tenant, "How do I change my password?");
      await store().recordSuggestion(tenant, "password help please", ambiguous(reset, change));
      await store().addVariant(tenant, reset.id, "k", { variantText: "Password help, please", source: "manual" });
      const [open] = await store().listSuggestions(tenant, 10);
      expect(await store().resolveSuggestion(tenant, open!.id, "accept", "k")).toEqual({
        ok: true,
        value: { variant: { ok: false, error: "duplicate" } },
      });
      expect(await store().listSuggestions(tenant, 10)).toHaveLength(1);
      await store().softDelete(tenant, reset.id, "k");
      expect(await store().listSuggestions(tenant, 10)).toEqual([]);
    });
  });

  describe("what the ticket pipeline reads", () => {
    it("gets live FAQs by id, their variants and stored cosines, the nearest FAQs, and variant counts", async () => {
      const tenant = await newTenant(backends);
      const reset = await faq(store(), tenant, "How do I reset my password?");
      const office = await faq(store(), tenant, "Where is the Berlin office?");
      const gone = await faq(store(), tenant, "Is the old portal still up?");
      await store().softDelete(tenant, gone.id, "k");
      const added = await store().addVariant(tenant, reset.id, "k", { variantText: "forgot my password", source: "pipeline" });
      if (!added.ok) throw new Error(added.error);
      await store().addVariant(tenant, reset.id, "k", { variantText: "locked out of my account", source: "manual" });

      expect([...(await store().getMany(tenant, [reset.id, office.id, gone.id, "faq_nope"])).keys()].sort()).toEqual(
        [reset.id, office.id].sort(),
      );
      expect((await store().variantsOf(tenant, [reset.id, office.id])).map((v) => v.variant_text)).toEqual([
        "forgot my password",
        "locked out of my account",
      ]);
      const services = backends.services(backend);
      const [vector] = await services.embedder.embed(["I forgot my password"]);
      const query = { vector: vector!, model: services.embedder.model };
      const cosines = await store().storedCosines(tenant, query, { faqIds: [reset.id, office.id], variantIds: [added.value.id] });
      expect(cosines.faqs.get(reset.id)!).toBeGreaterThan(cosines.faqs.get(office.id)!);
      expect(cosines.variants.get(added.value.id)!).toBeGreaterThan(cosines.faqs.get(reset.id)!);
      const nearest = await store().nearest(tenant, query, 5);
      expect(nearest.map((n) => n.id)).toEqual([reset.id, office.id]);
      expect(nearest[0]!.score).toBeCloseTo(cosines.faqs.get(reset.id)!, 4);

      expect(await store().variantCounts(tenant)).toEqual({ faqs: 2, variants: 2, pipelineVariants: 1, faqsWithVariants: 1, maxPerFaq: 2 });
      expect(await store().variantCounts(await newTenant(backends))).toEqual({
        faqs: 0,
        variants: 0,
        pipelineVariants: 0,
        faqsWithVariants: 0,
        maxPerFaq: 0,
      });
    });
  });

  describe("export", () => {
    it("writes each FAQ's outgoing links on its line, and an import restores the links between the FAQs it wrote", async () => {
      const tenant = await newTenant(backends);
      const a = await faq(store(), tenant, "How do I pay by card?");
      const b = await faq(store(), tenant, "Can I pay by invoice?");
      const link = await store().createRelationship(tenant, a.id, b.id, "parent", "key_b");
      if (!link.ok) throw new Error(link.error);
      const lines = await store().export(tenant);
      expect(lines.map((l) => [l.id, l.related.map((r) => [r.id, r.targetFaqId, r.relationshipType, r.isAutoGenerated])])).toEqual([
        [a.id, [[link.value.relationshipId, b.id, "parent", false]]],
        [b.id, []],
      ]);
      // An import restores the links between the FAQs it wrote, and drops those to FAQs outside it.
      const links = lines.flatMap((l) => l.related.map((r) => ({ ...r, sourceFaqId: l.id, createdAt: Date.parse(r.createdAt) })));
      await store().deleteRelationship(tenant, link.value.relationshipId);
      expect(await store().restoreRelationships(tenant, new Set([a.id]), links)).toBe(0);
      expect(await store().restoreRelationships(tenant, new Set([a.id, b.id]), links)).toBe(1);
      expect(await store().restoreRelationships(tenant, new Set([a.id, b.id]), links)).toBe(0);
      expect(await store().listRelated(tenant, b.id)).toMatchObject([
        { relationshipId: link.value.relationshipId, id: a.id, relationshipType: "child", isAutoGenerated: false },
      ]);
    });
  });
});
