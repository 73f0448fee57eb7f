/**
 * The ports every feature receives, bundled per request or job (src/app/services.ts builds them
 * from the Worker's bindings), and the breaker keys /healthz reads.
 */
import type { Clock } from "../../core/base/clock";
import type { PgConnection } from "../db/pg/client";
import type { Judge } from "../judge/port";
import type { Logger } from "../observe/log";
import type { Embedder } from "./embedder";
import type { SecretBox } from "./secret-box";
import type { TicketMessage } from "./ticket-message";
import type { VectorIndex } from "./vector-index";

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
 * CACHE_BUDGET.vectorSnapshots (src/platform/isolate/memory.ts). Only for a runtime without a Worker's
 * 128 MB limit, where the exact index stands in for Vectorize at every size: the benchmarks' 40k
 * FAQ vectors stay cached under Miniflare with it raised.
 */
export interface CacheEnv {
  VECTOR_CACHE_MB?: string;
}

/**
 * Starts work once the response is built and keeps the request alive until it ends (the request's
 * `executionCtx.waitUntil`): given the start, not a running promise, so the work does not compete
 * with the rest of the request it is not needed by.
 */
export type Defer = (start: () => Promise<unknown>) => void;

export interface Services {
  /** The tenant's database: the home one (DB), or the one the directory places it in (src/platform/db/databases.ts). */
  db: D1Database;
  /**
   * The home database (DB), for what is read before a tenant is known or for the whole deployment: API keys, the
   * directory, helpdesk connections, webhook secrets, calibration. The same as `db` for a tenant that lives at home.
   */
  home: D1Database;
  /** The binding name of `db` (src/platform/db/databases.ts). */
  database: string;
  /** `db` and the vector index on another of the deployment's databases; servicesIn makes whole services of it. */
  onDatabase(name: string): Pick<Services, "database" | "db" | "vectors">;
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
  /** The current request's or job's logger (src/platform/observe/log.ts); domain code logs through it. */
  log: Logger;
  /** Work for after the request's answer (its waitUntil); absent in jobs and tests, which do such work inline. */
  defer?: Defer;
  /** The Postgres of the FAQ knowledge base and the ticket pipeline (FAQ_STORE=postgres), opened on first use; null = D1 (src/features/faqs/select.ts, src/features/tickets/select.ts). */
  faqPostgres: PgHandle | null;
}

/** The services on the database `name`, everything else as it was: the home database, the embedder, the log. */
export function servicesIn<S extends Services>(services: S, name: string): S {
  return services.database === name ? services : { ...services, ...services.onDatabase(name) };
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

/** The breakers calls to each outside part share in an isolate (src/platform/deadlines/breaker.ts); the judge's is its kind. */
export const KV_BREAKER_KEY = "kv:CACHE";
export const vectorizeBreakerKey = (model: string) => `vectorize:${model}`;
/** An embedder's: the adapter, where it is, the model. */
export const embedderBreakerKey = (env: Env) => `${env.EMBEDDER}:${env.EMBEDDER_URL ?? ""}:${env.EMBEDDING_MODEL}`;
