// /v1/context latency with 10,000 memories in one scope, through the real Worker (Miniflare,
// local D1/KV, exact vector index, the real local embedder), split into embedding time (the
// Worker's own Server-Timing) and the rest. Targets for the rest: p50 ≤ 15 ms, p95 ≤ 40 ms.
//
// Seeding goes through POST /v1/memories too; to keep it to about a minute, the texts are first
// embedded in batches and put in the Worker's own embedding cache (KV, emb:v1:…), which the
// write path then reads instead of calling the model one text at a time.
import { memories, prompts } from "./support/data.mjs";
import { benchSize, percentiles, progress, saveResults } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, expectOk, startWorker, storeMemories } from "./support/worker.mjs";

const MEMORIES = benchSize("BENCH_MEMORIES", 10_000, 100);
const REQUESTS = benchSize("BENCH_REQUESTS", 200, 10);
const SCOPE = "bench:user";
const MODEL = "use-lite-512";

const worker = await startWorker();
// A minted key, as a deployment's callers have (the local dev key is looked up in D1 on every request; see principalForKey).
const api = worker.client((await createTenantKey(worker.db, "context bench")).key);
try {
  const data = memories(MEMORIES);
  const questions = prompts(
    REQUESTS,
    data.map((m) => m.content),
  );
  console.log(`\n/v1/context with ${MEMORIES.toLocaleString("en")} memories in one scope`);

  const texts = [...data.map((m) => m.content), ...questions];
  const vectors = await embedAll(worker.seedEmbedderUrls, texts, progress("embedding", texts.length));
  const embedStart = performance.now();
  await embedAll(worker.embedderUrl, questions.slice(0, 64));
  const batchMs = performance.now() - embedStart;
  await cacheEmbeddings(
    worker.cache,
    MODEL,
    data.map((m) => m.content),
    vectors,
    progress("caching embeddings", data.length),
  );

  const seeded = progress("storing memories", data.length);
  const seedStart = performance.now();
  await storeMemories(
    api,
    data.map((m) => ({ scope: SCOPE, ...m })),
    seeded,
  );
  const seedSeconds = (performance.now() - seedStart) / 1000;

  // First query loads the vector snapshot; measured apart.
  const first = performance.now();
  await expectOk(api.v1.context.$post({ json: { scope: SCOPE, prompt: "How do I deploy the billing service with Postgres?" } }));
  const coldMs = performance.now() - first;

  const total = [];
  const embed = [];
  const rest = [];
  const inWorker = [];
  const harness = [];
  for (const prompt of questions) {
    const start = performance.now();
    const { headers } = await expectOk(api.v1.context.$post({ json: { scope: SCOPE, prompt } }));
    const wall = performance.now() - start;
    const timing = Object.fromEntries(
      (headers.get("server-timing") ?? "").split(",").map((part) => {
        const [name, dur] = part.trim().split(";dur=");
        return [name, Number(dur)];
      }),
    );
    total.push(wall);
    embed.push(timing.embed);
    rest.push(wall - timing.embed);
    // Server-Timing `app`: the Worker's whole time on the request; the rest of the wall time is the client's and the loopback's.
    inWorker.push(timing.app - timing.embed);
    harness.push(wall - timing.app);
  }
  const cardTimes = [];
  for (let i = 0; i < REQUESTS; i++) {
    const slot = ["location", "employer", "user_type"][i % 3];
    const start = performance.now();
    await expectOk(api.v1.cards.$get({ query: { scope: SCOPE, entity: "user", slot, limit: "10" } }));
    cardTimes.push(performance.now() - start);
  }
  const [t, e, r, c] = [percentiles(total), percentiles(embed), percentiles(rest), percentiles(cardTimes)];
  const [w, h] = [percentiles(inWorker), percentiles(harness)];
  const f = (x) => `${x.toFixed(1)} ms`;
  console.log(
    `  seeding: ${MEMORIES} memories in ${seedSeconds.toFixed(1)} s (${(MEMORIES / seedSeconds).toFixed(0)}/s, embeddings from cache)`,
  );
  console.log(`  first call (loads the vector snapshot): ${f(coldMs)}`);
  console.log(`  ${REQUESTS} calls, uncached prompts:      p50       p95       p99`);
  console.log(`    total (client wall)          ${f(t.p50).padStart(9)} ${f(t.p95).padStart(9)} ${f(t.p99).padStart(9)}`);
  console.log(`    embedding (Server-Timing)    ${f(e.p50).padStart(9)} ${f(e.p95).padStart(9)} ${f(e.p99).padStart(9)}`);
  console.log(
    `    the rest                     ${f(r.p50).padStart(9)} ${f(r.p95).padStart(9)} ${f(r.p99).padStart(9)}   (target p50 ≤ 15 ms, p95 ≤ 40 ms)`,
  );
  console.log(
    `      of which in the Worker (Server-Timing app − embed) ${f(w.p50)} / ${f(w.p95)}, in the harness (client wall − app) ${f(h.p50)} / ${f(h.p95)} (p50 / p95)`,
  );
  console.log(`  card lookup (GET /v1/cards, one slot) ${f(c.p50).padStart(9)} ${f(c.p95).padStart(9)} ${f(c.p99).padStart(9)}`);
  console.log(`  for scale: one batch of 64 embeddings takes ${f(batchMs)} on this machine`);
  saveResults("context", {
    memories: MEMORIES,
    requests: REQUESTS,
    seedSeconds,
    coldMs,
    total: t,
    embedding: e,
    rest: r,
    inWorker: w,
    harness: h,
    cardLookup: c,
  });
} finally {
  await worker.close();
}
