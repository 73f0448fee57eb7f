/**
 * After a change of embedding model, on Postgres: FAQs and variants whose vector another model
 * made go back to 'pending' (attempts reset) with their vector and model cleared, in one
 * statement per table; the cron's re-index step (reindex.ts) then embeds them with the active
 * model. Search and nearest-neighbour reads only use vectors of the active model, so a row
 * waiting here is found lexically meanwhile. Running it again marks nothing more.
 */
import { and, eq, isNotNull, ne } from "drizzle-orm";
import type { PgDatabase } from "../../../platform/db/pg/client";
import { pgFaqs, pgFaqVariants } from "../../../platform/db/pg/schema";
import type { ReembedMarked } from "../port";

export async function markFaqsForReembedPostgres(db: PgDatabase, tenantId: string, model: string): Promise<ReembedMarked> {
  const mark = (table: typeof pgFaqs | typeof pgFaqVariants) =>
    db
      .update(table)
      .set({ indexState: "pending", indexAttempts: 0, indexError: null, embedding: null, embeddingModel: null })
      .where(and(eq(table.tenantId, tenantId), isNotNull(table.embeddingModel), ne(table.embeddingModel, model)))
      .returning({ id: table.id });
  return { faqs: (await mark(pgFaqs)).length, faq_variants: (await mark(pgFaqVariants)).length };
}
