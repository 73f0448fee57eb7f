// `npm run load`: a bounded load test of the local stack. The Worker runs as the benchmarks run it
// (bench/support/worker.mjs: the deploy bundle under Miniflare on a free 127.0.0.1 port, local
// D1/KV/Durable Objects, the real local embedder), is seeded, then autocannon drives four routes at
// concurrency 1, 16 and 64, each with query embeddings cached (a small pool of texts repeated,
// already in the Worker's KV cache) and uncached (a new text per request, so the embedder runs):
//
//   POST /v1/context · POST /v1/faqs/search · POST /v1/shows/:id/rank (record: false) · POST /v1/memories
//
// Each run sends a fixed number of requests (3 per connection, at least 20) and waits for all of
// them, so a slow run is measured whole rather than cut at a time window (which counted only the
// requests fast enough to finish in it). It prints requests/s, p50/p95/p99 latency, errors and
// 429s per run, saves results/load.json, and stops by itself (about 2–5 minutes in all, the
// slower on a busy machine; a request times out after 30 s). Rate limits are raised
// for the Worker under load (bench/support/worker.mjs, RECALL_RATE_LIMIT), so a 429 here is
// deliberate: `RECALL_RATE_LIMIT=600 npm run load` shows the limiter at work.
//
//   npm run load [-- --per-connection 3 --connections 1,16,64 --only context,faqs,show,writes]
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { memories, prompts } from "./support/data.mjs";
import { percentiles, progress, saveResults } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, expectOk, importFaqs, startWorker, storeMemories } from "./support/worker.mjs";

const HEADER = ["route", "embeddings", "conc", "req/s", "p50 ms", "p95 ms", "p99 ms", "2xx", "errors", "429"];
const cells = (r) => [
  r.route,
  r.cache,
  String(r.connections),
  r.rps.toFixed(1),
  r.p50.toFixed(0),
  r.p95.toFixed(0),
  r.p99.toFixed(0),
  String(r.ok),
  String(r.errors),
  String(r.limited),
];

function printRow(r) {
  console.log(`  ${cells(r).join("  ")}${r.errors ? `  statuses ${JSON.stringify(r.statuses)}` : ""}`);
}

function printTable(all) {
  const table = [HEADER, ...all.map(cells)];
  const widths = HEADER.map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(" | ")} |`;
  console.log(`\n${line(HEADER)}\n| ${widths.map((w, i) => (i < 2 ? "-".repeat(w) : `${"-".repeat(w - 1)}:`)).join(" | ")} |`);
  for (const row of table.slice(1)) console.log(line(row));
}

const { values } = parseArgs({
  options: {
    "per-connection": { type: "string", default: "3" },
    connections: { type: "string", default: "1,16,64" },
    only: { type: "string", default: "context,faqs,show,writes" },
  },
});
const PER_CONNECTION = Number(values["per-connection"]);
const MIN_REQUESTS = 20;
const CONNECTIONS = values.connections.split(",").map(Number);
const ONLY = new Set(values.only.split(","));
const MODEL = "use-lite-512";
const SEED_MEMORIES = 500;
const SEED_FAQS = 500;
const POOL = 20;

const worker = await startWorker();
const url = new URL(worker.url);
if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname))
  throw new Error(`the load test only runs against a local Worker, not ${worker.url}`);
const rows = [];
try {
  const { key } = await createTenantKey(worker.db, "load test");
  const api = worker.client(key);

  // Seed: memories in one scope (embedded in batches and cached first, as bench/context.bench.mjs does), FAQs, a show.
  const seedMemories = memories(SEED_MEMORIES, 11);
  const queries = prompts(
    4000,
    seedMemories.map((m) => m.content),
    13,
  );
  const cachedQueries = queries.slice(0, POOL);
  const freshQueries = queries.slice(POOL);
  const texts = [...seedMemories.map((m) => m.content), ...cachedQueries];
  const vectors = await embedAll(worker.seedEmbedderUrls, texts, progress("embedding the seed", texts.length));
  await cacheEmbeddings(worker.cache, MODEL, texts, vectors, progress("caching embeddings", texts.length));
  await storeMemories(
    api,
    seedMemories.map((m) => ({ scope: "load:user", ...m })),
    progress("storing memories", seedMemories.length),
  );
  const faqs = memories(SEED_FAQS, 17).map((m, i) => ({
    question: m.content,
    answer: `Answer ${i}: see the runbook for ${m.content.slice(0, 40)}`,
  }));
  await importFaqs(api, faqs.map((f) => JSON.stringify(f)).join("\n"));
  for (let i = 0; i < 100; i += 20) {
    const questions = queries.slice(3000 + i, 3020 + i).map((text) => ({ text }));
    await expectOk(api.v1.shows[":showId"].questions.$post({ param: { showId: "load-show" }, json: { questions } }));
  }

  let fresh = 0;
  const nextFresh = () => {
    const text = freshQueries[fresh % freshQueries.length];
    const round = Math.floor(fresh++ / freshQueries.length);
    return round === 0 ? text : `${text} (${round})`;
  };
  let pooled = 0;
  const nextCached = () => cachedQueries[pooled++ % POOL];
  const writes = memories(POOL, 23).map((m) => m.content);

  const routes = {
    context: { method: "POST", path: "/v1/context", body: (text) => ({ scope: "load:user", prompt: text }) },
    faqs: { method: "POST", path: "/v1/faqs/search", body: (text) => ({ query: text }) },
    show: {
      method: "POST",
      path: "/v1/shows/load-show/rank",
      body: (text) => ({
        candidates: [
          { text, model: "m1" },
          { text: `${text} Why?`, model: "m2" },
        ],
        record: false,
      }),
    },
    writes: { method: "POST", path: "/v1/memories", body: (text) => ({ scope: "load:writes", content: text, memoryType: "fact" }) },
  };
  // Warm the cached pools: every text once through its route (the writes' texts through the write route).
  for (const text of cachedQueries) {
    await expectOk(api.v1.context.$post({ json: routes.context.body(text) }));
    await expectOk(api.v1.faqs.search.$post({ json: routes.faqs.body(text) }));
  }
  await expectOk(
    api.v1.shows[":showId"].rank.$post({
      param: { showId: "load-show" },
      json: {
        candidates: cachedQueries
          .flatMap((text) => [
            { text, model: "m1" },
            { text: `${text} Why?`, model: "m2" },
          ])
          .slice(0, 40),
        record: false,
      },
    }),
  );
  for (const text of writes) await expectOk(api.v1.memories.$post({ json: routes.writes.body(text) }));

  console.log(
    `\nLoad: ${PER_CONNECTION} requests per connection (at least ${MIN_REQUESTS}) per run against ${worker.url} (Miniflare, local embedder on the same machine)\n`,
  );
  for (const [name, route] of Object.entries(routes)) {
    if (!ONLY.has(name)) continue;
    for (const cache of ["cached", "uncached"]) {
      for (const connections of CONNECTIONS) {
        const nextText = cache === "cached" ? (name === "writes" ? () => writes[pooled++ % POOL] : nextCached) : nextFresh;
        rows.push(await drive({ key, name: `${route.method} ${route.path}`, cache, connections, route, nextText }));
        printRow(rows.at(-1));
      }
    }
  }
  printTable(rows);
  console.log(`\nfigures saved to ${saveResults("load", { perConnection: PER_CONNECTION, rows })}`);
} finally {
  await worker.close();
}

async function drive({ key, name, cache, connections, route, nextText }) {
  const latencies = [];
  const instance = autocannon({
    url: worker.url,
    connections,
    amount: Math.max(MIN_REQUESTS, PER_CONNECTION * connections),
    timeout: 30,
    requests: [
      {
        method: route.method,
        path: route.path,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        setupRequest: (request) => ({ ...request, body: JSON.stringify(route.body(nextText())) }),
      },
    ],
  });
  // The run's span: from the first request sent to the last answer (autocannon's own start-up and
  // its one-second sampling ticks are not the Worker's time).
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  instance.on("response", (_client, _status, _bytes, responseTime) => {
    const now = performance.now();
    latencies.push(responseTime);
    first = Math.min(first, now - responseTime);
    last = Math.max(last, now);
  });
  const result = await instance;
  const seconds = latencies.length === 0 ? Number.NaN : (last - first) / 1000;
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count]));
  const limited = statuses["429"] ?? 0;
  const ok = Object.entries(statuses).reduce((n, [status, count]) => (status.startsWith("2") ? n + count : n), 0);
  const failedStatuses = Object.entries(statuses).reduce(
    (n, [status, count]) => (status.startsWith("2") || status === "429" ? n : n + count),
    0,
  );
  const p = percentiles(latencies);
  return {
    route: name,
    cache,
    connections,
    requests: latencies.length,
    rps: latencies.length / seconds,
    seconds,
    p50: p.p50,
    p95: p.p95,
    p99: p.p99,
    ok,
    errors: failedStatuses + result.errors + result.timeouts,
    limited,
    statuses,
  };
}
