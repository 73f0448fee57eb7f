/**
 * Hybrid FAQ search (seed 002 §8.1) on D1 FTS5 + the VectorIndex port. Four candidate lists,
 * each up to a window of FAQs:
 *   canonical_bm25  faqs_fts over question (weight 10) and answer (weight 3): bm25(faqs_fts, 10.0, 3.0)
 *   variant_bm25    faq_variants_fts; an FAQ ranks where its best variant ranks
 *   canonical_vector  nearest canonical questions ("faqs" collection)
 *   variant_vector    nearest variants ("faq_variants" collection), best variant per FAQ
 The candidates of all four are scored on two signals: lexical, the better −bm25 of the
 * canonical question and the best variant; vector, the better raw cosine of the two (FAQs the
 * vector lists did not reach are compared through the index). Normalised score fusion
 * (src/core/ranking/fusion.ts) mixes them with `vector / (bm25 + vector)` of the weights; a weight of 0
 * leaves its lists out entirely; a vector candidate must reach VECTOR_MIN_SIMILARITY.
 * Text the model cannot embed (CJK with an English-only model) skips the vector lists; an
 * embedder or index fault does too, and the answer says what is `degraded`.
 */
import { calibrate } from "../../core/calibration/calibration";
import { DEFAULT_VECTOR_SHARE } from "../../core/ranking/fusion";
import type { Services } from "../../platform/ports/services";
import { expandQuery } from "../../core/text/expand";
import { fuseFaqLists, reachedByVector, toFaqLists } from "./fuse-lists";
import { FAQ_COLLECTION, FAQ_VARIANT_COLLECTION } from "./indexing";
import { tagsSchema } from "./json-columns";
import { candidateRows, prefetchRows, type RowVersion, rowVersionQuery } from "./row-cache";
import type { FaqDegradation, FaqSearchArgs, FaqSearchResult, FaqSearchWeights } from "./types";
import { errorFields } from "../../platform/observe/log";

/** The two signals' shares in the fused score (src/core/ranking/fusion.ts); seed 002's were 0.4 / 0.6 in RRF. */
export const DEFAULT_FAQ_WEIGHTS: FaqSearchWeights = { bm25: 1 - DEFAULT_VECTOR_SHARE, vector: DEFAULT_VECTOR_SHARE };
/**
 * Candidates per list: twice the page, at least this many FAQs. Fusion needs the candidates a
 * single list ranks below its top 20 (`npm run fit:fusion`: held-out NDCG@10 +0.020 / +0.023
 * over the better single mode with 40, +0.006 / +0.010 with 20).
 */
export const MIN_FAQ_WINDOW = 40;
/** Column weights of bm25() over faqs_fts (question, answer): Postgres setweight A vs B. */
export const QUESTION_COLUMN_WEIGHT = 10.0;
export const ANSWER_COLUMN_WEIGHT = 3.0;
/**
 * Vector candidates below this calibrated similarity (src/core/calibration; 0.5 sits between the
 * median unrelated pair, 0.3, and the related band, 0.6) are not candidates: every query has
 * nearest neighbours, and for an exact code ("KB-10042") they are noise that, found by both
 * vector lists at 0.6 each, outranks the one exact BM25 match (0.4). Measured with 1,200 FAQs
 * (npm run bench): code queries found their FAQ 0/20 without the floor.
 */
export const VECTOR_MIN_SIMILARITY = 0.5;
/** Variant lists read this many variants per FAQ slot of the window before keeping the best per FAQ. */
const VARIANTS_PER_SLOT = 3;

export async function searchFaqs(services: Services, tenantId: string, args: FaqSearchArgs): Promise<FaqSearchResult> {
  const started = Date.now();
  const { embedder } = services;
  const weights = { ...DEFAULT_FAQ_WEIGHTS, ...args.weights };
  const window = Math.max(args.limit * 2, MIN_FAQ_WINDOW);
  const degraded: FaqDegradation[] = [];
  const tags = args.tags ?? [];

  // Computed, not read from the KV expansion cache: the rules take microseconds, a KV round trip milliseconds.
  const expansion = expandQuery(args.query);
  // The vector index's per-request set-up (the exact index: version check, snapshot load) overlaps the embedding.
  if (weights.vector > 0) services.vectors.prefetch?.(tenantId, [FAQ_COLLECTION, FAQ_VARIANT_COLLECTION]);
  const rowsAhead = prefetchRows(services.db, tenantId);
  const match = weights.bm25 > 0 ? expansion.orQuery : null;
  let queryVector: Float32Array | null = null;
  let embedMs = 0;
  let embedded = started;
  // The lexical lists need no vector: they run while the query is embedded, in one round trip
  // with the tenant's row version (the row cache's key).
  const [lexical, [canonicalVector, variantVector]] = await Promise.all([
    lexicalLists(services.db, tenantId, match, tags, window),
    (async () => {
      if (weights.vector > 0 && embedder.canEmbed(args.query)) {
        const embedStarted = Date.now();
        try {
          queryVector = (await embedder.embed([args.query]))[0] ?? null;
        } catch (error) {
          warn(services, "embeddings", error);
          degraded.push("embeddings");
        }
        embedded = Date.now();
        embedMs = embedded - embedStarted;
      }
      if (!queryVector) return [[], []];
      return Promise.all([
        nearest(services, tenantId, FAQ_COLLECTION, queryVector, window, degraded),
        nearest(services, tenantId, FAQ_VARIANT_COLLECTION, queryVector, window * VARIANTS_PER_SLOT, degraded),
      ]);
    })(),
  ]);

  const rowsStarted = Date.now();
  // Vector candidates come from an index that knows nothing of deletes or tags: rows decide.
  const { variantRows, rows, hits } = await candidateRows(
    services.db,
    tenantId,
    lexical.version,
    variantVector.map((m) => m.id),
    [...lexical.canonical.map((c) => c.id), ...lexical.variants.map((v) => v.faqId), ...canonicalVector.map((m) => m.id)],
    { ahead: rowsAhead, ...(services.defer ? { defer: services.defer } : {}) },
  );
  const vectorVariants = variantVector.flatMap((m) => {
    const row = variantRows.get(m.id);
    return row ? [{ faqId: row.faq_id, variantId: row.id, text: row.variant_text, cosine: m.score }] : [];
  });
  const eligible = (id: string) => {
    const row = rows.get(id);
    if (!row) return false;
    if (tags.length === 0) return true;
    const own = tagsSchema.parse(JSON.parse(row.tags));
    return tags.every((t) => own.includes(t));
  };
  const lists = toFaqLists(
    { canonicalLexical: lexical.canonical, variantLexical: lexical.variants, canonicalVector, variantVector: vectorVariants },
    window,
    eligible,
  );
  // Lexical candidates the vector lists did not reach are compared with the query too.
  const unreached = queryVector
    ? [...lists.canonicalLexical.keys(), ...lists.variantLexical.keys()].filter((id) => !reachedByVector(lists, id))
    : [];
  if (queryVector && unreached.length > 0)
    lists.moreCosines = await cosinesOf(services, tenantId, queryVector, [...new Set(unreached)], degraded);
  const ranked = fuseFaqLists(lists, rows, {
    limit: args.limit,
    vectorShare: weights.vector / (weights.vector + weights.bm25),
    calibration: embedder.scale.calibration,
  });
  // Answers are read for the page only (from memory unless the tenant was outlined, row-cache.ts).
  const whole = await hits(ranked.map((hit) => hit.faq.id));
  const results = ranked.flatMap((hit) => {
    const faq = whole.get(hit.faq.id);
    return faq ? [{ ...hit, faq }] : [];
  });
  const done = Date.now();
  // The lists overlap the embedding: `listsMs` is the wait for them once the vector was there.
  return {
    results,
    degraded,
    queryVector,
    timing: { embedMs, listsMs: rowsStarted - Math.max(embedded, started), rowsMs: done - rowsStarted, totalMs: done - started },
  };
}

interface LexicalLists {
  /** The tenant's row version as these lists saw it (the row cache's key). */
  version: RowVersion | null;
  /** FAQ ids best first by −bm25 with column weights (question A, answer B). */
  canonical: { id: string; score: number }[];
  /** Variants best first by −bm25; an FAQ ranks where its best variant ranks. */
  variants: { faqId: string; variantId: string; text: string; score: number }[];
}

/** The row version and both full-text lists (without a MATCH: the version alone) in one D1 round trip. FTS5's bm25() is lower-is-better. */
async function lexicalLists(
  db: D1Database,
  tenantId: string,
  match: string | null,
  tags: readonly string[],
  window: number,
): Promise<LexicalLists> {
  const bm25 = `bm25(faqs_fts, ${QUESTION_COLUMN_WEIGHT.toFixed(1)}, ${ANSWER_COLUMN_WEIGHT.toFixed(1)})`;
  const lists = match
    ? [
        db
          .prepare(
            `SELECT f.id, -${bm25} AS score FROM faqs_fts JOIN faqs f ON f.seq = faqs_fts.rowid
             WHERE faqs_fts MATCH ? AND f.tenant_id = ? AND f.deleted_at IS NULL ${tagFilter(tags)}
             ORDER BY ${bm25} LIMIT ?`,
          )
          .bind(match, tenantId, ...tags, window),
        db
          .prepare(
            `SELECT v.id, v.faq_id, v.variant_text, -bm25(faq_variants_fts) AS score FROM faq_variants_fts
               JOIN faq_variants v ON v.seq = faq_variants_fts.rowid JOIN faqs f ON f.id = v.faq_id
             WHERE faq_variants_fts MATCH ? AND v.tenant_id = ? AND f.deleted_at IS NULL ${tagFilter(tags)}
             ORDER BY bm25(faq_variants_fts) LIMIT ?`,
          )
          .bind(match, tenantId, ...tags, window * VARIANTS_PER_SLOT),
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

async function nearest(
  services: Services,
  tenantId: string,
  collection: string,
  vector: Float32Array,
  topK: number,
  degraded: FaqDegradation[],
) {
  const { vectors, embedder } = services;
  try {
    const matches = await vectors.query(tenantId, collection, { vector, model: embedder.model, topK: Math.min(topK, vectors.maxTopK) });
    return matches.filter((m) => calibrate(m.score, embedder.scale.calibration) >= VECTOR_MIN_SIMILARITY);
  } catch (error) {
    warn(services, "vector_index", error);
    if (!degraded.includes("vector_index")) degraded.push("vector_index");
    return [];
  }
}

/** Raw cosines of the query to these FAQs' canonical questions; empty (and degraded) when the index fails. */
async function cosinesOf(services: Services, tenantId: string, vector: Float32Array, ids: readonly string[], degraded: FaqDegradation[]) {
  try {
    return await services.vectors.similarities(tenantId, FAQ_COLLECTION, { vector, model: services.embedder.model }, ids);
  } catch (error) {
    warn(services, "vector_index", error);
    if (!degraded.includes("vector_index")) degraded.push("vector_index");
    return new Map<string, number>();
  }
}

function warn({ log }: Pick<Services, "log">, part: FaqDegradation, error: unknown): void {
  log.warn("faq_search_degraded", { part, ...errorFields(error) });
}
