// The Recall Worker for HTTP-level benchmarks: built by wrangler as for deploy (env test), run by
// Miniflare with local D1/KV/Durable Objects, the migrations applied, and the real local embedder
// on 127.0.0.1. Requests go through the Worker's fetch handler exactly as in production.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { hc } from "hono/client";
import { Miniflare } from "miniflare";
import { startLocalEmbedder } from "../../scripts/local-embedder.mjs";
import { copyReferenceAssets } from "../../scripts/reference-assets.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BENCH_KEY = "rk_bench_dev_key";
/** Requests per 60 s per key for the Worker under benchmark: far above what a bench sends. */
const BENCH_RATE_LIMIT = Number(process.env.RECALL_RATE_LIMIT ?? 100_000_000);
/** Every rate-limit binding production declares (wrangler.toml's top-level [[ratelimits]]): a new one is raised here too. */
const RATE_LIMIT_BINDINGS = [
  ...readFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "..", "wrangler.toml"), "utf8").matchAll(
    /^\[\[ratelimits\]\]\s*name = "(\w+)"/gm,
  ),
].map((m) => m[1]);

/**
 * `helperEmbedder: false` skips the second embedder (seeding only); the Worker also listens on `url` (a free 127.0.0.1 port).
 * `bindings` adds or overrides vars (e.g. FAQ_STORE=postgres with DATABASE_URL and DATABASE_WS_PROXY).
 * `ticketConsumer: true` also runs the TICKETS queue consumer (the ticket pipeline), as wrangler.toml configures it.
 * `inspectorPort` (e.g. 9229) opens the V8 inspector on the Worker, for CPU profiles.
 * `source` builds the Worker from another checkout (a git worktree of another commit, for bench/ab-faq-search.mjs).
 */
export async function startWorker({ helperEmbedder = true, bindings = {}, ticketConsumer = false, inspectorPort = 0, source = root } = {}) {
  const outdir = mkdtempSync(join(tmpdir(), "recall-bench-"));
  // wrangler.toml's [assets] folder must exist for the build
  if (source === root) copyReferenceAssets();
  else execFileSync(process.execPath, [join(source, "scripts", "reference-assets.mjs")], { stdio: "ignore" });
  execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir, "--env", "test"], { cwd: source, stdio: "ignore" });
  const embedder = await startLocalEmbedder();
  // A second embedder in its own process, so seeding embeds on both cores (the model runs on one thread).
  const helper = helperEmbedder ? await startEmbedderProcess() : null;
  const options = {
    modules: true,
    scriptPath: join(outdir, "api.js"),
    modulesRoot: outdir,
    // wrangler's bundle keeps the scan kernels (src/adapters/vectors/kernels.wasm) a module of their own.
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: "2026-04-20",
    compatibilityFlags: ["nodejs_compat"],
    d1Databases: { DB: "recall-bench" },
    kvNamespaces: ["CACHE"],
    durableObjects: { SHOW_MEMORY: { className: "ShowMemory", useSQLite: true } },
    queueProducers: { TICKETS: { queueName: "recall-tickets" } },
    ...(ticketConsumer ? { queueConsumers: { "recall-tickets": { maxBatchSize: 10, maxBatchTimeout: 1, maxRetries: 5 } } } : {}),
    // The benches, the eval and `npm run fuzz` send deliberate load from one key: rate limits are
    // raised explicitly here (README "Rate limits"); RECALL_RATE_LIMIT=N sets another per-window limit.
    ratelimits: Object.fromEntries(RATE_LIMIT_BINDINGS.map((name) => [name, { simple: { limit: BENCH_RATE_LIMIT, period: 60 } }])),
    // The Worker's own log lines would bury the figures; set BENCH_VERBOSE=1 to see them.
    handleRuntimeStdio(stdout, stderr) {
      if (process.env.BENCH_VERBOSE) {
        stdout.pipe(process.stdout);
        stderr.pipe(process.stderr);
      } else {
        stdout.resume();
        stderr.resume();
      }
    },
    bindings: {
      EMBEDDER: "local-http",
      EMBEDDER_URL: embedder.url,
      EMBEDDING_MODEL: "use-lite-512",
      EMBEDDING_DIMENSIONS: "512",
      VECTOR_INDEX: "d1-exact",
      JUDGE: "heuristic",
      RECALL_DEV_API_KEY: BENCH_KEY,
      // Fresh per run: the webhook secrets (src/platform/ports/secret-box.ts) and /ui sessions need them.
      SECRETS_KEK: `bench:${randomBytes(32).toString("base64")}`,
      UI_SESSION_SECRET: randomBytes(32).toString("base64"),
      // workerd under Miniflare has no Worker's 128 MB limit, and here the exact index stands in for
      // Vectorize at every size: the FAQ bench's 30k variant vectors stay cached (src/app/services.ts, CacheEnv).
      VECTOR_CACHE_MB: "160",
      ...bindings,
    },
    // `inspectorPort` opens the V8 inspector on the Worker (bench/profile-search.mjs takes CPU profiles through it).
    ...(inspectorPort ? { inspectorPort } : {}),
    // Kept on disk in the run's folder, so restart() starts a new isolate over the same data.
    defaultPersistRoot: join(outdir, "state"),
  };
  const mf = new Miniflare(options);
  let url = String(await mf.ready).replace(/\/$/, "");
  let db = await mf.getD1Database("DB");
  for (const migration of await readD1Migrations(join(source, "migrations"))) {
    await db.batch(migration.queries.map((q) => db.prepare(q)));
  }
  let cache = await mf.getKVNamespace("CACHE");

  /**
   * The typed API client (src/client/client.ts) over this Worker's socket, as a service calling Recall
   * would: `client(key).v1.faqs.search.$post({ json })`.
   * @param {string} [key]
   * @returns {import("../../src/client/client").RecallClient}
   */
  function client(key = BENCH_KEY) {
    // The origin is the current one at each request: restart() starts workerd on a new port.
    const fetch = (input, init) => {
      const { pathname, search } = new URL(input);
      return keepAliveFetch(`${url}${pathname}${search}`, init);
    };
    return hc("http://recall.bench", { headers: { authorization: `Bearer ${key}` }, fetch });
  }

  return {
    mf,
    // Getters: restart() replaces the stubs (Miniflare poisons the old ones).
    get db() {
      return db;
    },
    get cache() {
      return cache;
    },
    get url() {
      return url;
    },
    client,
    embedderUrl: embedder.url,
    /** Where Miniflare keeps the run's D1, KV and Durable Object files (bench/capacity.bench.mjs reads them). */
    stateDir: join(outdir, "state"),
    /** Embedders to spread seeding over (embedAll): the Worker's and the helper process. */
    seedEmbedderUrls: helper ? [embedder.url, helper.url] : [embedder.url],
    /** A new workerd process over the same storage: the Worker starts cold, as after a deploy or an eviction. */
    async restart() {
      await mf.setOptions(options);
      url = String(await mf.ready).replace(/\/$/, "");
      db = await mf.getD1Database("DB");
      cache = await mf.getKVNamespace("CACHE");
    },
    async close() {
      await mf.dispose();
      embedder.server.close();
      helper?.child.kill();
      rmSync(outdir, { recursive: true, force: true });
    },
  };
}

/** `node scripts/local-embedder.mjs 0` as a child process; resolves when it listens. */
function startEmbedderProcess() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "scripts", "local-embedder.mjs"), "0"], { stdio: ["ignore", "pipe", "inherit"] });
    child.once("error", reject);
    child.stdout.on("data", (chunk) => {
      const url = /listening on (http:\/\/\S+)/.exec(String(chunk))?.[1];
      if (url) resolve({ child, url });
    });
  });
}

/**
 * Embeds texts in batches of 64 with the local embedder(s), one request in flight per embedder,
 * with a progress bar; vectors come back in the texts' order.
 */
export async function embedAll(embedderUrls, texts, onProgress = () => {}) {
  const urls = Array.isArray(embedderUrls) ? embedderUrls : [embedderUrls];
  const vectors = new Array(texts.length);
  const starts = [];
  for (let i = 0; i < texts.length; i += 64) starts.push(i);
  let done = 0;
  await Promise.all(
    urls.map(async (url) => {
      for (let start = starts.shift(); start !== undefined; start = starts.shift()) {
        const response = await postWithRetry(`${url}/embed`, JSON.stringify({ texts: texts.slice(start, start + 64) }));
        if (!response.ok) throw new Error(`embedder answered ${response.status}`);
        (await response.json()).vectors.forEach((v, j) => {
          vectors[start + j] = v;
        });
        done += Math.min(64, texts.length - start);
        onProgress(done);
      }
    }),
  );
  return vectors;
}

/**
 * POSTs JSON, again (up to 3 times) when the connection fails: a kept-alive socket that the
 * embedder closes as idle just as a request goes out fails with "other side closed" (seen
 * under load, hours into a run); the request itself is safe to repeat.
 */
async function postWithRetry(url, body, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

const keepAlive = new Agent({ keepAlive: true });
/** Resends of one request on stale kept-alive sockets: more than the sockets a bench keeps idle. */
const MAX_STALE_SOCKETS = 16;

/**
 * `fetch` over node:http with kept-alive connections: what a caller's HTTP client does, and what
 * the figures should include. Miniflare's dispatchFetch and Node's WHATWG fetch each add 2–4 ms
 * of their own to every request on this machine (GET /healthz p50: dispatchFetch 3.5–5.0 ms,
 * fetch 3.2–3.8 ms, this 1.3 ms), which buried the Worker's own few milliseconds. A request that
 * went out on a reused socket the server had just closed is sent again (Node's documented
 * pattern for `reusedSocket`): it never reached the Worker. Again as long as the socket it failed
 * on was a reused one: after a long request, every other idle socket of the pool may be as stale.
 * @param {string} input
 * @param {{ method?: string, headers?: HeadersInit, body?: string | Uint8Array | null }} [init]
 * @returns {Promise<Response>}
 */
export function keepAliveFetch(input, init = {}) {
  if (init.body != null && typeof init.body !== "string" && !(init.body instanceof Uint8Array)) return fetch(input, init);
  const headers = Object.fromEntries(new Headers(init.headers));
  const send = (retries) =>
    new Promise((resolve, reject) => {
      const req = httpRequest(String(input), { method: init.method ?? "GET", headers, agent: keepAlive }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const answer = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) answer.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
          const body = Buffer.concat(chunks);
          resolve(new Response(body.length > 0 ? body : null, { status: res.statusCode, headers: answer }));
        });
      });
      req.on("error", (error) =>
        retries > 0 && req.reusedSocket && error.code === "ECONNRESET" ? send(retries - 1).then(resolve, reject) : reject(error),
      );
      req.end(init.body ?? undefined);
    });
  return send(MAX_STALE_SOCKETS);
}

/** A throwaway tenant with an admin key, straight in D1 (same hashing as scripts/create-admin-key.mjs). */
export async function createTenantKey(db, name) {
  const { createHash, randomBytes } = await import("node:crypto");
  const token = (bytes) => randomBytes(bytes).toString("base64url");
  const key = `rk_${token(32)}`;
  const tenantId = `t_${token(16)}`;
  const now = Date.now();
  await db.batch([
    db.prepare("INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)").bind(tenantId, name, now),
    db
      .prepare(
        "INSERT INTO api_keys (id, tenant_id, key_hash, key_prefix, role, name, created_at) VALUES (?, ?, ?, ?, 'admin', 'bench', ?)",
      )
      .bind(`key_${token(16)}`, tenantId, createHash("sha256").update(key).digest("hex"), key.slice(0, 10), now),
  ]);
  return { tenantId, key };
}

/** Puts precomputed embeddings into the Worker's own embedding cache (emb:v1:<model>:<sha256>), as the embedder path would. */
export async function cacheEmbeddings(cache, model, texts, vectors, onProgress = () => {}) {
  const { createHash } = await import("node:crypto");
  for (let i = 0; i < texts.length; i++) {
    await cache.put(`emb:v1:${model}:${createHash("sha256").update(texts[i]).digest("hex")}`, Float32Array.from(vectors[i]).buffer);
    if (i % 200 === 199 || i === texts.length - 1) onProgress(i + 1);
  }
}

/**
 * Awaits a typed-client call and throws on a non-2xx answer (a bench or eval must not go on with
 * a failed request). Returns the body, typed by the route, and the headers (Server-Timing).
 * @template {import("hono/client").ClientResponse<unknown, number, string>} R
 * @param {Promise<R>} pending
 * @returns {Promise<{ json: R extends import("hono/client").ClientResponse<infer T, infer S, "json"> ? (S extends 200 | 201 | 202 ? T : never) : never, headers: Headers }>}
 */
export async function expectOk(pending) {
  const response = await pending;
  const text = await response.text();
  if (!response.ok) throw new Error(`the Worker answered ${response.status}: ${text.slice(0, 300)}`);
  return { json: text ? JSON.parse(text) : null, headers: response.headers };
}

/**
 * POST /v1/memories for each body, four requests in flight (as concurrent callers would), with a
 * progress callback.
 * @param {import("../../src/client/client").RecallClient} api
 */
export async function storeMemories(api, bodies, onProgress = () => {}) {
  let done = 0;
  const queue = [...bodies];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let body = queue.shift(); body; body = queue.shift()) {
        await expectOk(api.v1.memories.$post({ json: body }));
        onProgress(++done);
      }
    }),
  );
}

/**
 * POST /v1/faqs/import through the typed client: the NDJSON body is not JSON, so it goes as the request's own body.
 * @param {import("../../src/client/client").RecallClient} api
 * @param {string} ndjson
 */
export function importFaqs(api, ndjson) {
  return expectOk(api.v1.faqs.import.$post({}, { headers: { "content-type": "application/x-ndjson" }, init: { body: ndjson } }));
}
