// The latency model of issue 36: each hot route's I/O graph, measured on the real Worker
// (Miniflare, local D1/KV/DO, the local embedder) through Server-Timing's `iocalls` (the calls the
// answer waited for, with their order), projected with per-call latencies for a user near the D1
// primary, one far from it, and the far one with read replicas (bench/support/edge-latency.mjs:
// Cloudflare's figures where published, stated assumptions otherwise). The projection is the
// slowest chain of calls (criticalTime, src/platform/observe/io-depth.ts) plus the route's own work,
// measured here (the local answer time minus its local I/O and embedding is not separable, so the
// whole local p50 without the embedding is added: an upper bound).
//
// Each route runs warm (the same request again: its embedding is in the isolate) and cold-ish (a
// text never embedded). Local stack: the vector index is the exact one over D1, so production's
// Vectorize calls appear as D1 reads here (docs/design/round-trips.md).
import { importTs } from "./support/bundle.mjs";
import { LATENCY_MS, SOURCES, USERS } from "./support/edge-latency.mjs";
import { memories } from "./support/data.mjs";
import { benchSize, percentiles, progress, saveResults } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, startWorker, storeMemories } from "./support/worker.mjs";

const { criticalTime, parseIoCallsServerTiming } = await importTs(new URL("../src/platform/observe/io-depth.ts", import.meta.url));
const MODEL = "use-lite-512";
const SCOPE = "bench:latency";
const SHOW = "bench-latency-show";
const REPEATS = benchSize("BENCH_REPEATS", 20, 2);

const worker = await startWorker();
try {
  const data = memories(300);
  const texts = data.map((m) => m.content);
  const vectors = await embedAll(worker.seedEmbedderUrls, texts, progress("embedding", texts.length));
  await cacheEmbeddings(worker.cache, MODEL, texts, vectors, progress("caching", texts.length));
  // A tenant's own key, as in production: the local dev key is never cached and would add a D1 read to every request.
  const { key } = await createTenantKey(worker.db, "latency model");
  await storeMemories(
    worker.client(key),
    data.map((m) => ({ scope: SCOPE, ...m })),
    progress("storing memories", data.length),
  );
  const post = (path, body) =>
    fetch(`${worker.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-recall-io": "calls" },
      body: JSON.stringify(body),
    });
  for (let i = 0; i < 40; i++) {
    const res = await post("/v1/faqs", {
      question: `How do I configure feature ${i} of the billing portal?`,
      answer: `Open settings, then feature ${i}.`,
    });
    if (!res.ok) throw new Error(`seeding FAQs: ${res.status} ${await res.text()}`);
  }
  await post(`/v1/shows/${SHOW}/questions`, {
    questions: [
      { text: "What evidence supports machine consciousness?", model: "gpt-4o", confidence: 0.9, topics: ["consciousness"] },
      { text: "How do emotions differ between humans and language models?", model: "claude", confidence: 0.8, topics: ["emotions"] },
    ],
  });
  await post("/v1/sessions/bench-session/files", { scope: SCOPE, files: [{ path: "src/billing/portal.ts" }] }).catch(() => {});

  let n = 0;
  // A question, not a slash command (a prompt starting with "/" is trivial and searches nothing).
  const fresh = (what) => `How does the latency model treat request ${++n} of ${what.replace(/[^a-z ]/giu, "")}?`;
  const routes = [
    { name: "FAQ search", path: "/v1/faqs/search", body: (t) => ({ query: t }) },
    { name: "/v1/context", path: "/v1/context", body: (t) => ({ scope: SCOPE, prompt: t }) },
    { name: "/v1/context with a session", path: "/v1/context", body: (t) => ({ scope: SCOPE, prompt: t, sessionId: "bench-session" }) },
    {
      name: "hook (UserPromptSubmit)",
      path: "/v1/hooks/claude-code",
      body: (t) => ({
        session_id: "bench-hook",
        transcript_path: "/tmp/t.jsonl",
        cwd: "/tmp/p",
        hook_event_name: "UserPromptSubmit",
        prompt: t,
      }),
    },
    { name: "similar questions (record: false)", path: "/v1/questions/similar", body: (t) => ({ scope: SCOPE, text: t, record: false }) },
    { name: "similar questions (recording)", path: "/v1/questions/similar", body: (t) => ({ scope: SCOPE, text: t }), coldOnly: true },
    { name: "show rank", path: `/v1/shows/${SHOW}/rank`, body: (t) => ({ candidates: [{ text: t, model: "m" }], topN: 1, record: false }) },
    { name: "show check", path: `/v1/shows/${SHOW}/check`, body: (t) => ({ text: t }) },
  ];

  const measure = async (route, text) => {
    const started = performance.now();
    const res = await post(route.path, route.body(text));
    const body = await res.text();
    const ms = performance.now() - started;
    if (!res.ok) throw new Error(`${route.name}: ${res.status} ${body.slice(0, 200)}`);
    const timing = res.headers.get("server-timing");
    const calls = parseIoCallsServerTiming(timing);
    if (!calls) throw new Error(`${route.name}: no iocalls in Server-Timing (${timing})`);
    const embedMs = Number(/embed;dur=([\d.]+)/.exec(timing ?? "")?.[1] ?? 0);
    return { calls, localMs: Math.max(0, ms - embedMs) };
  };

  const rows = [];
  for (const route of routes) {
    for (const state of route.coldOnly ? ["cold-ish"] : ["warm", "cold-ish"]) {
      const samples = [];
      for (let i = 0; i < REPEATS; i++) {
        const text = fresh(route.name);
        const first = await measure(route, text);
        samples.push(state === "warm" ? await measure(route, text) : first);
      }
      // The graph of the last sample (the graphs of one route and state are the same each time; the tests hold them).
      const { calls } = samples[samples.length - 1];
      if (process.env.BENCH_VERBOSE_IO) console.log(route.name, state, JSON.stringify(calls));
      const local = percentiles(samples.map((s) => s.localMs)).p50;
      const projected = Object.fromEntries(
        Object.keys(USERS).map((user) => {
          const io = criticalTime(calls, (c) => LATENCY_MS[user][c.step]);
          return [user, { ioMs: io, totalMs: io + local }];
        }),
      );
      const steps = {};
      for (const c of calls) steps[c.step] = (steps[c.step] ?? 0) + 1;
      const seq = criticalTime(calls, () => 1);
      rows.push({ route: route.name, state, steps, seq, localMs: local, projected });
      const line = Object.entries(projected)
        .map(([user, p]) => `${user} ${p.totalMs.toFixed(0)} ms`)
        .join(" · ");
      console.log(
        `  ${route.name.padEnd(36)} ${state.padEnd(8)} seq ${seq}  ${JSON.stringify(steps)}  local ${local.toFixed(1)} ms  → ${line}`,
      );
    }
  }
  console.log(`\nper-call latencies (ms): ${JSON.stringify(LATENCY_MS)}`);
  console.log(`figures in ${saveResults("latency", { users: USERS, latencyMs: LATENCY_MS, sources: SOURCES, repeats: REPEATS, rows })}`);
} finally {
  await worker.close();
}
