/**
 * The full-text rebuild on Postgres (POST /v1/admin/fts/rebuild for faqs and faq_variants; D1:
 * src/features/indexing/fts-rebuild.ts). The tsvector columns are generated from `question_terms`,
 * `answer_terms` and `body_terms`, which hold ftsDocument() of the text as segmented when the row
 * was written: SQL cannot run the segmenter, so after a segmentation change those term columns
 * are recomputed here and the database regenerates each tsvector. Only rows whose stored terms
 * differ are written, so running it again rewrites nothing.
 */
import { and, asc, eq, gt } from "drizzle-orm";
import type { PgDatabase } from "../../../platform/db/pg/client";
import { pgFaqs, pgFaqVariants } from "../../../platform/db/pg/schema";
import type { FtsRebuildPage } from "../../indexing/fts-rebuild";
import { ftsDocument } from "../../../core/text/fts";

export type FaqFtsCollection = "faqs" | "faq_variants";

export async function rebuildTermsPostgres(
  db: PgDatabase,
  tenantId: string,
  collection: FaqFtsCollection,
  after: number,
  batchSize: number,
): Promise<FtsRebuildPage> {
  const { seqs, rewritten } =
    collection === "faqs" ? await rebuildFaqs(db, tenantId, after, batchSize) : await rebuildVariants(db, tenantId, after, batchSize);
  const last = seqs.at(-1);
  return {
    collection,
    processed: seqs.length,
    rewritten,
    nextCursor: seqs.length === batchSize && last !== undefined ? last : null,
  };
}

async function rebuildFaqs(db: PgDatabase, tenantId: string, after: number, batchSize: number) {
  const rows = await db
    .select({
      seq: pgFaqs.seq,
      id: pgFaqs.id,
      question: pgFaqs.question,
      answer: pgFaqs.answer,
      questionTerms: pgFaqs.questionTerms,
      answerTerms: pgFaqs.answerTerms,
    })
    .from(pgFaqs)
    .where(and(eq(pgFaqs.tenantId, tenantId), gt(pgFaqs.seq, after)))
    .orderBy(asc(pgFaqs.seq))
    .limit(batchSize);
  const stale = rows
    .map((r) => ({
      id: r.id,
      was: [r.questionTerms, r.answerTerms],
      questionTerms: ftsDocument(r.question),
      answerTerms: ftsDocument(r.answer),
    }))
    .filter((r) => r.was[0] !== r.questionTerms || r.was[1] !== r.answerTerms);
  if (stale.length > 0)
    await db.transaction(async (tx) => {
      for (const r of stale)
        await tx.update(pgFaqs).set({ questionTerms: r.questionTerms, answerTerms: r.answerTerms }).where(eq(pgFaqs.id, r.id));
    });
  return { seqs: rows.map((r) => r.seq), rewritten: stale.length };
}

async function rebuildVariants(db: PgDatabase, tenantId: string, after: number, batchSize: number) {
  const rows = await db
    .select({ seq: pgFaqVariants.seq, id: pgFaqVariants.id, text: pgFaqVariants.variantText, bodyTerms: pgFaqVariants.bodyTerms })
    .from(pgFaqVariants)
    .where(and(eq(pgFaqVariants.tenantId, tenantId), gt(pgFaqVariants.seq, after)))
    .orderBy(asc(pgFaqVariants.seq))
    .limit(batchSize);
  const stale = rows.map((r) => ({ id: r.id, was: r.bodyTerms, bodyTerms: ftsDocument(r.text) })).filter((r) => r.was !== r.bodyTerms);
  if (stale.length > 0)
    await db.transaction(async (tx) => {
      for (const r of stale) await tx.update(pgFaqVariants).set({ bodyTerms: r.bodyTerms }).where(eq(pgFaqVariants.id, r.id));
    });
  return { seqs: rows.map((r) => r.seq), rewritten: stale.length };
}
