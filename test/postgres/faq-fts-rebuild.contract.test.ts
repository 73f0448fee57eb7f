/**
 * The full-text rebuild after a segmentation change (POST /v1/admin/fts/rebuild →
 * FaqStore.rebuildFullText) on both adapters: D1 rewrites its FTS5 rows, Postgres the term
 * columns its generated tsvectors are made of. Rows written with the old segmentation are
 * simulated by overwriting their stored terms with what it produced.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgFaqs, pgFaqVariants } from "../../src/platform/db/pg/schema";
import { BACKENDS, type Backend, type Backends, newTenant, startBackends } from "./support/backends";

let backends: Backends;
beforeAll(async () => {
  backends = await startBackends();
});
afterAll(() => backends?.close());

/** What the old segmentation made of Latin inside Chinese: letter bigrams ("iphone" never matched). */
const LEGACY = "我 用 ip ph ho on ne e手 手 机";

async function writeLegacyTerms(backend: Backend, faqId: string, variantId: string): Promise<void> {
  const services = backends.services(backend);
  if (backend === "d1") {
    await services.db.batch([
      services.db.prepare("UPDATE faqs_fts SET question = ? WHERE rowid = (SELECT seq FROM faqs WHERE id = ?)").bind(LEGACY, faqId),
      services.db
        .prepare("UPDATE faq_variants_fts SET body = ? WHERE rowid = (SELECT seq FROM faq_variants WHERE id = ?)")
        .bind(LEGACY, variantId),
    ]);
    return;
  }
  const { db } = services.faqPostgres!.open();
  await db.update(pgFaqs).set({ questionTerms: LEGACY }).where(eq(pgFaqs.id, faqId));
  await db.update(pgFaqVariants).set({ bodyTerms: LEGACY }).where(eq(pgFaqVariants.id, variantId));
}

describe.each(BACKENDS)("FAQ full-text rebuild on %s", (backend) => {
  const store = () => backends.store(backend);
  const lexical = async (tenant: string, query: string) =>
    (await store().search(tenant, { query, limit: 10, weights: { bm25: 1, vector: 0 } })).results.map((r) => ({
      id: r.faq.id,
      variant: r.matchedVariant?.id ?? null,
    }));

  it("re-tokenizes FAQs and variants written with the old segmentation, once, for the tenant only", async () => {
    const [tenant, other] = [await newTenant(backends), await newTenant(backends)];
    const phone = await store().create(tenant, "key_a", { question: "我用iPhone手机", answer: "可以。", tags: [], metadata: {} });
    const login = await store().create(tenant, "key_a", { question: "How do I sign in?", answer: "Use SSO.", tags: [], metadata: {} });
    const variant = await store().addVariant(tenant, login.id, "key_a", { variantText: "我用iPhone手机登录", source: "manual" });
    if (!variant.ok) throw new Error(variant.error);
    const theirs = await store().create(other, "key_b", { question: "我用iPhone手机", answer: "可以。", tags: [], metadata: {} });
    const theirVariant = await store().addVariant(other, theirs.id, "key_b", { variantText: "iPhone手机", source: "manual" });
    if (!theirVariant.ok) throw new Error(theirVariant.error);
    await writeLegacyTerms(backend, phone.id, variant.value.id);
    await writeLegacyTerms(backend, theirs.id, theirVariant.value.id);
    expect(await lexical(tenant, "iphone")).toEqual([]);
    expect((await store().list(tenant, { limit: 10, q: "iphone" })).rows).toEqual([]);

    expect(await store().rebuildFullText(tenant, "faqs", 0, 500)).toEqual({
      collection: "faqs",
      processed: 2,
      rewritten: 1,
      nextCursor: null,
    });
    expect(await store().rebuildFullText(tenant, "faq_variants", 0, 500)).toEqual({
      collection: "faq_variants",
      processed: 1,
      rewritten: 1,
      nextCursor: null,
    });
    expect((await store().list(tenant, { limit: 10, q: "iphone" })).rows.map((r) => r.id)).toEqual([phone.id]);
    expect(await lexical(tenant, "iphone")).toEqual(
      expect.arrayContaining([
        { id: phone.id, variant: null },
        { id: login.id, variant: variant.value.id },
      ]),
    );
    // Nothing left to rewrite; the other tenant's rows are still as they were.
    expect(await store().rebuildFullText(tenant, "faqs", 0, 500)).toMatchObject({ processed: 2, rewritten: 0 });
    expect(await lexical(other, "iphone")).toEqual([]);
    // Pages: a full page names where the next one starts.
    const first = await store().rebuildFullText(other, "faqs", 0, 1);
    expect(first).toMatchObject({ processed: 1, rewritten: 1, nextCursor: expect.any(Number) });
    expect(await store().rebuildFullText(other, "faqs", first.nextCursor!, 1)).toMatchObject({ processed: 0, nextCursor: null });
  });
});
