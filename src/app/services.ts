/**
 * Builds the ports from the Worker's bindings and vars. This is the one place that decides
 * which adapter runs where: Workers AI + Vectorize in production, the local HTTP embedder + the
 * exact D1 index locally and in tests.
 */
import { type Clock, systemClock } from "../core/base/clock";
import { cachedEmbedder } from "../adapters/embeddings/cached";
import {
  type CacheEnv,
  type Defer,
  embedderBreakerKey,
  KV_BREAKER_KEY,
  type PgHandle,
  type PostgresEnv,
  type Services,
  vectorizeBreakerKey,
} from "../platform/ports/services";
import {
  deadlineEmbedder,
  JOB_EMBED_DEADLINE_MS,
  LOCAL_REQUEST_EMBED_DEADLINE_MS,
  REQUEST_EMBED_DEADLINE_MS,
} from "../adapters/embeddings/deadline";
import type { TicketMessage } from "../platform/ports/ticket-message";
import type { Judge } from "../platform/judge/port";
import { selectJudge } from "../adapters/judge/select";
import { localHttpEmbedder } from "../adapters/embeddings/local-http";
import { tracedFetch } from "../platform/observe/io-bindings";
import type { Embedder } from "../platform/ports/embedder";
import type { Scale } from "../core/scale/scale";
import { workersAiEmbedder } from "../adapters/embeddings/workers-ai";
import { autoIndex, exactMaxFor } from "../adapters/vectors/auto";
import { exactD1Index } from "../adapters/vectors/exact-d1";
import type { VectorIndex } from "../platform/ports/vector-index";
import { withReadYourWrites } from "../adapters/vectors/read-your-writes";
import { vectorizeIndex } from "../adapters/vectors/vectorize";
import { createSecretBox } from "../platform/ports/secret-box";
import { type Logger, rootLogger } from "../platform/observe/log";
import { withStorageErrors } from "../platform/db/errors";
import { ConfigError } from "../platform/observe/config-error";
import { CACHE_BUDGET, MiB } from "../platform/isolate/memory";
import { deadlineKv, JOB_KV_DEADLINE_MS, REQUEST_KV_DEADLINE_MS } from "../platform/deadlines/kv";
import { deadlineVectorIndex, JOB_VECTOR_DEADLINE_MS, REQUEST_VECTOR_DEADLINE_MS } from "../platform/deadlines/vectors";
import { connectPostgres, type PgConnection } from "../platform/db/pg/client";
import { databaseBinding, HOME_DATABASE } from "../platform/db/databases";

/**
 * `defer` (a request's waitUntil) takes cache writes off the response path; jobs and tests await
 * them. A request (one with `defer`) gives each outside part a request's deadline, a job a job's:
 * the embedding model REQUEST_EMBED_DEADLINE_MS (the local model LOCAL_REQUEST_EMBED_DEADLINE_MS)
 * or JOB_EMBED_DEADLINE_MS (src/adapters/embeddings/deadline.ts), Vectorize and KV theirs (src/platform/deadlines/).
 */
export function createServices(env: Env, clock: Clock = systemClock, log: Logger = rootLogger, defer?: Defer): Services {
  const dimensions = Number(env.EMBEDDING_DIMENSIONS);
  if (!Number.isInteger(dimensions) || dimensions <= 0) {
    throw new ConfigError(`EMBEDDING_DIMENSIONS must be a positive integer, got "${env.EMBEDDING_DIMENSIONS}"`);
  }
  const created = createEmbedder(env, dimensions);
  warnIfUncalibrated(created.scale, log);
  const model = deadlineEmbedder(created, {
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
  // Failures come out typed (src/platform/db/errors.ts): the layers above never read D1's message text.
  const db = withStorageErrors(env.DB);
  const vectorsOn = (binding: D1Database) => createVectorIndex(env, binding, cache, embedder.model, dimensions, vectorDeadline, defer);
  return {
    db,
    // Services on a placed tenant's database keep the home one they were made beside (servicesIn).
    home: db,
    database: HOME_DATABASE,
    onDatabase: (name) => {
      const binding = databaseBinding(env, name);
      if (!binding) throw new ConfigError(`the D1 binding "${name}" is missing (wrangler.toml [[d1_databases]])`);
      return { database: name, db: withStorageErrors(binding), vectors: vectorsOn(binding) };
    },
    cache,
    ticketQueue: env.TICKETS as Queue<TicketMessage>,
    embedder,
    vectors: vectorsOn(env.DB),
    clock,
    judge: createJudge(env),
    // Lazy: only the webhook and secret routes (and the cron) need it, so a missing KEK takes down those, not search.
    secretBox: memo(() => createSecretBox(env.SECRETS_KEK)),
    log,
    ...(defer ? { defer } : {}),
    faqPostgres: createFaqPostgres(env),
  };
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

const warnedUncalibrated = new Set<string>();

/** One warning log line per model per isolate: thresholds mean something else on raw cosine. */
function warnIfUncalibrated(scale: Scale, log: Logger): void {
  if (scale.source.kind !== "raw" || warnedUncalibrated.has(scale.model)) return;
  warnedUncalibrated.add(scale.model);
  log.warn("similarity_uncalibrated", { model: scale.model, calibrated: false, reason: scale.source.reason });
}

function createEmbedder(env: Env, dimensions: number): Embedder {
  switch (env.EMBEDDER) {
    case "workers-ai":
      if (!env.AI) throw new ConfigError("EMBEDDER=workers-ai needs the AI binding");
      return workersAiEmbedder(env.AI, env.EMBEDDING_MODEL, dimensions);
    case "local-http":
      if (!env.EMBEDDER_URL) throw new ConfigError("EMBEDDER=local-http needs EMBEDDER_URL");
      // Its HTTP calls stand in for Workers AI's: the request's trace counts them as `ai` (src/platform/observe/io-bindings.ts).
      return localHttpEmbedder(env.EMBEDDER_URL, env.EMBEDDING_MODEL, dimensions, tracedFetch(env, "ai"));
    default:
      throw new ConfigError(`unknown EMBEDDER "${env.EMBEDDER}" (workers-ai | local-http)`);
  }
}

/**
 * The index of the vectors in `db` (a tenant's database). Vectorize's calls have a deadline (`deadlineMs`, src/platform/deadlines/vectors.ts); the exact index is D1, the truth.
 * A request's `defer` lets the exact index load a new isolate's snapshot after the response (src/adapters/vectors/first-answer.ts).
 */
function createVectorIndex(
  env: Env & CacheEnv,
  db: D1Database,
  cache: KVNamespace,
  model: string,
  dimensions: number,
  deadlineMs: number,
  defer: Defer | undefined,
): VectorIndex {
  const cacheBytes = vectorCacheBytes(env.VECTOR_CACHE_MB);
  const vectorize = (binding: VectorizeIndex) =>
    deadlineVectorIndex(vectorizeIndex(binding, model, dimensions), { ms: deadlineMs, breakerKey: vectorizeBreakerKey(model) });
  switch (env.VECTOR_INDEX) {
    case "vectorize":
      if (!env.VECTORIZE) throw new ConfigError("VECTOR_INDEX=vectorize needs the VECTORIZE binding");
      return withReadYourWrites(vectorize(env.VECTORIZE), exactD1Index(db, model, dimensions));
    case "d1-exact":
      return exactD1Index(db, model, dimensions, cache, cacheBytes, defer);
    case "auto": {
      // Per collection by size (src/adapters/vectors/auto.ts); with no Vectorize bound (npm start, tests) every collection is exact.
      const exact = exactD1Index(db, model, dimensions, cache, cacheBytes, defer);
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
