// Where a FAQ search's time goes inside the Worker: a V8 CPU profile (through Miniflare's
// inspector) of PROFILE_REQUESTS searches over a tenant of PROFILE_FAQS FAQs (3 variants each, the FAQ bench's),
// printed as the functions with the most self and inclusive time (and who called them), with the
// searches' Server-Timing spans. Not a benchmark (`npm run bench` does not run it):
// `node bench/profile-search.mjs`, ~2 min.
//   PROFILE_FAQS=1000 PROFILE_REQUESTS=200 PROFILE_MODE=hybrid|lexical|vector PROFILE_PORT=9229 PROFILE_INTERVAL_US=100
import { profile, serverTiming, summarise } from "./support/profile.mjs";
import { percentiles } from "./support/stats.mjs";
import { generate, importChunk, queriesFor } from "./support/faq-data.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, expectOk, startWorker } from "./support/worker.mjs";

const FAQS = Number(process.env.PROFILE_FAQS ?? 1000);
const REQUESTS = Number(process.env.PROFILE_REQUESTS ?? 200);
const MODE = process.env.PROFILE_MODE ?? "hybrid";
const PORT = Number(process.env.PROFILE_PORT ?? 9229);
const WEIGHTS = { hybrid: undefined, lexical: { bm25: 1, vector: 0 }, vector: { bm25: 0, vector: 1 } };
if (!(MODE in WEIGHTS)) throw new Error(`PROFILE_MODE must be one of ${Object.keys(WEIGHTS).join(", ")}`);

const faqs = generate(FAQS);
// The FAQ bench's queries: paraphrases in new wording (embedded by the model) and reference codes.
const queries = queriesFor(faqs, FAQS, REQUESTS).map((q) => q.text);

const worker = await startWorker({ helperEmbedder: false, inspectorPort: PORT });
try {
  const { key } = await createTenantKey(worker.db, "profile");
  const api = worker.client(key);
  const texts = faqs.flatMap((f) => [f.question, ...f.variants]);
  await cacheEmbeddings(worker.cache, "use-lite-512", texts, await embedAll(worker.embedderUrl, texts));
  for (let i = 0; i < FAQS; i += 1000) await importChunk(api, faqs.slice(i, i + 1000));
  const search = (query) => expectOk(api.v1.faqs.search.$post({ json: { query, limit: 10, weights: WEIGHTS[MODE] } }));
  for (let i = 0; i < 20; i++) await search(`warm up ${i}`);

  const wall = [];
  const spans = new Map();
  const cpu = await profile(PORT, async () => {
    for (const query of queries) {
      const start = performance.now();
      const { headers } = await search(query);
      wall.push(performance.now() - start);
      for (const [name, ms] of Object.entries(serverTiming(headers))) spans.set(name, [...(spans.get(name) ?? []), ms]);
    }
  });
  const p = percentiles(wall);
  console.log(
    `${REQUESTS} ${MODE} searches over ${FAQS} FAQs: wall p50 ${p.p50.toFixed(1)} ms, p95 ${p.p95.toFixed(1)} ms (profiler attached: slower than a bench)`,
  );
  for (const [name, ms] of spans)
    console.log(`  Server-Timing ${name}: p50 ${percentiles(ms).p50.toFixed(1)} ms, p95 ${percentiles(ms).p95.toFixed(1)} ms`);
  console.log(summarise(cpu, REQUESTS));
} finally {
  await worker.close();
}
