// Where a /v1/context call's time goes inside the Worker: Server-Timing spans
// and a V8 CPU profile (through Miniflare's inspector) of PROFILE_REQUESTS calls over
// PROFILE_MEMORIES memories in one scope, each prompt new (embedded by the model), as in
// bench/context.bench.mjs. Not a benchmark (`npm run bench` does not run it):
// `node bench/profile-context.mjs`, ~6 min at 10k memories.
//   PROFILE_MEMORIES=10000 PROFILE_REQUESTS=200 PROFILE_PORT=9229 PROFILE_INTERVAL_US=100
import { memories, prompts } from "./support/data.mjs";
import { profile, serverTiming, summarise } from "./support/profile.mjs";
import { percentiles, progress } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, expectOk, startWorker, storeMemories } from "./support/worker.mjs";

const MEMORIES = Number(process.env.PROFILE_MEMORIES ?? 10_000);
const REQUESTS = Number(process.env.PROFILE_REQUESTS ?? 200);
const PORT = Number(process.env.PROFILE_PORT ?? 9229);
const SCOPE = "bench:user";

const worker = await startWorker({ inspectorPort: PORT });
const api = worker.client((await createTenantKey(worker.db, "profile")).key);
try {
  const data = memories(MEMORIES);
  const questions = prompts(
    REQUESTS + 20,
    data.map((m) => m.content),
  );
  const texts = data.map((m) => m.content);
  const vectors = await embedAll(worker.seedEmbedderUrls, texts, progress("embedding", texts.length));
  await cacheEmbeddings(worker.cache, "use-lite-512", texts, vectors, progress("caching embeddings", texts.length));
  await storeMemories(
    api,
    data.map((m) => ({ scope: SCOPE, ...m })),
    progress("storing memories", data.length),
  );
  const call = (prompt) => expectOk(api.v1.context.$post({ json: { scope: SCOPE, prompt } }));
  for (const prompt of questions.slice(REQUESTS)) await call(prompt);

  const spans = new Map();
  const wall = [];
  const cpu = await profile(PORT, async () => {
    for (const prompt of questions.slice(0, REQUESTS)) {
      const start = performance.now();
      const { headers } = await call(prompt);
      wall.push(performance.now() - start);
      for (const [name, ms] of Object.entries(serverTiming(headers))) spans.set(name, [...(spans.get(name) ?? []), ms]);
    }
  });
  const p = (xs) => `p50 ${percentiles(xs).p50.toFixed(1)} ms, p95 ${percentiles(xs).p95.toFixed(1)} ms`;
  console.log(`${REQUESTS} /v1/context calls over ${MEMORIES} memories (profiler attached: slower than a bench)`);
  console.log(`  wall: ${p(wall)}`);
  for (const [name, ms] of spans) console.log(`  Server-Timing ${name}: ${p(ms)}`);
  console.log(summarise(cpu, REQUESTS));
} finally {
  await worker.close();
}
