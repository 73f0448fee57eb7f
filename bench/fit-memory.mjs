// `npm run fit:memory`: fits the memory ranking's relevance mix (the vector share of seed 000's
// vector + text weight, src/ranking/hybrid.ts) by 5-fold cross-validation over the queries of every
// English set under ../shared/data (or --data DIR …), as `npm run fit:fusion` does for FAQs: folds
// stratified per set, each fold picks the share that maximises the mean over sets of its training
// queries' NDCG@10, and is scored on its held-out queries. Prints every fold, then held-out NDCG@10
// per set with 95% bootstrap intervals next to text-only and vector-only, and seed 000's weights.
//
// Candidates are built as POST /v1/memories/search builds them (src/memories/search.ts): each set's
// corpus stored as question memories of one scope through the real Worker (write-time dedupe
// included: a memory merged from several documents stands for all of them), the FTS5 window of
// the expanded query, the nearest vectors (same window), the union scored with cosines from the
// same model's vectors, recall counts, ages and importance from D1, card answers from the card
// store. `--explore` also prints the other normalisations tried (see README "Quality and speed").
import { basename, resolve } from "node:path";
import { importTs } from "./support/bundle.mjs";
import { defaultSets, setsUnder, loadSet } from "./support/sets.mjs";
import { progress } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, expectOk, startWorker } from "./support/worker.mjs";

const MODEL = "use-lite-512";
const FOLDS = 5;
const SHARES = Array.from({ length: 21 }, (_, i) => i / 20);
const K = 10;
const { bootstrapInterval, scoreQuery } = await importTs(new URL("./support/metrics.ts", import.meta.url));
const lib = await importTs(new URL("./entries/memory-fit.ts", import.meta.url));
const explore = process.argv.includes("--explore");

const dirs = process.argv.includes("--data")
  ? process.argv.flatMap((a, i) => (process.argv[i - 1] === "--data" ? setsUnder(resolve(a)) : []))
  : defaultSets();
// Each set in a Worker of its own (a fresh local D1), as in `npm run eval`: FTS5's bm25 statistics span every tenant's rows.
let worker;
const sets = [];
for (const dir of dirs) {
  const { corpus, queries } = loadSet(dir);
  if (corpus.slice(0, 200).some((d) => lib.containsCjk(d.text))) continue; // the local model embeds English only
  worker = await startWorker();
  try {
    const name = basename(dir);
    console.log(`${name}: ${corpus.length} docs, ${queries.length} queries`);
    sets.push({ name, queries: await collect(name, corpus, queries) });
  } finally {
    await worker.close();
  }
}

async function collect(name, corpus, queries) {
  const { key, tenantId } = await createTenantKey(worker.db, `fit memories ${name}`);
  const api = worker.client(key);
  const scope = `fit:${name}`;
  const contents = corpus.map((d) => d.text.slice(0, 8000));
  const texts = [...contents, ...queries.map((q) => q.text.slice(0, 2000))];
  const vectors = (await embedAll(worker.seedEmbedderUrls, texts, progress("embedding", texts.length))).map(unit);
  await cacheEmbeddings(worker.cache, MODEL, texts, vectors);
  const docsOf = new Map(); // memory id → the documents it stands for (write-time dedupe merges repeats)
  const vectorOf = new Map();
  for (const [i, content] of contents.entries()) {
    const { json } = await expectOk(api.v1.memories.$post({ json: { scope, content, memoryType: "question" } }));
    if (!docsOf.has(json.id)) {
      docsOf.set(json.id, []);
      vectorOf.set(json.id, vectors[i]);
    }
    docsOf.get(json.id).push(corpus[i].id);
  }
  const merged = corpus.length - docsOf.size;
  if (merged > 0) console.log(`  ${merged} documents merged into earlier questions by write-time dedupe (they count where it ranks)`);
  const { results: rows } = await worker.db
    .prepare("SELECT id, created_at, recall_count, importance FROM memories WHERE tenant_id = ?")
    .bind(tenantId)
    .all();
  const rowOf = new Map(rows.map((r) => [r.id, r]));
  const window = lib.MIN_CANDIDATE_WINDOW;
  const now = Date.now();
  const out = [];
  for (const [i, q] of queries.entries()) {
    const qv = vectors[corpus.length + i];
    const cosine = new Map([...vectorOf].map(([id, v]) => [id, dot(qv, v)]));
    const nearest = [...cosine].sort((a, b) => b[1] - a[1]).slice(0, window);
    const lexical = await lexicalWindow(tenantId, scope, q.text.slice(0, 2000), window);
    const cards = await cardIds(tenantId, scope, q.text);
    const lexicalOf = new Map(lexical);
    const ids = [...new Set([...cards, ...lexical.map(([id]) => id), ...nearest.map(([id]) => id)])];
    out.push({
      relevant: q.relevant,
      self: q.id,
      docsOf,
      now,
      candidates: ids.map((id) => {
        const row = rowOf.get(id);
        return {
          id,
          vector: cosine.get(id) ?? null,
          bm25: lexicalOf.get(id) ?? null,
          createdAt: row.created_at,
          recallCount: row.recall_count,
          importance: row.importance,
          bonus: cards.includes(id) ? lib.CARD_BONUS : 0,
        };
      }),
    });
  }
  const withCards = out.filter((q) => q.candidates.some((c) => c.bonus > 0)).length;
  if (withCards > 0) console.log(`  ${withCards} queries have card answers (+${lib.CARD_BONUS} each)`);
  return out;
}

/** NDCG@10 of one query ranked by `rank` (candidates → ids best first). */
function ndcgOf(q, rank) {
  const docs = rank(q.candidates, q.now).flatMap((id) => q.docsOf.get(id) ?? []);
  return scoreQuery(
    docs.filter((id) => id !== q.self),
    q.relevant,
    K,
  ).ndcg;
}

/** The product's ranking with the relevance weight (vector + text, seed 000: 0.60) split at `share`. */
const product = (share) => (candidates, now) =>
  lib
    .rankHybrid(candidates, { now, weights: { vector: lib.RELEVANCE_WEIGHT * share, text: lib.RELEVANCE_WEIGHT * (1 - share) } })
    .map((s) => s.id);
/** Seed 000 as it was: 0.45 / 0.15, the card bonus a plain +0.5 (the product scales it by the relevance weight, 0.60). */
const seed = (candidates, now) =>
  product(0.75)(
    candidates.map((c) => ({ ...c, bonus: (c.bonus ?? 0) / lib.RELEVANCE_WEIGHT })),
    now,
  );
const only = (signal) => (candidates, now) =>
  lib
    .rankHybrid(candidates, { now, weights: { vector: 0, text: 0, recency: 0, frequency: 0, importance: 0, [signal]: 1 } })
    .map((s) => s.id);

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
const fmt = (xs) => {
  const b = bootstrapInterval(xs);
  return `${b.mean.toFixed(3)} [${b.low.toFixed(3)}, ${b.high.toFixed(3)}]`;
};
const signed = (d) => `${d.mean >= 0 ? "+" : ""}${d.mean.toFixed(3)} [${d.low.toFixed(3)}, ${d.high.toFixed(3)}]`;

function crossValidate(label, family) {
  const folds = sets.map((s) => s.queries.map((_, i) => i % FOLDS));
  const heldOut = sets.map((s) => new Array(s.queries.length));
  const table = sets.map((s) => s.queries.map((q) => SHARES.map((share) => ndcgOf(q, family(share)))));
  console.log(`\n${label}: ${FOLDS}-fold cross-validation of the vector share (grid 0..1 by 0.05; objective: mean over sets of NDCG@${K})`);
  console.log(`fold  share  ${sets.map((s) => `${s.name} held-out`.padStart(26)).join("")}`);
  const chosen = [];
  for (let f = 0; f < FOLDS; f++) {
    const train = (j) => mean(sets.map((s, k) => mean(table[k].filter((_, i) => folds[k][i] !== f).map((row) => row[j]))));
    let best = 0;
    for (let j = 1; j < SHARES.length; j++) if (train(j) > train(best)) best = j;
    chosen.push(SHARES[best]);
    const scores = sets.map((s, k) => {
      const held = table[k].map((row, i) => [row, i]).filter(([, i]) => folds[k][i] === f);
      for (const [row, i] of held) heldOut[k][i] = row[best];
      return mean(held.map(([row]) => row[best]));
    });
    console.log(
      `${String(f + 1).padStart(4)}  ${SHARES[best].toFixed(2).padStart(5)}  ${scores.map((x) => x.toFixed(3).padStart(26)).join("")}`,
    );
  }
  const fitted = median(chosen);
  console.log(
    `held-out NDCG@${K} per set (95% bootstrap interval over queries); the fitted share is the median of the folds: ${fitted.toFixed(2)}`,
  );
  for (const [k, s] of sets.entries()) {
    const text = s.queries.map((q) => ndcgOf(q, only("text")));
    const vector = s.queries.map((q) => ndcgOf(q, only("vector")));
    const seeded = s.queries.map((q) => ndcgOf(q, seed));
    const better = mean(text) >= mean(vector) ? text : vector;
    console.log(
      `  ${s.name.padEnd(16)} fitted ${fmt(heldOut[k])}   text ${fmt(text)}   vector ${fmt(vector)}   seed 000 ${fmt(seeded)}   fitted − better single ${signed(bootstrapInterval(heldOut[k], { paired: better }))}`,
    );
  }
  return fitted;
}

crossValidate("raw cosine + BM25 ÷ best, card bonus in relevance units (the product)", product);
if (explore) {
  // Cosines min-max normalised over the candidates (closest 1, farthest 0), as text is by its best match.
  const minMax = (share) => (candidates, now) => {
    const known = candidates.filter((c) => c.vector !== null).map((c) => c.vector);
    const low = Math.min(...known);
    const spread = Math.max(...known) - low || 1;
    return product(share)(
      candidates.map((c) => ({ ...c, vector: c.vector === null ? null : (c.vector - low) / spread })),
      now,
    );
  };
  crossValidate("cosine min-max normalised per query", minMax);
  const noCards = (share) => (candidates, now) =>
    product(share)(
      candidates.map((c) => ({ ...c, bonus: 0 })),
      now,
    );
  crossValidate("without the card bonus", noCards);
}

/** The FTS5 candidates of the memory search: [memory id, bm25], best first. */
async function lexicalWindow(tenantId, scope, text, window) {
  const match = lib.expandQuery(text).orQuery;
  if (!match) return [];
  const { results } = await worker.db
    .prepare(
      `SELECT m.id, bm25(memories_fts) AS rank FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
       WHERE memories_fts MATCH ? AND m.tenant_id = ? AND m.scope = ? ORDER BY rank LIMIT ?`,
    )
    .bind(match, tenantId, scope, window)
    .all();
  return results.map((r) => [r.id, r.rank]);
}

/** Source memories of the current cards that answer the question (the search's card list, default settings). */
async function cardIds(tenantId, scope, text) {
  const slots = lib.slotsForQuestion(text, lib.underlyingQuestionType(text));
  if (slots.length === 0) return [];
  const cards = await lib.lookupCards(worker.db, tenantId, scope, "user", slots);
  return [...new Set(cards.filter((c) => c.confidence >= 0.7).map((c) => c.source_memory_id))];
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
