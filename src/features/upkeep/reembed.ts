/**
 * Re-embedding after a change of embedding model (EMBEDDING_MODEL). Vectors of two models cannot
 * share an index, so every row whose vector was made by another model is put back in the outbox
 * (index_state 'pending', attempts reset) and its old vector is removed; the every-5-minutes cron
 * then embeds and indexes those rows with the active model, a batch per run. Memories live in
 * D1 (mark-reembed.ts); FAQs and variants are marked by the FAQ store, on whichever backend holds
 * them (D1: src/features/faqs/reembed.ts, Postgres: src/features/faqs/postgres/reembed.ts). Running it again picks
 * up whatever is still on the old model.
 */
import { memories } from "../../platform/db/schema";
import { faqStore } from "../faqs/select";
import { MEMORY_COLLECTION } from "../memories/indexing";
import type { Services } from "../../platform/ports/services";
import { markForReembedD1 } from "../indexing/mark-reembed";

export async function reembedTenant(
  services: Services,
  tenantId: string,
): Promise<{ model: string; marked: { memories: number; faqs: number; faq_variants: number } }> {
  const model = services.embedder.model;
  const marked = await markForReembedD1(services, tenantId, model, memories, MEMORY_COLLECTION);
  return { model, marked: { memories: marked, ...(await faqStore(services).markForReembed(tenantId, model)) } };
}
