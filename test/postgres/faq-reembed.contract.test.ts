/**
 * Re-embedding after an embedding-model change (POST /v1/admin/reembed → FaqStore.markForReembed)
 * on both adapters: the FAQs and variants whose vector the old model made go back to 'pending'
 * and leave vector search, the cron's re-index embeds them with the new model, other tenants
 * and text the model cannot embed are left alone, and a second run marks nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faqStore } from "../../src/features/faqs/select";
import { exactD1Index } from "../../src/adapters/vectors/exact-d1";
import { BACKENDS, type Backends, newTenant, startBackends } from "./support/backends";

let backends: Backends;
beforeAll(async () => {
  backends = await startBackends();
});
afterAll(() => backends?.close());

const NEXT_MODEL = "use-lite-512-next";

describe.each(BACKENDS)("FAQ re-embed on %s", (backend) => {
  const store = () => backends.store(backend);
  const newFaq = (tenant: string, question: string) =>
    store().create(tenant, "key_a", { question, answer: "See the docs.", tags: [], metadata: {} });

  it("puts FAQs and variants of the old model back in the outbox, and the cron's re-index embeds them with the new one", async () => {
    const [tenant, other] = [await newTenant(backends), await newTenant(backends)];
    const faq = await newFaq(tenant, "How do I reset my password?");
    const variant = await store().addVariant(tenant, faq.id, "key_a", { variantText: "forgot my password", source: "manual" });
    if (!variant.ok) throw new Error(variant.error);
    const chinese = await newFaq(tenant, "如何下载发票？");
    const theirs = await newFaq(other, "How do I reset my password?");
    expect([faq.index_state, variant.value.index_state, chinese.index_state]).toEqual(["indexed", "indexed", "lexical_only"]);

    // The deployment now embeds with another model (same vectors, another name: what matters is the name on each
    // row), and its vector index is configured for that model, as createServices builds it from EMBEDDING_MODEL.
    const services = backends.services(backend);
    const next = Object.assign(Object.create(services.embedder) as typeof services.embedder, { model: NEXT_MODEL });
    const after = faqStore({ ...services, embedder: next, vectors: exactD1Index(services.db, NEXT_MODEL, next.dimensions) });
    const [vector] = await next.embed(["I forgot my password"]);
    const query = { vector: vector!, model: NEXT_MODEL };

    expect(await after.markForReembed(tenant, NEXT_MODEL)).toEqual({ faqs: 1, faq_variants: 1 });
    expect((await after.get(tenant, faq.id))?.index_state).toBe("pending");
    expect((await after.listVariants(tenant, faq.id)).map((v) => v.index_state)).toEqual(["pending"]);
    expect((await after.get(tenant, chinese.id))?.index_state).toBe("lexical_only");
    expect((await after.get(other, theirs.id))?.index_state).toBe("indexed");
    // No vector of the new model yet: the FAQ is out of vector search until the cron runs, still found by its words.
    expect(await after.nearest(tenant, query, 5)).toEqual([]);
    const lexical = await after.search(tenant, { query: "reset password", limit: 5 });
    expect(lexical.results.map((r) => r.faq.id)).toEqual([faq.id]);

    expect((await after.reindexPending()).indexed).toBeGreaterThanOrEqual(2);
    expect((await after.get(tenant, faq.id))?.index_state).toBe("indexed");
    expect((await after.listVariants(tenant, faq.id)).map((v) => v.index_state)).toEqual(["indexed"]);
    expect((await after.nearest(tenant, query, 5)).map((n) => n.id)).toEqual([faq.id]);
    const cosines = await after.storedCosines(tenant, query, { faqIds: [faq.id], variantIds: [variant.value.id] });
    expect(cosines.variants.get(variant.value.id)).toBeGreaterThan(0.5);

    // Nothing is left on the old model; the other tenant's rows wait for its own re-embed.
    expect(await after.markForReembed(tenant, NEXT_MODEL)).toEqual({ faqs: 0, faq_variants: 0 });
    expect(await after.markForReembed(other, NEXT_MODEL)).toEqual({ faqs: 1, faq_variants: 0 });
  });
});
