// `npm run fit:fusion`: fits the FAQ search's fusion parameter (the vector share of
// src/ranking/fusion.ts) by 5-fold cross-validation over the queries of every English set under
// ../shared/data (or --data DIR …). Folds are stratified per set; each fold picks the share that
// maximises the mean over sets of the training queries' NDCG@10 (so a large set cannot decide
// for a small one), and is scored on its held-out queries. It prints every fold, then the
// held-out NDCG@10 per set with 95% bootstrap intervals next to lexical-only and vector-only.
//
// Candidates are built as the search builds them (src/faqs/search.ts): the FTS5 window ranked by
// bm25 with the question/answer column weights, the nearest canonical questions above the
// calibrated floor, each candidate scored on −bm25 and raw cosine. The corpus goes through the
// real import (D1 FTS5); cosines are computed here from the same model's vectors. The defaults
// it prints are then checked end to end through the Worker by `npm run eval`.
import { basename, resolve } from "node:path";
import { importTs } from "./support/bundle.mjs";
import { defaultSets, importCorpus, loadSet } from "./support/sets.mjs";
import { progress } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, startWorker } from "./support/worker.mjs";

const MODEL = "use-lite-512";
const FOLDS = 5;
const SHARES = Array.from({ length: 21 }, (_, i) => i / 20);
const K = 10;
const { bootstrapInterval, scoreQuery } = await importTs(new URL("./support/metrics.ts", import.meta.url));
const lib = await importTs(new URL("./entries/fusion.ts", import.meta.url));
const calibration = lib.calibrationFor(MODEL);

const dirs = process.argv.includes("--data")
  ? process.argv.flatMap((a, i) => (process.argv[i - 1] === "--data" ? [resolve(a)] : []))
  : defaultSets();
const worker = await startWorker();
const sets = [];
try {
  for (const dir of dirs) {
    const { corpus, queries } = loadSet(dir);
    if (corpus.slice(0, 200).some((d) => lib.containsCjk(d.text))) continue; // the local model embeds English only
    const name = basename(dir);
    console.log(`${name}: ${corpus.length} docs, ${queries.length} queries`);
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
      perQuery.push({ relevant: q.relevant, lexical: await lexicalWindow(tenantId, q.text, faqToDoc), cosine });
    }
    sets.push({ name, queries: perQuery });
  }
} finally {
  await worker.close();
}

/** NDCG@10 of one query's fused ranking at a vector share (0: lexical only, 1: vector only). */
function ndcgAt(q, share) {
  const window = lib.MIN_FAQ_WINDOW;
  const lexical = share < 1 ? q.lexical.slice(0, window) : [];
  const nearest =
    share > 0
      ? [...q.cosine]
          .sort((a, b) => b[1] - a[1])
          .filter(([, c]) => lib.calibrate(c, calibration) >= lib.VECTOR_MIN_SIMILARITY)
          .slice(0, window)
      : [];
  const lexicalOf = new Map(lexical);
  const ids = [...new Set([...lexical.map(([id]) => id), ...nearest.map(([id]) => id)])];
  const fused = lib.fuseScores(
    ids.map((id) => ({ id, lexical: lexicalOf.get(id) ?? 0, cosine: share > 0 ? q.cosine.get(id) : null })),
    share,
  );
  return scoreQuery(
    fused.map((h) => h.id),
    q.relevant,
    K,
  ).ndcg;
}

const folds = sets.map((s) => s.queries.map((_, i) => i % FOLDS));
const heldOut = sets.map((s) => new Array(s.queries.length));
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
console.log(
  `\n${FOLDS}-fold cross-validation of the vector share (grid ${SHARES[0]}..${SHARES.at(-1)} by 0.05; objective: mean over sets of NDCG@${K})`,
);
console.log(`fold  share  ${sets.map((s) => `${s.name} held-out`.padStart(26)).join("")}`);
const chosen = [];
for (let f = 0; f < FOLDS; f++) {
  const train = (share) => mean(sets.map((s, k) => mean(s.queries.filter((_, i) => folds[k][i] !== f).map((q) => ndcgAt(q, share)))));
  const best = SHARES.reduce((a, b) => (train(b) > train(a) ? b : a));
  chosen.push(best);
  const scores = sets.map((s, k) => {
    const held = s.queries.map((q, i) => [q, i]).filter(([, i]) => folds[k][i] === f);
    for (const [q, i] of held) heldOut[k][i] = ndcgAt(q, best);
    return mean(held.map(([, i]) => heldOut[k][i]));
  });
  console.log(`${String(f + 1).padStart(4)}  ${best.toFixed(2).padStart(5)}  ${scores.map((x) => x.toFixed(3).padStart(26)).join("")}`);
}
console.log(
  `\nheld-out NDCG@${K} per set (95% bootstrap interval over queries) against single modes; the fitted share is the median of the folds: ${median(chosen).toFixed(2)}`,
);
for (const [k, s] of sets.entries()) {
  const lexical = s.queries.map((q) => ndcgAt(q, 0));
  const vector = s.queries.map((q) => ndcgAt(q, 1));
  const fmt = (xs) => {
    const b = bootstrapInterval(xs);
    return `${b.mean.toFixed(3)} [${b.low.toFixed(3)}, ${b.high.toFixed(3)}]`;
  };
  const better = mean(lexical) >= mean(vector) ? lexical : vector;
  const gain = bootstrapInterval(heldOut[k], { paired: better });
  console.log(
    `  ${s.name.padEnd(16)} fused ${fmt(heldOut[k])}   lexical ${fmt(lexical)}   vector ${fmt(vector)}   fused − better single ${gain.mean >= 0 ? "+" : ""}${gain.mean.toFixed(3)} [${gain.low.toFixed(3)}, ${gain.high.toFixed(3)}]`,
  );
}

/** The FTS5 candidates of the search's canonical list: [document id, −bm25], best first. */
async function lexicalWindow(tenantId, text, faqToDoc) {
  const match = lib.expandQuery(text).orQuery;
  if (!match) return [];
  const { results } = await worker.db
    .prepare(
      `SELECT f.id, -bm25(faqs_fts, ${lib.QUESTION_COLUMN_WEIGHT.toFixed(1)}, ${lib.ANSWER_COLUMN_WEIGHT.toFixed(1)}) AS score FROM faqs_fts JOIN faqs f ON f.seq = faqs_fts.rowid
       WHERE faqs_fts MATCH ? AND f.tenant_id = ? AND f.deleted_at IS NULL ORDER BY bm25(faqs_fts, ${lib.QUESTION_COLUMN_WEIGHT.toFixed(1)}, ${lib.ANSWER_COLUMN_WEIGHT.toFixed(1)}) LIMIT ?`,
    )
    .bind(match, tenantId, lib.MIN_FAQ_WINDOW)
    .all();
  return results.map((r) => [faqToDoc.get(r.id), r.score]);
}

function unit(v) {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}

function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
