// `npm run fit:memory`: fits the memory ranking's relevance mix (the vector share of seed 000's
// vector + text weight, src/core/ranking/hybrid.ts) by 5-fold cross-validation over the queries of every
// English set under ../shared/data (or --data DIR …), as `npm run fit:fusion` does for FAQs: folds
// stratified per set, each fold picks the share that maximises the mean over sets of its training
// queries' NDCG@10, and is scored on its held-out queries. Prints every fold, then held-out NDCG@10
// per set with 95% bootstrap intervals next to text-only and vector-only, and seed 000's weights.
//
// Candidates are built as POST /v1/memories/search builds them (src/features/memories/search.ts): each set's
// corpus stored as question memories of one scope through the real Worker (write-time dedupe
// included: a memory merged from several documents stands for all of them), the FTS5 window of
// the expanded query, the nearest vectors (same window), the union scored with cosines from the
// same model's vectors, recall counts, ages and importance from D1, card answers from the card
// store. `--explore` also prints the other normalisations tried (see docs/design/ranking-and-decisions.md).
import { importTs } from "./support/bundle.mjs";
import { better, collectSets, crossValidateShare, dot, interval, K, pairedGain, unit } from "./support/cv.mjs";
import { progress } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, expectOk } from "./support/worker.mjs";

const MODEL = "use-lite-512";
const { scoreQuery } = await importTs(new URL("./support/metrics.ts", import.meta.url));
const lib = await importTs(new URL("./entries/memory-fit.ts", import.meta.url));
const explore = process.argv.includes("--explore");

const sets = await collectSets(process.argv, lib.containsCjk, collect);

async function collect(worker, name, corpus, queries) {
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
    const lexical = await lexicalWindow(worker, tenantId, scope, q.text.slice(0, 2000), window);
    const cards = await cardIds(worker, tenantId, scope, q.text);
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

function crossValidate(label, family) {
  return crossValidateShare(
    sets,
    label,
    (q, share) => ndcgOf(q, family(share)),
    (s, k, heldOut) => {
      const text = s.queries.map((q) => ndcgOf(q, only("text")));
      const vector = s.queries.map((q) => ndcgOf(q, only("vector")));
      const seeded = s.queries.map((q) => ndcgOf(q, seed));
      console.log(
        `  ${s.name.padEnd(16)} fitted ${interval(heldOut)}   text ${interval(text)}   vector ${interval(vector)}   seed 000 ${interval(seeded)}   fitted − better single ${pairedGain(heldOut, better(text, vector))}`,
      );
    },
  );
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
async function lexicalWindow(worker, tenantId, scope, text, window) {
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
async function cardIds(worker, tenantId, scope, text) {
  const slots = lib.slotsForQuestion(text, lib.underlyingQuestionType(text));
  if (slots.length === 0) return [];
  const cards = await lib.lookupCards(worker.db, tenantId, scope, "user", slots);
  return [...new Set(cards.filter((c) => c.confidence >= 0.7).map((c) => c.source_memory_id))];
}
