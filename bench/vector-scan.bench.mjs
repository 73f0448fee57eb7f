// The exact index's in-memory scan (src/vectors/snapshot.ts) at 1k, 10k, 40k and 100k vectors of
// 512 dimensions: the two-stage scan (sign codes, then float32 rescoring) against the full
// float32 scan, per query, and the two-stage scan's recall of the float ranking. Vectors are
// real USE-lite embeddings of the benchmark's memory texts (up to 12k, embedded once and kept
// under results/cache/); the 40k and 100k collections add blends of two real vectors
// (normalize(0.7·a + 0.3·b)), so their neighbourhoods look like the real ones'. Queries are 200
// unseen questions, embedded by the same model.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startLocalEmbedder } from "../scripts/local-embedder.mjs";
import { importTs } from "./support/bundle.mjs";
import { memories, prng, prompts } from "./support/data.mjs";
import { percentiles, progress, saveResults } from "./support/stats.mjs";
import { embedAll } from "./support/worker.mjs";

const REAL = 12_000;
const QUERIES = 200;
const SIZES = [1_000, 10_000, 40_000, 100_000];
const DIMENSIONS = 512;
const { VectorSnapshot, rescoreDepth } = await importTs(new URL("./entries/vectors.ts", import.meta.url));

const { corpus, queries } = await embeddings();
console.log(
  `\nVector scan, ${DIMENSIONS}-d, ${QUERIES} queries per size (real USE-lite embeddings; 40k and 100k add blends of real vectors)`,
);
console.log("  vectors   float32 scan p50 / p95     two-stage p50 / p95     speed-up   recall@10  recall@60 (of the float ranking)");
const rows = [];
const r = prng(4242);
for (const size of SIZES) {
  const snapshot = new VectorSnapshot(DIMENSIONS, "bench", 1, size);
  for (let i = 0; i < size; i++) {
    const vector = i < corpus.length ? corpus[i] : blend(corpus[Math.floor(r() * corpus.length)], corpus[Math.floor(r() * corpus.length)]);
    snapshot.upsert(`v${i}`, vector, {});
  }
  const float = [];
  const twoStage = [];
  const recall = { 10: 0, 60: 0 };
  for (let round = 0; round < 2; round++) {
    for (const q of queries) {
      let start = performance.now();
      const exact = snapshot.exactQuery(q, 60);
      const floatMs = performance.now() - start;
      start = performance.now();
      snapshot.query(q, 60);
      const twoStageMs = performance.now() - start;
      if (round === 0) continue; // the first round warms the JIT
      float.push(floatMs);
      twoStage.push(twoStageMs);
      for (const k of [10, 60]) {
        const ids = new Set(snapshot.query(q, k).map((m) => m.id));
        recall[k] += exact.slice(0, k).filter((m) => ids.has(m.id)).length / k / queries.length;
      }
    }
  }
  const [f, t] = [percentiles(float), percentiles(twoStage)];
  const ms = (x) => `${x.toFixed(2)} ms`;
  console.log(
    `  ${String(size).padStart(7)}   ${ms(f.p50).padStart(9)} / ${ms(f.p95).padStart(9)}    ${ms(t.p50).padStart(9)} / ${ms(t.p95).padStart(9)}    ${(f.p50 / t.p50).toFixed(1).padStart(6)}×   ${recall[10].toFixed(4).padStart(8)}   ${recall[60].toFixed(4).padStart(8)}`,
  );
  rows.push({ size, float: f, twoStage: t, recall10: recall[10], recall60: recall[60] });
}
console.log(
  `  (topK 60 = the FAQ variant list's window; the two-stage scan rescores ${rescoreDepth(60)} vectors for it, ${rescoreDepth(10)} for topK 10; up to 2,048 vectors it is a float scan)`,
);
saveResults("vector-scan", { dimensions: DIMENSIONS, queries: QUERIES, rows });

function blend(a, b) {
  const out = a.map((x, i) => 0.7 * x + 0.3 * b[i]);
  const norm = Math.hypot(...out) || 1;
  return out.map((x) => x / norm);
}

/** Real embeddings of the corpus and the queries, embedded once and kept under results/cache/. */
async function embeddings() {
  const file = join(dirname(fileURLToPath(import.meta.url)), "..", "results", "cache", `vector-scan-${REAL}-${QUERIES}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  const texts = memories(REAL, 99).map((m) => m.content);
  const questions = prompts(QUERIES, texts, 123);
  const embedder = await startLocalEmbedder();
  try {
    const corpus = await embedAll([embedder.url], texts, progress("embedding the corpus", texts.length));
    const queries = await embedAll([embedder.url], questions);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ corpus, queries }));
    return { corpus, queries };
  } finally {
    embedder.server.close();
  }
}
