/**
 * Builds the ports from the Worker's bindings and vars. This is the one place that decides
 * which adapter runs where: Workers AI + Vectorize in production, the local HTTP embedder + the
 * exact D1 index locally and in tests.
 */
import { type Clock, systemClock } from "./clock";
import { cachedEmbedder, type Defer } from "./embeddings/cached";
import { deadlineEmbedder, JOB_EMBED_DEADLINE_MS, LOCAL_REQUEST_EMBED_DEADLINE_MS, REQUEST_EMBED_DEADLINE_MS } from "./embeddings/deadline";
import type { TicketMessage } from "./tickets/message";
import type { Judge } from "./judge/port";
import { selectJudge } from "./judge/select";
import { localHttpEmbedder } from "./embeddings/local-http";
import { tracedFetch } from "./metrics/io-bindings";
import type { Embedder } from "./embeddings/port";
import { workersAiEmbedder } from "./embeddings/workers-ai";
import { autoIndex, exactMaxFor } from "./vectors/auto";
import { exactD1Index } from "./vectors/exact-d1";
import type { VectorIndex } from "./vectors/port";
import { withReadYourWrites } from "./vectors/read-your-writes";
import { vectorizeIndex } from "./vectors/vectorize";
import { createSecretBox, type SecretBox } from "./tickets/secret-box";
import { type Logger, rootLogger } from "./log";
import { withStorageErrors } from "./db/errors";
import { ConfigError } from "./config-error";
import { CACHE_BUDGET, MiB } from "./isolate/memory";
import { deadlineKv, JOB_KV_DEADLINE_MS, REQUEST_KV_DEADLINE_MS } from "./deadlines/kv";
import { deadlineVectorIndex, JOB_VECTOR_DEADLINE_MS, REQUEST_VECTOR_DEADLINE_MS } from "./deadlines/vectors";
import { connectPostgres, type PgConnection } from "./db/pg/client";

/**
 * The optional Postgres backend of the FAQ knowledge base (docs/guides/postgres.md): not in
 * wrangler.toml's vars, so the default stays D1 with nothing to configure. DATABASE_URL is a
 * secret (`wrangler secret put DATABASE_URL`); DATABASE_WS_PROXY only for a local Postgres.
 */
export interface PostgresEnv {
  FAQ_STORE?: string;
  DATABASE_URL?: string;
  DATABASE_WS_PROXY?: string;
}

/**
 * VECTOR_CACHE_MB: what the exact index's snapshots may hold in one isolate, when not
 * CACHE_BUDGET.vectorSnapshots (src/isolate/memory.ts). Only for a runtime without a Worker's
 * 128 MB limit, where the exact index stands in for Vectorize at every size: the benchmarks' 40k
 * FAQ vectors stay cached under Miniflare with it raised.
 */
export interface CacheEnv {
  VECTOR_CACHE_MB?: string;
}

export interface Services {
  db: D1Database;
  cache: KVNamespace;
  /** The ticket pipeline's queue (producer side). */
  ticketQueue: Queue<TicketMessage>;
  embedder: Embedder;
  vectors: VectorIndex;
  clock: Clock;
  /** Decides the ticket pipeline's questions a similarity cannot answer (JUDGE=auto | heuristic | workers-ai). */
  judge: Judge;
  /** Seals and opens webhook secrets (SECRETS_KEK); throws ConfigError on first use when the binding is missing or malformed. */
  secretBox: () => Promise<SecretBox>;
  /** The current request's or job's logger (src/log.ts); domain code logs through it. */
  log: Logger;
  /** Work for after the request's answer (its waitUntil); absent in jobs and tests, which do such work inline. */
  defer?: Defer;
  /** The Postgres of the FAQ knowledge base and the ticket pipeline (FAQ_STORE=postgres), opened on first use; null = D1 (src/faqs/select.ts, src/tickets/select.ts). */
  faqPostgres: PgHandle | null;
}

/**
 * `defer` (a request's waitUntil) takes cache writes off the response path; jobs and tests await
 * them. A request (one with `defer`) gives each outside part a request's deadline, a job a job's:
 * the embedding model REQUEST_EMBED_DEADLINE_MS (the local model LOCAL_REQUEST_EMBED_DEADLINE_MS)
 * or JOB_EMBED_DEADLINE_MS (src/embeddings/deadline.ts), Vectorize and KV theirs (src/deadlines/).
 */
export function createServices(env: Env, clock: Clock = systemClock, log: Logger = rootLogger, defer?: Defer): Services {
  const dimensions = Number(env.EMBEDDING_DIMENSIONS);
  if (!Number.isInteger(dimensions) || dimensions <= 0) {
    throw new ConfigError(`EMBEDDING_DIMENSIONS must be a positive integer, got "${env.EMBEDDING_DIMENSIONS}"`);
  }
  const model = deadlineEmbedder(createEmbedder(env, dimensions), {
    deadlineMs: !defer
      ? JOB_EMBED_DEADLINE_MS
      : env.EMBEDDER === "local-http"
        ? LOCAL_REQUEST_EMBED_DEADLINE_MS
        : REQUEST_EMBED_DEADLINE_MS,
    breakerKey: embedderBreakerKey(env),
  });
  const cache = deadlineKv(env.CACHE, { ms: defer ? REQUEST_KV_DEADLINE_MS : JOB_KV_DEADLINE_MS, breakerKey: KV_BREAKER_KEY });
  const embedder = cachedEmbedder(model, cache, defer);
  const vectorDeadline = defer ? REQUEST_VECTOR_DEADLINE_MS : JOB_VECTOR_DEADLINE_MS;
  return {
    // Failures come out typed (src/db/errors.ts): the layers above never read D1's message text.
    db: withStorageErrors(env.DB),
    cache,
    ticketQueue: env.TICKETS as Queue<TicketMessage>,
    embedder,
    vectors: createVectorIndex(env, cache, embedder.model, dimensions, vectorDeadline),
    clock,
    judge: createJudge(env),
    // Lazy: only the webhook and secret routes (and the cron) need it, so a missing KEK takes down those, not search.
    secretBox: memo(() => createSecretBox(env.SECRETS_KEK)),
    log,
    ...(defer ? { defer } : {}),
    faqPostgres: createFaqPostgres(env),
  };
}

/**
 * A Postgres pool opened on first use. On Workers a WebSocket cannot outlive its request, so the
 * app releases the pool when the response is done (withServices); the next use opens a new one.
 */
export interface PgHandle {
  open(): PgConnection;
  /** Counts a store call as in flight: release() waits for it (hits and suggestions are written after the response). */
  track<T>(work: Promise<T>): Promise<T>;
  release(): Promise<void>;
}

function createFaqPostgres(env: Env & PostgresEnv): PgHandle | null {
  switch (env.FAQ_STORE ?? "d1") {
    case "d1":
      return null;
    case "postgres": {
      const url = env.DATABASE_URL;
      if (!url) throw new ConfigError("FAQ_STORE=postgres needs the DATABASE_URL secret");
      let connection: PgConnection | undefined;
      const inflight = new Set<Promise<unknown>>();
      return {
        open: () => (connection ??= connectPostgres(url, { wsProxy: env.DATABASE_WS_PROXY })),
        track: (work) => {
          const settled: Promise<unknown> = work.then(
            () => inflight.delete(settled),
            () => inflight.delete(settled),
          );
          inflight.add(settled);
          return work;
        },
        release: async () => {
          while (inflight.size > 0) await Promise.allSettled([...inflight]);
          const open = connection;
          connection = undefined;
          await open?.pool.end();
        },
      };
    }
    default:
      throw new ConfigError(`unknown FAQ_STORE "${env.FAQ_STORE}" (d1 | postgres)`);
  }
}

function createJudge(env: Env): Judge {
  try {
    return selectJudge(env.JUDGE, env.AI);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}

/** The breakers calls to each outside part share in an isolate (src/deadlines/breaker.ts); the judge's is its kind. */
export const KV_BREAKER_KEY = "kv:CACHE";
export const vectorizeBreakerKey = (model: string) => `vectorize:${model}`;
/** An embedder's: the adapter, where it is, the model. */
export const embedderBreakerKey = (env: Env) => `${env.EMBEDDER}:${env.EMBEDDER_URL ?? ""}:${env.EMBEDDING_MODEL}`;

function createEmbedder(env: Env, dimensions: number): Embedder {
  switch (env.EMBEDDER) {
    case "workers-ai":
      if (!env.AI) throw new ConfigError("EMBEDDER=workers-ai needs the AI binding");
      return workersAiEmbedder(env.AI, env.EMBEDDING_MODEL, dimensions);
    case "local-http":
      if (!env.EMBEDDER_URL) throw new ConfigError("EMBEDDER=local-http needs EMBEDDER_URL");
      // Its HTTP calls stand in for Workers AI's: the request's trace counts them as `ai` (src/metrics/io-bindings.ts).
      return localHttpEmbedder(env.EMBEDDER_URL, env.EMBEDDING_MODEL, dimensions, tracedFetch(env, "ai"));
    default:
      throw new ConfigError(`unknown EMBEDDER "${env.EMBEDDER}" (workers-ai | local-http)`);
  }
}

/** Vectorize's calls have a deadline (`deadlineMs`, src/deadlines/vectors.ts); the exact index is D1, the truth. */
function createVectorIndex(env: Env & CacheEnv, cache: KVNamespace, model: string, dimensions: number, deadlineMs: number): VectorIndex {
  const cacheBytes = vectorCacheBytes(env.VECTOR_CACHE_MB);
  const vectorize = (binding: VectorizeIndex) =>
    deadlineVectorIndex(vectorizeIndex(binding, model, dimensions), { ms: deadlineMs, breakerKey: vectorizeBreakerKey(model) });
  switch (env.VECTOR_INDEX) {
    case "vectorize":
      if (!env.VECTORIZE) throw new ConfigError("VECTOR_INDEX=vectorize needs the VECTORIZE binding");
      return withReadYourWrites(vectorize(env.VECTORIZE), exactD1Index(env.DB, model, dimensions));
    case "d1-exact":
      return exactD1Index(env.DB, model, dimensions, cache, cacheBytes);
    case "auto": {
      // Per collection by size (src/vectors/auto.ts); with no Vectorize bound (npm start, tests) every collection is exact.
      const exact = exactD1Index(env.DB, model, dimensions, cache, cacheBytes);
      if (!env.VECTORIZE) return exact;
      return autoIndex(exact, vectorize(env.VECTORIZE), exactMaxFor(env.VECTOR_EXACT_MAX, dimensions, cacheBytes));
    }
    default:
      throw new ConfigError(`unknown VECTOR_INDEX "${env.VECTOR_INDEX}" (auto | vectorize | d1-exact)`);
  }
}

function vectorCacheBytes(setting: string | undefined): number {
  if (setting === undefined || setting.trim() === "") return CACHE_BUDGET.vectorSnapshots;
  const mb = Number(setting);
  if (!Number.isInteger(mb) || mb < 1 || mb > 4096)
    throw new ConfigError(`VECTOR_CACHE_MB must be a whole number of MB (1..4096), got "${setting}"`);
  return mb * MiB;
}

function memo<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
}
