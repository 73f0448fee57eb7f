/**
 * Hybrid FAQ search (seed 002 §8.1), the one use case over every FAQ store. Four candidate lists,
 * each up to a window of FAQs, come from the store (search-source.ts):
 *   canonical_bm25    full text over question and answer, the question weighted higher
 *   variant_bm25      full text over variants; an FAQ ranks where its best variant ranks
 *   canonical_vector  nearest canonical questions
 *   variant_vector    nearest variants, best variant per FAQ
 * The candidates of all four are scored on two signals: lexical, the better full-text score of
 * the canonical question and the best variant; vector, the better raw cosine of the two (FAQs the
 * vector lists did not reach are compared through the store). Normalised score fusion
 * (fuse-lists.ts, src/core/ranking/fusion.ts) mixes them with `vector / (bm25 + vector)` of the
 * weights; a weight of 0 leaves its lists out entirely; a vector candidate must reach
 * FAQ_SEARCH.vectorMinSimilarity. Text the model cannot embed (CJK with an English-only model)
 * skips the vector lists; an embedder or index fault does too, and the answer says what is `degraded`.
 */
import { calibrate } from "../../core/calibration/calibration";
import { expandQuery } from "../../core/text/expand";
import { errorFields } from "../../platform/observe/log";
import type { Services } from "../../platform/ports/services";
import { fuseFaqLists, reachedByVector, toFaqLists } from "./fuse-lists";
import { FAQ_SEARCH, listWindow } from "./search-settings";
import type { Degrade, FaqSearchSource, SearchPlan, VectorCandidates } from "./search-source";
import type { FaqDegradation, FaqSearchArgs, FaqSearchResult } from "./types";

const NO_VECTOR_CANDIDATES: VectorCandidates = { canonical: [], variants: [] };

export async function searchFaqs<R extends { id: string }>(
  services: Services,
  args: FaqSearchArgs,
  open: (plan: SearchPlan) => FaqSearchSource<R>,
): Promise<FaqSearchResult> {
  const started = Date.now();
  const { embedder } = services;
  const weights = { ...FAQ_SEARCH.weights, ...args.weights };
  const window = listWindow(args.limit);
  const source = open({ tags: args.tags ?? [], window, vectors: weights.vector > 0 });
  const degraded: FaqDegradation[] = [];
  const degrade: Degrade = (part, error) => {
    services.log.warn("faq_search_degraded", { part, ...errorFields(error) });
    if (!degraded.includes(part)) degraded.push(part);
  };
  const close = (cosine: number) => calibrate(cosine, embedder.scale.calibration) >= FAQ_SEARCH.vectorMinSimilarity;

  let embedMs = 0;
  let embedded = started;
  // The full-text lists need no vector: they run while the query is embedded.
  const [lexical, { queryVector, vector }] = await Promise.all([
    // Computed, not read from the KV expansion cache: the rules take microseconds, a KV round trip milliseconds.
    source.lexical(weights.bm25 > 0 ? expandQuery(args.query) : null),
    (async () => {
      let queryVector: Float32Array | null = null;
      if (weights.vector > 0 && embedder.canEmbed(args.query)) {
        const embedStarted = Date.now();
        try {
          queryVector = (await embedder.embed([args.query]))[0] ?? null;
        } catch (error) {
          degrade("embeddings", error);
        }
        embedded = Date.now();
        embedMs = embedded - embedStarted;
      }
      if (!queryVector) return { queryVector, vector: NO_VECTOR_CANDIDATES };
      const near = await source.nearest(queryVector, degrade);
      const vector = { canonical: near.canonical.filter((m) => close(m.score)), variants: near.variants.filter((v) => close(v.cosine)) };
      return { queryVector, vector };
    })(),
  ]);

  const rowsStarted = Date.now();
  // Rows decide what may be returned: a vector index knows nothing of deletes or tags.
  const found = await source.rows(
    {
      faqIds: [...lexical.canonical.map((c) => c.id), ...lexical.variants.map((v) => v.faqId), ...vector.canonical.map((m) => m.id)],
      variantIds: vector.variants.map((v) => v.variantId),
    },
    queryVector,
  );
  const vectorVariants = vector.variants.flatMap(({ variantId, cosine }) => {
    const variant = found.variants.get(variantId);
    return variant ? [{ faqId: variant.faqId, variantId, text: variant.text, cosine }] : [];
  });
  const lists = toFaqLists(
    {
      canonicalLexical: lexical.canonical,
      variantLexical: lexical.variants,
      canonicalVector: vector.canonical,
      variantVector: vectorVariants,
    },
    window.faqs,
    (id) => found.faqs.has(id),
  );
  // Lexical candidates the vector lists did not reach are compared with the query too.
  if (queryVector) {
    const unreached = [...new Set([...lists.canonicalLexical.keys(), ...lists.variantLexical.keys()])].filter(
      (id) => !reachedByVector(lists, id),
    );
    const missing = unreached.filter((id) => !found.cosines.has(id));
    const more = missing.length > 0 ? await source.cosines(queryVector, missing, degrade) : new Map<string, number>();
    for (const id of unreached) {
      const cosine = found.cosines.get(id) ?? more.get(id);
      if (cosine !== undefined) lists.moreCosines.set(id, cosine);
    }
  }
  const ranked = fuseFaqLists(lists, found.faqs, {
    limit: args.limit,
    vectorShare: weights.vector / (weights.vector + weights.bm25),
    calibration: embedder.scale.calibration,
  });
  // Answers are read for the page only (D1: from memory unless the tenant was outlined, row-cache.ts).
  const whole = await found.whole(ranked.map((hit) => hit.faq.id));
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
