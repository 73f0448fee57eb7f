/**
 * What the ticket pipeline (src/features/tickets/match.ts, stats.ts) reads of the FAQs on Postgres: rows
 * by id, variants of a few FAQs, exact cosines of stored vectors (pgvector on the rows, no
 * embedder call), the nearest FAQs, variant counts, and which words the FAQs already say.
 */
import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import type { PgDatabase } from "../../../platform/db/pg/client";
import { pgFaqs, pgFaqVariants } from "../../../platform/db/pg/schema";
import { vocabularyQuery, type FaqStore } from "../port";
import { faqColumns, toFaqRow, toVariantRow, variantColumns } from "./rows";
import { vectorExpression } from "./search";

export function postgresPipelineReads(
  db: PgDatabase,
): Pick<FaqStore, "getMany" | "nearest" | "variantCounts" | "variantsOf" | "storedCosines" | "wordsInUse"> {
  return {
    async getMany(tenantId, ids) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select(faqColumns)
        .from(pgFaqs)
        .where(and(eq(pgFaqs.tenantId, tenantId), isNull(pgFaqs.deletedAt), inArray(pgFaqs.id, [...ids])));
      return new Map(rows.map((r) => [r.id, toFaqRow(r)]));
    },

    async nearest(tenantId, query, topK) {
      const q = vectorExpression(query.vector);
      return db
        .select({ id: pgFaqs.id, score: sql<number>`1 - (${q.column("faqs")} <=> ${q.value})`.mapWith(Number) })
        .from(pgFaqs)
        .where(and(eq(pgFaqs.tenantId, tenantId), isNull(pgFaqs.deletedAt), eq(pgFaqs.embeddingModel, query.model)))
        .orderBy(sql`${q.column("faqs")} <=> ${q.value}`)
        .limit(topK);
    },

    async wordsInUse(tenantId, words) {
      const asked = vocabularyQuery(words);
      if (asked.length === 0) return new Set();
      // The same text search the FAQ search uses (recall_fts), each word as a phrase.
      const rows = await db.execute<{ word: string }>(
        sql`SELECT w AS word FROM (VALUES ${sql.join(
          asked.map((w) => sql`(${w})`),
          sql`, `,
        )}) AS v(w)
            WHERE EXISTS (SELECT 1 FROM faqs f WHERE f.tenant_id = ${tenantId} AND f.deleted_at IS NULL
                          AND f.search @@ phraseto_tsquery('recall_fts', w))`,
      );
      return new Set(rows.rows.map((r) => r.word));
    },

    async variantCounts(tenantId) {
      const perFaq = db
        .select({
          faqId: pgFaqVariants.faqId,
          n: count().as("n"),
          pipeline: sql<number>`count(*) FILTER (WHERE ${pgFaqVariants.source} = 'pipeline')`.as("pipeline"),
        })
        .from(pgFaqVariants)
        .innerJoin(pgFaqs, and(eq(pgFaqs.id, pgFaqVariants.faqId), isNull(pgFaqs.deletedAt)))
        .where(eq(pgFaqVariants.tenantId, tenantId))
        .groupBy(pgFaqVariants.faqId)
        .as("per_faq");
      const [[faqs], [variants]] = await Promise.all([
        db
          .select({ n: count() })
          .from(pgFaqs)
          .where(and(eq(pgFaqs.tenantId, tenantId), isNull(pgFaqs.deletedAt))),
        db
          .select({
            variants: sql<number>`coalesce(sum(${perFaq.n}), 0)`.mapWith(Number),
            pipelineVariants: sql<number>`coalesce(sum(${perFaq.pipeline}), 0)`.mapWith(Number),
            faqsWithVariants: count(),
            maxPerFaq: sql<number>`coalesce(max(${perFaq.n}), 0)`.mapWith(Number),
          })
          .from(perFaq),
      ]);
      return { faqs: faqs?.n ?? 0, variants: 0, pipelineVariants: 0, faqsWithVariants: 0, maxPerFaq: 0, ...variants };
    },

    async variantsOf(tenantId, faqIds) {
      if (faqIds.length === 0) return [];
      const rows = await db
        .select(variantColumns)
        .from(pgFaqVariants)
        .where(and(eq(pgFaqVariants.tenantId, tenantId), inArray(pgFaqVariants.faqId, [...faqIds])))
        .orderBy(pgFaqVariants.seq);
      return rows.map(toVariantRow);
    },

    async storedCosines(tenantId, query, { faqIds, variantIds }) {
      const q = vectorExpression(query.vector);
      const cosineOf = (alias: string) => sql<number>`1 - (${q.column(alias)} <=> ${q.value})`.mapWith(Number);
      const [faqs, variants] = await Promise.all([
        faqIds.length === 0
          ? []
          : db
              .select({ id: pgFaqs.id, cosine: cosineOf("faqs") })
              .from(pgFaqs)
              .where(and(eq(pgFaqs.tenantId, tenantId), inArray(pgFaqs.id, [...faqIds]), eq(pgFaqs.embeddingModel, query.model))),
        variantIds.length === 0
          ? []
          : db
              .select({ id: pgFaqVariants.id, cosine: cosineOf("faq_variants") })
              .from(pgFaqVariants)
              .where(
                and(
                  eq(pgFaqVariants.tenantId, tenantId),
                  inArray(pgFaqVariants.id, [...variantIds]),
                  eq(pgFaqVariants.embeddingModel, query.model),
                ),
              ),
      ]);
      return { faqs: new Map(faqs.map((r) => [r.id, r.cosine])), variants: new Map(variants.map((r) => [r.id, r.cosine])) };
    },
  };
}
