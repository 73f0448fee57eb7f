// `npm run fit:fusion`: fits the FAQ search's fusion parameter (the vector share of
// src/core/ranking/fusion.ts) by 5-fold cross-validation over the queries of every English set under
// ../shared/data (or --data DIR …). Folds are stratified per set; each fold picks the share that
// maximises the mean over sets of the training queries' NDCG@10 (so a large set cannot decide
// for a small one), and is scored on its held-out queries. It prints every fold, then the
// held-out NDCG@10 per set with 95% bootstrap intervals next to lexical-only and vector-only.
//
// Candidates are built as the search builds them (src/features/faqs/search.ts): the FTS5 window ranked by
// bm25 with the question/answer column weights, the nearest canonical questions above the
// calibrated floor, each candidate scored on −bm25 and raw cosine. The corpus goes through the
// real import (D1 FTS5); cosines are computed here from the same model's vectors. The defaults
// it prints are then checked end to end through the Worker by `npm run eval`.
import { importTs } from "./support/bundle.mjs";
import { better, collectSets, crossValidateShare, dot, interval, K, pairedGain, unit } from "./support/cv.mjs";
import { importCorpus } from "./support/sets.mjs";
import { progress } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll } from "./support/worker.mjs";

const MODEL = "use-lite-512";
const { scoreQuery } = await importTs(new URL("./support/metrics.ts", import.meta.url));
const lib = await importTs(new URL("./entries/fusion.ts", import.meta.url));
const calibration = lib.calibrationFor(MODEL);

const sets = await collectSets(process.argv, lib.containsCjk, async (worker, name, corpus, queries) => {
  const { key, tenantId } = await createTenantKey(worker.db, `fit ${name}`);
  const texts = [...corpus.map((d) => d.text), ...queries.map((q) => q.text)];
  const vectors = (await embedAll(worker.seedEmbedderUrls, texts, progress("embedding", texts.length))).map(unit);
  await cacheEmbeddings(worker.cache, MODEL, texts, vectors);
  const faqToDoc = await importCorpus(worker, key, corpus);
  const docVectors = vectors.slice(0, corpus.length);
  const perQuery = [];
  for (const [i, q] of queries.entries()) {
    const queryVector = vectors[corpus.length + i];
    const cosine = new Map(corpus.map((d, j) => [d.id, dot(queryVector, docVectors[j])]));
    perQuery.push({ relevant: q.relevant, lexical: await lexicalWindow(worker, tenantId, q.text, faqToDoc), cosine });
  }
  return perQuery;
});

/** The search's own candidate parameters; `--explore` varies them (one at a time, each with its share cross-validated). */
const PRODUCT = { window: lib.FAQ_SEARCH.minWindow, floor: lib.FAQ_SEARCH.vectorMinSimilarity, fuse: lib.fuseScores };

/** NDCG@10 of one query's fused ranking at a vector share (0: lexical only, 1: vector only). */
function ndcgAt(q, share, { window, floor, fuse } = PRODUCT) {
  const lexical = share < 1 ? q.lexical.slice(0, window) : [];
  const nearest =
    share > 0
      ? [...q.cosine]
          .sort((a, b) => b[1] - a[1])
          .filter(([, c]) => lib.calibrate(c, calibration) >= floor)
          .slice(0, window)
      : [];
  const lexicalOf = new Map(lexical);
  const ids = [...new Set([...lexical.map(([id]) => id), ...nearest.map(([id]) => id)])];
  const fused = fuse(
    ids.map((id) => ({ id, lexical: lexicalOf.get(id) ?? 0, cosine: share > 0 ? q.cosine.get(id) : null })),
    share,
  );
  return scoreQuery(
    fused.map((h) => h.id),
    q.relevant,
    K,
  ).ndcg;
}

const lexicalOnly = sets.map((s) => s.queries.map((q) => ndcgAt(q, 0)));
const vectorOnly = sets.map((s) => s.queries.map((q) => ndcgAt(q, 1)));

function crossValidate(label, config) {
  crossValidateShare(
    sets,
    label,
    (q, share) => ndcgAt(q, share, config),
    (s, k, heldOut) =>
      console.log(
        `  ${s.name.padEnd(16)} fused ${interval(heldOut)}   lexical ${interval(lexicalOnly[k])}   vector ${interval(vectorOnly[k])}   fused − better single ${pairedGain(heldOut, better(lexicalOnly[k], vectorOnly[k]))}`,
      ),
  );
}

crossValidate(`the search's fusion (z-scores, window ${PRODUCT.window}, vector floor ${PRODUCT.floor})`, PRODUCT);
if (process.argv.includes("--explore")) {
  for (const floor of [0, 0.3, 0.4, 0.6]) crossValidate(`vector floor ${floor}`, { ...PRODUCT, floor });
  for (const window of [20, 60, 80]) crossValidate(`window ${window}`, { ...PRODUCT, window });
  crossValidate("min-max instead of z-scores", { ...PRODUCT, fuse: minMaxFusion });
  crossValidate("z-scores of log(1 + −bm25)", {
    ...PRODUCT,
    fuse: (c, share) =>
      lib.fuseScores(
        c.map((x) => ({ ...x, lexical: Math.log1p(x.lexical) })),
        share,
      ),
  });
}

/** Exploration only: each signal min-max scaled over the candidates, then mixed. */
function minMaxFusion(candidates, share) {
  const scale = (values) => {
    const known = values.filter((v) => v !== null && v !== undefined);
    const low = Math.min(...known);
    const spread = Math.max(...known) - low;
    return values.map((v) => (v === null || v === undefined || !(spread > 0) ? 0 : (v - low) / spread));
  };
  const lexical = scale(candidates.map((c) => c.lexical));
  const cosine = scale(candidates.map((c) => c.cosine));
  return candidates.map((c, i) => ({ id: c.id, score: share * cosine[i] + (1 - share) * lexical[i] })).sort((a, b) => b.score - a.score);
}

/** The FTS5 candidates of the search's canonical list: [document id, −bm25], best first. */
async function lexicalWindow(worker, tenantId, text, faqToDoc) {
  const match = lib.expandQuery(text).orQuery;
  if (!match) return [];
  const { results } = await worker.db
    .prepare(
      `SELECT f.id, -bm25(faqs_fts, ${lib.FAQ_SEARCH.columnWeights.question.toFixed(1)}, ${lib.FAQ_SEARCH.columnWeights.answer.toFixed(1)}) AS score FROM faqs_fts JOIN faqs f ON f.seq = faqs_fts.rowid
       WHERE faqs_fts MATCH ? AND f.tenant_id = ? AND f.deleted_at IS NULL ORDER BY bm25(faqs_fts, ${lib.FAQ_SEARCH.columnWeights.question.toFixed(1)}, ${lib.FAQ_SEARCH.columnWeights.answer.toFixed(1)}) LIMIT ?`,
    )
    .bind(match, tenantId, Math.max(80, lib.FAQ_SEARCH.minWindow))
    .all();
  return results.map((r) => [faqToDoc.get(r.id), r.score]);
}
