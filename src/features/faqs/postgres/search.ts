/**
 * FAQ search's candidates on Postgres, where the data is (search-source.ts): each list one SQL
 * query, ranked where the indexes are.
 *   full text: the tsvector of the same pre-tokenized text FTS5 indexes, ranked by ts_rank with
 *              question (A) : answer (B) in FAQ_SEARCH.columnWeights, as bm25(faqs_fts, 10.0, 3.0) on D1;
 *   vector:    pgvector cosine distance on the row's vector, through the model's HNSW index.
 * Raw SQL here (not the query builder) because ts_rank / websearch_to_tsquery / `<=>` on a cast
 * expression are what the indexes are built on; values are always bound parameters.
 */
import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { expansionTerms } from "../../../core/text/expand";
import type { PgDatabase } from "../../../platform/db/pg/client";
import { pgFaqs } from "../../../platform/db/pg/schema";
import type { Services } from "../../../platform/ports/services";
import { FAQ_SEARCH } from "../search-settings";
import type { FaqSearchSource, SearchPlan } from "../search-source";
import type { FaqRow } from "../types";
import { faqColumns, toFaqRow } from "./rows";

/** ts_rank's weights are {D, C, B, A}: answer (B) and question (A) in the column ratio. */
const RANK_WEIGHTS = `{0, 0, ${(FAQ_SEARCH.columnWeights.answer / FAQ_SEARCH.columnWeights.question).toFixed(2)}, 1}`;

/**
 * The terms as a websearch_to_tsquery text: each a quoted phrase, ORed. websearch_to_tsquery
 * never raises on syntax, and the quotes keep a term like "or" or "-x" from being an operator.
 */
export function websearchText(terms: readonly string[]): string | null {
  const quoted = [...new Set(terms)].map((t) => t.replaceAll('"', " ").trim()).filter((t) => t.length > 0);
  return quoted.length > 0 ? quoted.map((t) => `"${t}"`).join(" or ") : null;
}

const scoredId = z.object({ id: z.string(), score: z.coerce.number() });
const scoredVariant = z.object({ id: z.string(), faq_id: z.string(), variant_text: z.string(), score: z.coerce.number() });

export function postgresSearchSource(
  services: Services,
  db: PgDatabase,
  tenantId: string,
  { tags, window }: SearchPlan,
): FaqSearchSource<FaqRow> {
  const { embedder } = services;
  const tagged = tags.length > 0 ? sql`AND f.tags @> ${JSON.stringify(tags)}::jsonb` : sql``;
  const rows = async <T>(schema: z.ZodType<T>, query: SQL): Promise<T[]> => z.array(schema).parse((await db.execute(query)).rows);
  /** Variants the vector list found, with their FAQ and text: rows() answers for them without another query. */
  const nearVariants = new Map<string, { faqId: string; text: string }>();
  /** The query's vector as SQL, written once per search: the lists, the rows and the cosines all send it. */
  let written: { vector: Float32Array; q: ReturnType<typeof vectorExpression> } | undefined;
  const expressionOf = (vector: Float32Array) =>
    (written?.vector === vector ? written : (written = { vector, q: vectorExpression(vector) })).q;
  /** Raw cosine of the query to each canonical question of the model, or NULL (another model's vector). */
  const cosineTo = (q: ReturnType<typeof vectorExpression>) =>
    sql<number | null>`CASE WHEN ${pgFaqs.embeddingModel} = ${embedder.model} THEN 1 - (${q.column("faqs")} <=> ${q.value}) END`;

  return {
    async lexical(expansion) {
      const text = expansion ? websearchText(expansionTerms(expansion)) : null;
      if (!text) return { canonical: [], variants: [] };
      const [canonical, variants] = await Promise.all([
        rows(
          scoredId,
          sql`SELECT f.id, ts_rank(${RANK_WEIGHTS}::float4[], f.search, q) AS score FROM faqs f, websearch_to_tsquery('recall_fts', ${text}) q
            WHERE f.search @@ q AND f.tenant_id = ${tenantId} AND f.deleted_at IS NULL ${tagged} ORDER BY score DESC, f.seq LIMIT ${window.faqs}`,
        ),
        rows(
          scoredVariant,
          sql`SELECT v.id, v.faq_id, v.variant_text, ts_rank(v.search, q) AS score FROM faq_variants v JOIN faqs f ON f.id = v.faq_id, websearch_to_tsquery('recall_fts', ${text}) q
            WHERE v.search @@ q AND v.tenant_id = ${tenantId} AND f.deleted_at IS NULL ${tagged} ORDER BY score DESC, v.seq LIMIT ${window.variants}`,
        ),
      ]);
      return { canonical, variants: variants.map((v) => ({ faqId: v.faq_id, variantId: v.id, text: v.variant_text, score: v.score })) };
    },

    async nearest(vector) {
      const q = expressionOf(vector);
      const [canonical, variants] = await Promise.all([
        rows(
          scoredId,
          sql`SELECT f.id, 1 - (${q.column("f")} <=> ${q.value}) AS score FROM faqs f
            WHERE f.tenant_id = ${tenantId} AND f.deleted_at IS NULL AND f.embedding_model = ${embedder.model} ${tagged}
            ORDER BY ${q.column("f")} <=> ${q.value} LIMIT ${window.faqs}`,
        ),
        rows(
          scoredVariant,
          sql`SELECT v.id, v.faq_id, v.variant_text, 1 - (${q.column("v")} <=> ${q.value}) AS score FROM faq_variants v JOIN faqs f ON f.id = v.faq_id
            WHERE v.tenant_id = ${tenantId} AND f.deleted_at IS NULL AND v.embedding_model = ${embedder.model} ${tagged}
            ORDER BY ${q.column("v")} <=> ${q.value} LIMIT ${window.variants}`,
        ),
      ]);
      for (const v of variants) nearVariants.set(v.id, { faqId: v.faq_id, text: v.variant_text });
      return { canonical, variants: variants.map((v) => ({ variantId: v.id, cosine: v.score })) };
    },

    // The lists already kept live FAQs of the tenant with the tags; the rows come with their cosine, in one query.
    async rows({ faqIds, variantIds }, vector) {
      const variants = new Map(variantIds.flatMap((id) => (nearVariants.has(id) ? [[id, nearVariants.get(id)!] as const] : [])));
      const ids = [...new Set([...faqIds, ...[...variants.values()].map((v) => v.faqId)])];
      const found =
        ids.length > 0
          ? await db
              .select({ ...faqColumns, cosine: vector ? cosineTo(expressionOf(vector)) : sql<null>`NULL` })
              .from(pgFaqs)
              .where(and(eq(pgFaqs.tenantId, tenantId), isNull(pgFaqs.deletedAt), inArray(pgFaqs.id, ids)))
          : [];
      const faqs = new Map(found.map((row) => [row.id, toFaqRow(row)]));
      return {
        faqs,
        variants,
        cosines: new Map(found.flatMap((row) => (row.cosine === null ? [] : [[row.id, Number(row.cosine)] as const]))),
        whole: async (page) => new Map(page.flatMap((id) => (faqs.has(id) ? [[id, faqs.get(id)!] as const] : []))),
      };
    },

    // Only FAQs embedded with another model reach here (rows() brought the rest): they have no cosine to give.
    async cosines(vector, faqIds) {
      const found = await db
        .select({ id: pgFaqs.id, cosine: cosineTo(expressionOf(vector)) })
        .from(pgFaqs)
        .where(and(eq(pgFaqs.tenantId, tenantId), inArray(pgFaqs.id, [...faqIds])));
      return new Map(found.flatMap((row) => (row.cosine === null ? [] : [[row.id, Number(row.cosine)] as const])));
    },
  };
}

/**
 * The query vector and the row vector as the HNSW index sees them: cast to the model's dimension
 * (the index is on that cast, migrations/pg/0002). The dimension is the vector's own length.
 */
export function vectorExpression(vector: Float32Array | readonly number[]) {
  const dimensions = sql.raw(String(Math.trunc(vector.length)));
  return {
    value: sql`${`[${Array.from(vector).join(",")}]`}::vector(${dimensions})`,
    column: (alias: string) => sql`(${sql.identifier(alias)}.embedding::vector(${dimensions}))`,
  };
}
