/**
 * FAQ search's candidates on D1 (search-source.ts): the full-text lists from FTS5, the nearest
 * neighbours from the VectorIndex port, the rows from the row cache (row-cache.ts).
 *   canonical: faqs_fts over question and answer, bm25(faqs_fts, 10.0, 3.0)
 *   variants:  faq_variants_fts
 * The full-text lists and the tenant's row version (the row cache's key) are one round trip.
 */
import type { Services } from "../../platform/ports/services";
import { FAQ_COLLECTION, FAQ_VARIANT_COLLECTION } from "./indexing";
import { tagsSchema } from "./json-columns";
import { candidateRows, type FaqOutline, prefetchRows, type RowVersion, rowVersionQuery } from "./row-cache";
import { FAQ_SEARCH } from "./search-settings";
import type { FaqSearchSource, LexicalCandidates, SearchPlan } from "./search-source";

export function d1SearchSource(services: Services, tenantId: string, plan: SearchPlan): FaqSearchSource<FaqOutline> {
  const { db, vectors, embedder } = services;
  // The vector index's per-request set-up (the exact index: version check, snapshot load) overlaps the embedding.
  if (plan.vectors) vectors.prefetch?.(tenantId, [FAQ_COLLECTION, FAQ_VARIANT_COLLECTION]);
  const rowsAhead = prefetchRows(db, tenantId);
  let version: RowVersion | null = null;
  const query = (collection: string, vector: Float32Array, topK: number) =>
    vectors.query(tenantId, collection, { vector, model: embedder.model, topK: Math.min(topK, vectors.maxTopK) });

  return {
    async lexical(expansion) {
      const lists = await lexicalLists(db, tenantId, expansion?.orQuery ?? null, plan);
      version = lists.version;
      return lists;
    },

    async nearest(vector, degrade) {
      const inIndex = (collection: string, topK: number) =>
        query(collection, vector, topK).catch((error: unknown) => {
          degrade("vector_index", error);
          return [];
        });
      const [canonical, variants] = await Promise.all([
        inIndex(FAQ_COLLECTION, plan.window.faqs),
        inIndex(FAQ_VARIANT_COLLECTION, plan.window.variants),
      ]);
      return { canonical, variants: variants.map((m) => ({ variantId: m.id, cosine: m.score })) };
    },

    async rows({ faqIds, variantIds }) {
      const found = await candidateRows(db, tenantId, version, variantIds, faqIds, {
        ahead: rowsAhead,
        ...(services.defer ? { defer: services.defer } : {}),
      });
      const tagged = (row: FaqOutline) => {
        const own = tagsSchema.parse(JSON.parse(row.tags));
        return plan.tags.every((t) => own.includes(t));
      };
      return {
        faqs: plan.tags.length === 0 ? found.rows : new Map([...found.rows].filter(([, row]) => tagged(row))),
        variants: new Map([...found.variantRows].map(([id, row]) => [id, { faqId: row.faq_id, text: row.variant_text }])),
        cosines: new Map(),
        whole: found.hits,
      };
    },

    async cosines(vector, faqIds, degrade) {
      try {
        return await vectors.similarities(tenantId, FAQ_COLLECTION, { vector, model: embedder.model }, faqIds);
      } catch (error) {
        degrade("vector_index", error);
        return new Map<string, number>();
      }
    },
  };
}

/** The row version and both full-text lists (without a MATCH: the version alone) in one D1 round trip. FTS5's bm25() is lower-is-better. */
async function lexicalLists(
  db: D1Database,
  tenantId: string,
  match: string | null,
  { tags, window }: SearchPlan,
): Promise<LexicalCandidates & { version: RowVersion | null }> {
  const { question, answer } = FAQ_SEARCH.columnWeights;
  const bm25 = `bm25(faqs_fts, ${question.toFixed(1)}, ${answer.toFixed(1)})`;
  const lists = match
    ? [
        db
          .prepare(
            `SELECT f.id, -${bm25} AS score FROM faqs_fts JOIN faqs f ON f.seq = faqs_fts.rowid
             WHERE faqs_fts MATCH ? AND f.tenant_id = ? AND f.deleted_at IS NULL ${tagFilter(tags)}
             ORDER BY ${bm25} LIMIT ?`,
          )
          .bind(match, tenantId, ...tags, window.faqs),
        db
          .prepare(
            `SELECT v.id, v.faq_id, v.variant_text, -bm25(faq_variants_fts) AS score FROM faq_variants_fts
               JOIN faq_variants v ON v.seq = faq_variants_fts.rowid JOIN faqs f ON f.id = v.faq_id
             WHERE faq_variants_fts MATCH ? AND v.tenant_id = ? AND f.deleted_at IS NULL ${tagFilter(tags)}
             ORDER BY bm25(faq_variants_fts) LIMIT ?`,
          )
          .bind(match, tenantId, ...tags, window.variants),
      ]
    : [];
  const [version, canonical, variants] = await db.batch<unknown>([rowVersionQuery(db, tenantId), ...lists]);
  const variantRows = (variants?.results ?? []) as { id: string; faq_id: string; variant_text: string; score: number }[];
  return {
    version: (version!.results[0] as RowVersion | undefined) ?? null,
    canonical: (canonical?.results ?? []) as { id: string; score: number }[],
    variants: variantRows.map((r) => ({ faqId: r.faq_id, variantId: r.id, text: r.variant_text, score: r.score })),
  };
}

function tagFilter(tags: readonly string[]): string {
  return tags.map(() => "AND EXISTS (SELECT 1 FROM json_each(f.tags) WHERE json_each.value = ?)").join(" ");
}
