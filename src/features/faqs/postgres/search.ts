/**
 * Hybrid FAQ search on Postgres, where the data is (seed 002 §8.1): the same four candidate
 * lists as on D1 (search.ts), each one SQL query, then the same fusion (fuse-lists.ts).
 *   lexical: the tsvector of the same pre-tokenized text FTS5 indexes, ranked by ts_rank with
 *            question (A) : answer (B) = 10 : 3 like bm25(faqs_fts, 10.0, 3.0);
 *   vector:  pgvector cosine distance on the row's vector, through the model's HNSW index.
 * Raw SQL here (not the query builder) because ts_rank / websearch_to_tsquery / `<=>` on a cast
 * expression are what the indexes are built on; values are always bound parameters.
 */
import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { calibrate } from "../../../core/calibration/calibration";
import type { PgDatabase } from "../../../platform/db/pg/client";
import { errorFields } from "../../../platform/observe/log";
import type { Services } from "../../../platform/ports/services";
import { expandQuery, expansionTerms } from "../../../core/text/expand";
import { fuseFaqLists, listedFaqIds, reachedByVector, toFaqLists } from "../fuse-lists";
import { ANSWER_COLUMN_WEIGHT, DEFAULT_FAQ_WEIGHTS, MIN_FAQ_WINDOW, QUESTION_COLUMN_WEIGHT, VECTOR_MIN_SIMILARITY } from "../search";
import type { FaqDegradation, FaqSearchArgs, FaqSearchResult } from "../types";
import { faqColumns, toFaqRow } from "./rows";
import { pgFaqs } from "../../../platform/db/pg/schema";

/** Variant lists read this many variants per FAQ slot of the window (as on D1). */
const VARIANTS_PER_SLOT = 3;
/** ts_rank's weights are {D, C, B, A}: answer (B) and question (A) in the bm25 column ratio. */
const RANK_WEIGHTS = `{0, 0, ${(ANSWER_COLUMN_WEIGHT / QUESTION_COLUMN_WEIGHT).toFixed(2)}, 1}`;

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

export async function searchPostgres(services: Services, db: PgDatabase, tenantId: string, args: FaqSearchArgs): Promise<FaqSearchResult> {
  const started = Date.now();
  const { embedder } = services;
  const weights = { ...DEFAULT_FAQ_WEIGHTS, ...args.weights };
  const window = Math.max(args.limit * 2, MIN_FAQ_WINDOW);
  const degraded: FaqDegradation[] = [];
  const tags = args.tags ?? [];
  const text = weights.bm25 > 0 ? websearchText(expansionTerms(expandQuery(args.query))) : null;
  const tagged = tags.length > 0 ? sql`AND f.tags @> ${JSON.stringify(tags)}::jsonb` : sql``;
  const rows = async <T>(schema: z.ZodType<T>, query: SQL): Promise<T[]> => z.array(schema).parse((await db.execute(query)).rows);

  let queryVector: Float32Array | null = null;
  let embedMs = 0;
  let embedded = started;
  const [[canonicalText, variantText], [canonicalVector, variantVector]] = await Promise.all([
    Promise.all([
      text
        ? rows(
            scoredId,
            sql`SELECT f.id, ts_rank(${RANK_WEIGHTS}::float4[], f.search, q) AS score FROM faqs f, websearch_to_tsquery('recall_fts', ${text}) q
            WHERE f.search @@ q AND f.tenant_id = ${tenantId} AND f.deleted_at IS NULL ${tagged} ORDER BY score DESC, f.seq LIMIT ${window}`,
          )
        : [],
      text
        ? rows(
            scoredVariant,
            sql`SELECT v.id, v.faq_id, v.variant_text, ts_rank(v.search, q) AS score FROM faq_variants v JOIN faqs f ON f.id = v.faq_id, websearch_to_tsquery('recall_fts', ${text}) q
            WHERE v.search @@ q AND v.tenant_id = ${tenantId} AND f.deleted_at IS NULL ${tagged} ORDER BY score DESC, v.seq LIMIT ${window * VARIANTS_PER_SLOT}`,
          )
        : [],
    ]),
    (async () => {
      if (weights.vector > 0 && embedder.canEmbed(args.query)) {
        const embedStarted = Date.now();
        try {
          queryVector = (await embedder.embed([args.query]))[0] ?? null;
        } catch (error) {
          services.log.warn("faq_search_degraded", { part: "embeddings", backend: "postgres", ...errorFields(error) });
          degraded.push("embeddings");
        }
        embedded = Date.now();
        embedMs = embedded - embedStarted;
      }
      if (!queryVector) return [[], []];
      const q = vectorExpression(queryVector);
      const near = (row: { score: number }) => calibrate(row.score, embedder.scale.calibration) >= VECTOR_MIN_SIMILARITY;
      return Promise.all([
        rows(
          scoredId,
          sql`SELECT f.id, 1 - (${q.column("f")} <=> ${q.value}) AS score FROM faqs f
            WHERE f.tenant_id = ${tenantId} AND f.deleted_at IS NULL AND f.embedding_model = ${embedder.model} ${tagged}
            ORDER BY ${q.column("f")} <=> ${q.value} LIMIT ${window}`,
        ).then((r) => r.filter(near)),
        rows(
          scoredVariant,
          sql`SELECT v.id, v.faq_id, v.variant_text, 1 - (${q.column("v")} <=> ${q.value}) AS score FROM faq_variants v JOIN faqs f ON f.id = v.faq_id
            WHERE v.tenant_id = ${tenantId} AND f.deleted_at IS NULL AND v.embedding_model = ${embedder.model} ${tagged}
            ORDER BY ${q.column("v")} <=> ${q.value} LIMIT ${window * VARIANTS_PER_SLOT}`,
        ).then((r) => r.filter(near)),
      ]);
    })(),
  ]);

  const rowsStarted = Date.now();
  // The SQL already kept live FAQs of the tenant with the tags: nothing more to filter.
  const lists = toFaqLists(
    {
      canonicalLexical: canonicalText,
      variantLexical: variantText.map((v) => ({ faqId: v.faq_id, variantId: v.id, text: v.variant_text, score: v.score })),
      canonicalVector,
      variantVector: variantVector.map((v) => ({ faqId: v.faq_id, variantId: v.id, text: v.variant_text, cosine: v.score })),
    },
    window,
  );
  const ids = listedFaqIds(lists);
  // The candidates' rows, and for those no vector list reached, their canonical cosine: one query.
  const vector = queryVector as Float32Array | null;
  const cosine = vector
    ? sql<
        number | null
      >`CASE WHEN ${pgFaqs.embeddingModel} = ${embedder.model} THEN 1 - (${vectorExpression(vector).column("faqs")} <=> ${vectorExpression(vector).value}) END`
    : sql<null>`NULL`;
  const found =
    ids.length > 0
      ? await db
          .select({ ...faqColumns, cosine })
          .from(pgFaqs)
          .where(and(eq(pgFaqs.tenantId, tenantId), isNull(pgFaqs.deletedAt), inArray(pgFaqs.id, ids)))
      : [];
  for (const row of found) if (!reachedByVector(lists, row.id) && row.cosine !== null) lists.moreCosines.set(row.id, Number(row.cosine));
  const byId = new Map(found.map((row) => [row.id, toFaqRow(row)]));
  const results = fuseFaqLists(lists, byId, {
    limit: args.limit,
    vectorShare: weights.vector / (weights.vector + weights.bm25),
    calibration: embedder.scale.calibration,
  });
  const done = Date.now();
  return {
    results,
    degraded,
    queryVector,
    timing: { embedMs, listsMs: rowsStarted - Math.max(embedded, started), rowsMs: done - rowsStarted, totalMs: done - started },
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
