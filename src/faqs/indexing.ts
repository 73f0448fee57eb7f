/**
 * Moves FAQs (their canonical question) and variants through the vector outbox
 * (src/indexing/outbox.ts): rows are committed 'pending', indexed after; the every-5-minutes
 * cron retries what failed. Text the model cannot embed is 'lexical_only' from the start.
 */
import type { IndexState } from "../db/schema";
import { indexRows, REINDEX_BATCH_SIZE, recordIndexOutcomes } from "../indexing/outbox";
import type { Services } from "../services";

export const FAQ_COLLECTION = "faqs";
export const FAQ_VARIANT_COLLECTION = "faq_variants";

interface IndexableFaq {
  id: string;
  tenant_id: string;
  question: string;
}

interface IndexableVariant {
  id: string;
  tenant_id: string;
  faq_id: string;
  variant_text: string;
}

/** Embeds and upserts the FAQs' canonical questions. */
export async function indexFaqs(services: Services, rows: readonly IndexableFaq[]): Promise<IndexState[]> {
  const outcomes = await indexRows(
    services,
    FAQ_COLLECTION,
    rows.map((r) => ({ id: r.id, tenantId: r.tenant_id, text: r.question, metadata: {} })),
  );
  return recordIndexOutcomes(
    services.db,
    "faqs",
    rows.map((r) => r.id),
    outcomes,
  );
}

/** Embeds and upserts variants; metadata carries the FAQ id. */
export async function indexVariants(services: Services, rows: readonly IndexableVariant[]): Promise<IndexState[]> {
  const outcomes = await indexRows(
    services,
    FAQ_VARIANT_COLLECTION,
    rows.map((r) => ({ id: r.id, tenantId: r.tenant_id, text: r.variant_text, metadata: { faqId: r.faq_id } })),
  );
  return recordIndexOutcomes(
    services.db,
    "faq_variants",
    rows.map((r) => r.id),
    outcomes,
  );
}

/** One cron step: index the oldest pending FAQs and variants of every tenant (one embedding batch each). */
export async function reindexPendingFaqs(services: Services, batchSize = REINDEX_BATCH_SIZE) {
  const { db } = services;
  const { results: faqs } = await db
    .prepare("SELECT id, tenant_id, question FROM faqs WHERE index_state = 'pending' AND deleted_at IS NULL ORDER BY seq LIMIT ?")
    .bind(batchSize)
    .all<IndexableFaq>();
  const { results: variants } = await db
    .prepare(
      `SELECT v.id, v.tenant_id, v.faq_id, v.variant_text FROM faq_variants v JOIN faqs f ON f.id = v.faq_id
       WHERE v.index_state = 'pending' AND f.deleted_at IS NULL ORDER BY v.seq LIMIT ?`,
    )
    .bind(batchSize)
    .all<IndexableVariant>();
  const faqStates = await indexFaqs(services, faqs);
  const variantStates = await indexVariants(services, variants);
  return {
    attempted: faqs.length + variants.length,
    indexed: [...faqStates, ...variantStates].filter((s) => s === "indexed").length,
  };
}
