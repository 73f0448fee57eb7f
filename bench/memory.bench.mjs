// `npm run bench -- memory`: what one Worker isolate holds, against the 128 MB a Worker has
// (src/platform/isolate/memory.ts). The Worker runs as the benchmarks run it (bench/support/worker.mjs) with
// production's cache budget, and its V8 heap is read through the inspector after a full GC:
//   1. a new isolate after its first requests (the code and its tables);
//   2. with a tenant's memories loaded into the exact index (bytes per cached vector, against the
//      budget's accounting), then a tenant's FAQs and variants (vectors and rows);
//   3. during and after 1,000 concurrent requests (the live heap, workerd's RSS, statuses).
// Saves results/memory.json; docs/reports/memory.md is rendered from it. ~3–5 minutes.
//
//   BENCH_MEMORIES=5000 BENCH_FAQS=3000 BENCH_REQUESTS=1000 npm run bench -- memory
import { execFileSync } from "node:child_process";
import { memories, prompts } from "./support/data.mjs";
import { generate, importChunk } from "./support/faq-data.mjs";
import { connect } from "./support/profile.mjs";
import { benchSize, progress, saveResults } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, expectOk, keepAliveFetch, startWorker, storeMemories } from "./support/worker.mjs";
import { importTs } from "./support/bundle.mjs";

const MEMORIES = benchSize("BENCH_MEMORIES", 5000, 100);
const FAQS = benchSize("BENCH_FAQS", 3000, 100);
const STORM = benchSize("BENCH_REQUESTS", 1000, 50);
const PORT = Number(process.env.MEMORY_INSPECTOR_PORT ?? 9231);
const DIMENSIONS = 512;
const MB = 2 ** 20;

const { CACHE_BUDGET, CACHED_BYTES, ISOLATE_BYTES, VECTOR_OVERHEAD_BYTES, vectorBytes } = await importTs(
  new URL("./entries/memory.ts", import.meta.url),
);

/** workerd's resident memory (the Miniflare child process), MB. */
function workerdRss() {
  try {
    const out = execFileSync("ps", ["-o", "rss=,comm=", "--ppid", String(process.pid)], { encoding: "utf8" });
    const kb = out
      .split("\n")
      .filter((line) => /workerd/.test(line))
      .reduce((sum, line) => sum + Number(line.trim().split(/\s+/)[0]), 0);
    return kb / 1024;
  } catch {
    return null;
  }
}

// The production budget: the bench worker raises the exact index's for the FAQ bench; not here.
const worker = await startWorker({ inspectorPort: PORT, bindings: { VECTOR_CACHE_MB: "" } });
let inspector = null;
/** The isolate's heap in MB after a full GC: V8's heap and the array buffers it counts (not WebAssembly memory). */
async function heap() {
  // workerd runs an inspector's GC when the isolate next takes a request: a /healthz wakes it.
  const collected = inspector.send("HeapProfiler.collectGarbage");
  await new Promise((resolve) => setTimeout(resolve, 50));
  // Under the burst workerd may reset the connection (the local runtime's, see docs/design/measuring.md): wake it again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const woke = await keepAliveFetch(`${worker.url}/healthz`).then(
      () => true,
      () => false,
    );
    if (woke) break;
  }
  // A GC the isolate never got to is not waited for forever.
  const timedOut = await Promise.race([collected.then(() => false), new Promise((resolve) => setTimeout(resolve, 10_000, true))]);
  if (timedOut) throw new Error("the inspector's GC did not run within 10 s");
  const { result } = await inspector.send("Runtime.getHeapUsage");
  const js = result.usedSize / MB;
  const buffers = (result.backingStorageSize ?? 0) / MB;
  return { js, buffers, total: js + buffers };
}
async function attach() {
  inspector?.close();
  inspector = await connect(PORT);
  await inspector.send("HeapProfiler.enable");
}

try {
  const { key } = await createTenantKey(worker.db, "memory-bench");
  const api = worker.client(key);

  // Seeding: the texts' vectors go into the Worker's KV cache first, so the writes do not wait on the model.
  const memoryBodies = memories(MEMORIES).map((m) => ({ ...m, scope: "user:memory-bench" }));
  const faqs = generate(FAQS);
  const texts = [...memoryBodies.map((m) => m.content), ...faqs.flatMap((f) => [f.question, ...f.variants])];
  await cacheEmbeddings(
    worker.cache,
    "use-lite-512",
    texts,
    await embedAll(worker.seedEmbedderUrls, texts, progress("embed", texts.length)),
  );
  await storeMemories(api, memoryBodies, progress("memories", memoryBodies.length));
  for (let i = 0; i < FAQS; i += 1000) await importChunk(api, faqs.slice(i, i + 1000));
  console.error("  seeded; a new isolate over the data…");

  // 1. A new isolate over that data, after one request of each kind on an empty tenant.
  await worker.restart();
  await attach();
  const empty = worker.client((await createTenantKey(worker.db, "memory-empty")).key);
  const started = await heap();
  await expectOk(empty.healthz.$get());
  await expectOk(empty.v1.context.$post({ json: { scope: "s", prompt: "How do I deploy the worker?" } }));
  await expectOk(empty.v1.faqs.search.$post({ json: { query: "How do refunds work?" } }));
  await expectOk(empty.v1.memories.$post({ json: { scope: "s", content: "I deploy with wrangler", memoryType: "fact" } }));
  await expectOk(empty.v1.questions.similar.$post({ json: { scope: "s", text: "How do I deploy?" } }));
  const warm = await heap();

  // 2. The exact index loads the tenant's memories on its first memory search: its bytes per vector.
  await expectOk(api.v1.memories.search.$post({ json: { scope: "user:memory-bench", query: "where do I deploy?" } }));
  const withMemories = await heap();
  // The JavaScript side of a cached vector (id, metadata, slot) is in V8's heap. Its WebAssembly row
  // is not counted there; it is allocated as counted (ScanMemory: capacity × slotBytes, in 64 KB pages).
  const jsPerVector = ((withMemories.js - warm.js) * MB) / MEMORIES;
  // FAQ search loads both FAQ collections (FAQS + 3 × FAQS vectors) and the tenant's rows.
  for (let i = 0; i < 3; i++) await expectOk(api.v1.faqs.search.$post({ json: { query: `how to export the invoice ${i}` } }));
  const withFaqs = await heap();
  const faqVectors = FAQS * 4;
  const faqRowsMB = withFaqs.js - withMemories.js - (faqVectors * jsPerVector) / MB;

  console.error("  caches measured; the burst…");
  // 3. A burst: STORM requests at once, half context, half FAQ search, each with a new text (the model runs).
  const fresh = prompts(STORM, texts);
  const statuses = {};
  let peakLive = 0;
  let peakRss = 0;
  let sampling = true;
  const rssBefore = workerdRss();
  // What a full GC leaves while the requests are in flight: what they hold. (Each sample waits for a
  // request to wake the isolate, queued behind the burst, so there are a few.)
  const sampler = (async () => {
    while (sampling) {
      peakLive = Math.max(peakLive, (await heap()).total);
      peakRss = Math.max(peakRss, workerdRss() ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  const stormStarted = performance.now();
  await Promise.all(
    fresh.map(async (text, i) => {
      const res = await (
        i % 2 === 0
          ? api.v1.context.$post({ json: { scope: "user:memory-bench", prompt: text } })
          : api.v1.faqs.search.$post({ json: { query: text } })
      ).catch((error) => ({ status: error.code ?? error.name }));
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      await res.text?.();
    }),
  );
  const stormSeconds = (performance.now() - stormStarted) / 1000;
  sampling = false;
  await sampler;
  const afterStorm = await heap();

  const budget = {
    isolateMB: ISOLATE_BYTES / MB,
    cachesMB: CACHED_BYTES / MB,
    vectorSnapshotsMB: CACHE_BUDGET.vectorSnapshots / MB,
    faqRowsMB: CACHE_BUDGET.faqRows / MB,
    recentEmbeddingsMB: CACHE_BUDGET.recentEmbeddings / MB,
  };
  const result = {
    dimensions: DIMENSIONS,
    memories: MEMORIES,
    faqs: FAQS,
    storm: STORM,
    budget,
    heapMB: { started, warm, withMemories, withFaqs, afterStorm, peakLiveDuringStorm: peakLive },
    perVector: { jsBytes: jsPerVector, accountedJsBytes: VECTOR_OVERHEAD_BYTES, accountedBytes: vectorBytes(DIMENSIONS) },
    faqRowsMB,
    stormSeconds,
    statuses,
    workerdRssMB: { before: rssBefore, peakDuringStorm: peakRss, after: workerdRss() },
  };
  const f = (x) => x.toFixed(1);
  console.log(`\nBudget: caches ${f(budget.cachesMB)} MB of the isolate's ${budget.isolateMB} MB`);
  console.log(
    `  new isolate: ${f(started.total)} MB; after one request of each kind: ${f(warm.total)} MB (JS ${f(warm.js)}, buffers ${f(warm.buffers)})`,
  );
  console.log(
    `  ${MEMORIES} memory vectors cached: JS heap +${f(withMemories.js - warm.js)} MB, ${jsPerVector.toFixed(0)} bytes a vector (the budget counts ${VECTOR_OVERHEAD_BYTES}, and ${vectorBytes(DIMENSIONS)} with the WebAssembly row)`,
  );
  console.log(
    `  ${FAQS} FAQs + ${FAQS * 3} variants searched: +${f(withFaqs.total - withMemories.total)} MB, of which rows ~${f(faqRowsMB)} MB`,
  );
  console.log(
    `  ${STORM} concurrent requests in ${f(stormSeconds)} s: heap ${f(peakLive)} MB live at its highest sample, ${f(afterStorm.total)} MB after; workerd RSS ${f(rssBefore)} → peak ${f(peakRss)} MB; statuses ${JSON.stringify(statuses)}`,
  );
  console.log(`saved ${saveResults("memory", result)}`);
} finally {
  inspector?.close();
  await worker.close();
}
