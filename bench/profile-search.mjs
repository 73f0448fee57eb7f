// Where a FAQ search's time goes inside the Worker: a V8 CPU profile (through Miniflare's
// inspector) of PROFILE_REQUESTS searches over a tenant of PROFILE_FAQS FAQs (3 variants each),
// printed as the functions with the most self and inclusive time. workerd's clock moves only on
// I/O, so Server-Timing spans show storage waits and this shows the CPU. Not a benchmark
// (`npm run bench` does not run it): `node bench/profile-search.mjs`, ~2 min.
//   PROFILE_FAQS=1000 PROFILE_REQUESTS=200 PROFILE_MODE=hybrid|lexical|vector PROFILE_PORT=9229
import WebSocket from "ws";
import { percentiles } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, expectOk, importFaqs, startWorker } from "./support/worker.mjs";

const FAQS = Number(process.env.PROFILE_FAQS ?? 1000);
const REQUESTS = Number(process.env.PROFILE_REQUESTS ?? 200);
const MODE = process.env.PROFILE_MODE ?? "hybrid";
const PORT = Number(process.env.PROFILE_PORT ?? 9229);
const WEIGHTS = { hybrid: undefined, lexical: { bm25: 1, vector: 0 }, vector: { bm25: 0, vector: 1 } };
if (!(MODE in WEIGHTS)) throw new Error(`PROFILE_MODE must be one of ${Object.keys(WEIGHTS).join(", ")}`);

const ACTIONS = ["reset", "export", "cancel", "renew", "update", "delete", "share", "restore", "download", "approve"];
const OBJECTS = ["password", "invoice", "purchase order", "shipping address", "API key", "team workspace", "billing plan", "audit report"];
const CONTEXTS = [
  "on the mobile app",
  "from the admin console",
  "for a subsidiary",
  "after a merger",
  "in the EU region",
  "in bulk",
  "via the API",
];
const faqs = [];
for (let i = 0; faqs.length < FAQS; i++) {
  const [a, o, c] = [ACTIONS[i % ACTIONS.length], OBJECTS[(i >> 1) % OBJECTS.length], CONTEXTS[(i >> 2) % CONTEXTS.length]];
  faqs.push({
    question: `How do I ${a} the ${o} ${c} (case ${i})?`,
    answer: `To ${a} the ${o} ${c}, open the ${o} page and choose "${a}". Reference KB-${10000 + i}.`,
    variants: [`${a} ${o} ${c} ${i}`, `need help to ${a} my ${o} ${c}`, `steps to ${a} the ${o} ${c}`],
  });
}
// New wording every time: each query is embedded by the model, as in bench/faq-search.bench.mjs.
const queries = Array.from({ length: REQUESTS }, (_, i) => `what's the way to ${faqs[(i * 37) % FAQS].question.slice(9, -1)}, try ${i}`);

const worker = await startWorker({ helperEmbedder: false, inspectorPort: PORT });
try {
  const { key } = await createTenantKey(worker.db, "profile");
  const api = worker.client(key);
  const texts = faqs.flatMap((f) => [f.question, ...f.variants]);
  await cacheEmbeddings(worker.cache, "use-lite-512", texts, await embedAll(worker.embedderUrl, texts));
  for (let i = 0; i < FAQS; i += 1000)
    await importFaqs(
      api,
      faqs
        .slice(i, i + 1000)
        .map((f) => JSON.stringify(f))
        .join("\n"),
    );
  const search = (query) => expectOk(api.v1.faqs.search.$post({ json: { query, limit: 10, weights: WEIGHTS[MODE] } }));
  for (let i = 0; i < 20; i++) await search(`warm up ${i}`);

  const inspector = await connect(PORT);
  await inspector.send("Profiler.enable");
  await inspector.send("Profiler.setSamplingInterval", { interval: 100 });
  await inspector.send("Profiler.start");
  const wall = [];
  for (const query of queries) {
    const start = performance.now();
    await search(query);
    wall.push(performance.now() - start);
  }
  const { result } = await inspector.send("Profiler.stop");
  inspector.close();
  const p = percentiles(wall);
  console.log(
    `${REQUESTS} ${MODE} searches over ${FAQS} FAQs: wall p50 ${p.p50.toFixed(1)} ms, p95 ${p.p95.toFixed(1)} ms (profiler attached: slower than a bench)`,
  );
  console.log(summarise(result.profile, REQUESTS));
} finally {
  await worker.close();
}

/** A Chrome DevTools Protocol session with the Worker's isolate. */
async function connect(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  // Miniflare's own service workers are listed too; the Worker's is "core:user:<name>".
  const target = targets.find((t) => /core:user/.test(t.title ?? "")) ?? targets[0];
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  let nextId = 0;
  const pending = new Map();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data));
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve) => {
        const id = ++nextId;
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** The functions with the most self and inclusive time, in ms per request. */
function summarise(profile, requests, top = 20) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const name = (id) => {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    return `${functionName || "(anonymous)"} ${url.split("/").pop()}:${lineNumber + 1}`;
  };
  const self = new Map();
  const inclusive = new Map();
  profile.samples.forEach((sample, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(name(sample), (self.get(name(sample)) ?? 0) + dt);
    const seen = new Set();
    for (let id = sample; id !== undefined; id = parent.get(id)) {
      const key = name(id);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  });
  const table = (times) =>
    [...times]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, us]) => `  ${(us / 1000 / requests).toFixed(2).padStart(7)} ms  ${key}`)
      .join("\n");
  return `CPU per request, self (in the function itself):\n${table(self)}\nCPU per request, inclusive (with what it calls):\n${table(inclusive)}\n(api.js is the bundle wrangler built: npx wrangler deploy --dry-run --outdir dist --env test)`;
}
