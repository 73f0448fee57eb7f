// The Claude Code hook end to end: `recall hook user-prompt-submit` as Claude Code runs it, a new
// Node process per prompt, from spawn to exit with its stdout read, against the real Worker
// (Miniflare, local D1/KV, exact vector index, the real local embedder) with 1,000 memories in
// the scope. Target: p50 ≤ 150 ms. Each prompt is new, so its embedding is never cached. Beside
// it, for scale: the hook route alone (fetch from this process), a trivial prompt (no request:
// Node's start, the bundle, the classifier) and an empty Node process.
import { spawn } from "node:child_process";
import { buildCli } from "../scripts/build-cli.mjs";
import { memories, prompts } from "./support/data.mjs";
import { benchSize, percentiles, progress, saveResults } from "./support/stats.mjs";
import { BENCH_KEY, cacheEmbeddings, embedAll, startWorker, storeMemories } from "./support/worker.mjs";

const MEMORIES = benchSize("BENCH_MEMORIES", 1000, 50);
const REQUESTS = benchSize("BENCH_REQUESTS", 100, 10);
const SCOPE = "bench:hook";
const MODEL = "use-lite-512";
/** Between prompts, as a person types: lets the previous prompt's recording (after its answer) finish. */
const PAUSE_MS = 100;

/** Runs a process with `stdin`; resolves with its wall time (spawn → exit) and stdout. */
function run(args, stdin, env) {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.once("error", reject);
    child.once("close", (code) => resolve({ ms: performance.now() - start, stdout, stderr, code }));
    child.stdin.on("error", () => {}); // a child that exits without reading stdin (node -e "")
    child.stdin.end(stdin);
  });
}

const payload = (prompt, i) =>
  JSON.stringify({
    session_id: `bench-${i}`,
    transcript_path: "/tmp/t.jsonl",
    cwd: "/tmp/bench-project",
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt,
  });
const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS));

const [cli, worker] = await Promise.all([buildCli(), startWorker()]);
try {
  const data = memories(MEMORIES);
  const questions = prompts(
    REQUESTS * 2,
    data.map((m) => m.content),
  );
  console.log(`\nrecall hook user-prompt-submit with ${MEMORIES.toLocaleString("en")} memories in the scope`);
  const vectors = await embedAll(
    worker.seedEmbedderUrls,
    data.map((m) => m.content),
    progress("embedding", data.length),
  );
  await cacheEmbeddings(
    worker.cache,
    MODEL,
    data.map((m) => m.content),
    vectors,
    progress("caching embeddings", data.length),
  );
  await storeMemories(
    worker.client(),
    data.map((m) => ({ scope: SCOPE, ...m, ...(m.memoryType === "question" ? { sessionId: "seed" } : {}) })),
    progress("storing memories", data.length),
  );

  const env = { RECALL_URL: worker.url, RECALL_API_KEY: BENCH_KEY, RECALL_SCOPE: SCOPE, RECALL_CONFIG: "/nonexistent/recall.json" };
  // Warm-up: loads the vector snapshot and JITs the Worker.
  for (let i = 0; i < 5; i++) await run([cli, "hook", "user-prompt-submit"], payload(`How do I warm up the cache number ${i}?`, i), env);

  const hookTimes = [];
  let withContext = 0;
  let failures = 0;
  for (const [i, prompt] of questions.slice(0, REQUESTS).entries()) {
    const result = await run([cli, "hook", "user-prompt-submit"], payload(prompt, i), env);
    hookTimes.push(result.ms);
    if (result.stdout.includes("additionalContext")) withContext++;
    if (result.stderr) failures++;
    await pause();
  }
  const routeTimes = [];
  for (const [i, prompt] of questions.slice(REQUESTS).entries()) {
    const start = performance.now();
    const response = await fetch(`${worker.url}/v1/hooks/claude-code?scope=${encodeURIComponent(SCOPE)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${BENCH_KEY}`, "content-type": "application/json" },
      body: payload(prompt, REQUESTS + i),
    });
    await response.text();
    routeTimes.push(performance.now() - start);
    await pause();
  }
  const trivialTimes = [];
  const nodeTimes = [];
  for (let i = 0; i < 30; i++) {
    trivialTimes.push((await run([cli, "hook", "user-prompt-submit"], payload("thanks", i), env)).ms);
    nodeTimes.push((await run(["-e", ""], "", {})).ms);
  }

  const [h, r, t, n] = [percentiles(hookTimes), percentiles(routeTimes), percentiles(trivialTimes), percentiles(nodeTimes)];
  const f = (x) => `${x.toFixed(1)} ms`.padStart(9);
  console.log(`  ${REQUESTS} new prompts, ${withContext} with context injected, ${failures} failed:     p50       p95       p99`);
  console.log(`    hook end to end (spawn → exit)             ${f(h.p50)} ${f(h.p95)} ${f(h.p99)}   (target p50 ≤ 150 ms)`);
  console.log(`    the hook route alone (fetch)               ${f(r.p50)} ${f(r.p95)} ${f(r.p99)}`);
  console.log(`    trivial prompt, no request (spawn → exit)  ${f(t.p50)} ${f(t.p95)} ${f(t.p99)}`);
  console.log(`    node -e "" (Node's own start)              ${f(n.p50)} ${f(n.p95)} ${f(n.p99)}`);
  saveResults("hook", { memories: MEMORIES, requests: REQUESTS, withContext, failures, hook: h, route: r, trivial: t, node: n });
} finally {
  await worker.close();
}
