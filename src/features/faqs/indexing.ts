/**
 * Moves FAQs (their canonical question) and variants through the vector outbox
 * (src/features/indexing/outbox.ts): rows are committed 'pending', indexed after; the every-5-minutes
 * cron retries what failed. Text the model cannot embed is 'lexical_only' from the start.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { faqs as faqsTable, faqVariants, type IndexState } from "../../platform/db/schema";
import { indexRows, REINDEX_BATCH_SIZE, recordIndexOutcomes } from "../indexing/outbox";
import type { Services } from "../../platform/ports/services";
import type { ReindexReport } from "./port";

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
export async function reindexPendingFaqs(services: Services, batchSize = REINDEX_BATCH_SIZE): Promise<ReindexReport> {
  const orm = drizzle(services.db);
  const faqs = await orm
    .select({ id: faqsTable.id, tenant_id: faqsTable.tenantId, question: faqsTable.question })
    .from(faqsTable)
    .where(and(eq(faqsTable.indexState, "pending"), isNull(faqsTable.deletedAt)))
    .orderBy(asc(faqsTable.seq))
    .limit(batchSize);
  const variants = await orm
    .select({ id: faqVariants.id, tenant_id: faqVariants.tenantId, faq_id: faqVariants.faqId, variant_text: faqVariants.variantText })
    .from(faqVariants)
    .innerJoin(faqsTable, eq(faqsTable.id, faqVariants.faqId))
    .where(and(eq(faqVariants.indexState, "pending"), isNull(faqsTable.deletedAt)))
    .orderBy(asc(faqVariants.seq))
    .limit(batchSize);
  const faqStates = await indexFaqs(services, faqs);
  const variantStates = await indexVariants(services, variants);
  return {
    attempted: faqs.length + variants.length,
    indexed: [...faqStates, ...variantStates].filter((s) => s === "indexed").length,
    faqs: faqs.filter((_, i) => faqStates[i] === "indexed").map((f) => ({ tenantId: f.tenant_id, id: f.id, question: f.question })),
  };
}
