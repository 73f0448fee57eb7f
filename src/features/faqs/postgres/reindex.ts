/**
 * The cron's re-index step on Postgres: rows committed 'pending' (the embedder failed when they
 * were written) get their vector now, as the D1 outbox does (src/features/faqs/indexing.ts): 'indexed'
 * with the model, or one more failed attempt ('failed' after MAX_INDEX_ATTEMPTS). Only rows still
 * 'pending' with the text that was embedded change, so an edit meanwhile is never overwritten.
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { PgDatabase } from "../../../platform/db/pg/client";
import { pgFaqs, pgFaqVariants } from "../../../platform/db/pg/schema";
import { MAX_INDEX_ATTEMPTS, REINDEX_BATCH_SIZE } from "../../indexing/outbox";
import type { Services } from "../../../platform/ports/services";
import type { ReindexReport } from "../port";
import { embedAll } from "./embed";

export async function reindexPendingPostgres(services: Services, db: PgDatabase, batchSize = REINDEX_BATCH_SIZE): Promise<ReindexReport> {
  const faqs = await db
    .select({ id: pgFaqs.id, tenantId: pgFaqs.tenantId, text: pgFaqs.question })
    .from(pgFaqs)
    .where(and(eq(pgFaqs.indexState, "pending"), isNull(pgFaqs.deletedAt)))
    .orderBy(asc(pgFaqs.seq))
    .limit(batchSize);
  const variants = await db
    .select({ id: pgFaqVariants.id, text: pgFaqVariants.variantText })
    .from(pgFaqVariants)
    .innerJoin(pgFaqs, eq(pgFaqs.id, pgFaqVariants.faqId))
    .where(and(eq(pgFaqVariants.indexState, "pending"), isNull(pgFaqs.deletedAt)))
    .orderBy(asc(pgFaqVariants.seq))
    .limit(batchSize);
  const attempted = faqs.length + variants.length;
  if (attempted === 0) return { attempted, indexed: 0, faqs: [] };
  const vectors = await embedAll(services, [...faqs.map((f) => f.text), ...variants.map((v) => v.text)]);
  const model = services.embedder.model;
  if (!vectors) {
    const failed = (t: typeof pgFaqs | typeof pgFaqVariants) => ({
      indexAttempts: sql`${t.indexAttempts} + 1`,
      indexError: "embedder unavailable",
      indexState: sql`CASE WHEN ${t.indexAttempts} + 1 >= ${MAX_INDEX_ATTEMPTS} THEN 'failed' ELSE ${t.indexState} END`,
    });
    if (faqs.length > 0)
      await db
        .update(pgFaqs)
        .set(failed(pgFaqs))
        .where(
          and(
            inArray(
              pgFaqs.id,
              faqs.map((f) => f.id),
            ),
            eq(pgFaqs.indexState, "pending"),
          ),
        );
    if (variants.length > 0)
      await db
        .update(pgFaqVariants)
        .set(failed(pgFaqVariants))
        .where(
          and(
            inArray(
              pgFaqVariants.id,
              variants.map((v) => v.id),
            ),
            eq(pgFaqVariants.indexState, "pending"),
          ),
        );
    return { attempted, indexed: 0, faqs: [] };
  }
  const indexed = { indexState: "indexed" as const, embeddingModel: model, indexError: null };
  const indexedFaqs: ReindexReport["faqs"] = [];
  const written = await db.transaction(async (tx) => {
    let count = 0;
    for (const [i, faq] of faqs.entries()) {
      const rows = await tx
        .update(pgFaqs)
        .set({ ...indexed, embedding: vectors[i]! })
        .where(and(eq(pgFaqs.id, faq.id), eq(pgFaqs.indexState, "pending"), eq(pgFaqs.question, faq.text)))
        .returning({ id: pgFaqs.id });
      count += rows.length;
      if (rows.length > 0) indexedFaqs.push({ tenantId: faq.tenantId, id: faq.id, question: faq.text });
    }
    for (const [j, variant] of variants.entries()) {
      const rows = await tx
        .update(pgFaqVariants)
        .set({ ...indexed, embedding: vectors[faqs.length + j]! })
        .where(and(eq(pgFaqVariants.id, variant.id), eq(pgFaqVariants.indexState, "pending")))
        .returning({ id: pgFaqVariants.id });
      count += rows.length;
    }
    return count;
  });
  return { attempted, indexed: written, faqs: indexedFaqs };
}
