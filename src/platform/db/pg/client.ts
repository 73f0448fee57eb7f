/**
 * The Postgres connection of the FAQ store: Neon's serverless driver (`@neondatabase/serverless`
 * Pool over WebSockets) through drizzle's `neon-serverless` adapter. Why the Pool and not
 * `neon-http`: updates write the replaced content as a version in an interactive transaction
 * (read, decide, write), which neon-http cannot do; and the Pool is also what reaches the local
 * Postgres the tests and `npm start -- --postgres` run (the HTTP path needs Neon's /sql endpoint).
 */
import { neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle, type NeonDatabase } from "drizzle-orm/neon-serverless";
import * as schema from "./schema";

export type PgDatabase = NeonDatabase<typeof schema>;

/** Bounds on every wait for Postgres, so an unreachable or stalled database answers 503, never hangs. */
export const PG_CONNECT_TIMEOUT_MS = 3_000;
export const PG_QUERY_TIMEOUT_MS = 5_000;

export interface PgConnection {
  db: PgDatabase;
  pool: Pool;
}

export interface PgOptions {
  /**
   * A plain-WebSocket proxy in front of a local Postgres ("127.0.0.1:PORT"), as Neon's own
   * proxy stands in front of Neon: set only for local runs and tests (DATABASE_WS_PROXY).
   */
  wsProxy?: string | undefined;
  connectTimeoutMs?: number | undefined;
  queryTimeoutMs?: number | undefined;
}

export function connectPostgres(url: string, options: PgOptions = {}): PgConnection {
  if (options.wsProxy) useLocalProxy(options.wsProxy);
  const pool = new Pool({
    connectionString: url,
    connectionTimeoutMillis: options.connectTimeoutMs ?? PG_CONNECT_TIMEOUT_MS,
    query_timeout: options.queryTimeoutMs ?? PG_QUERY_TIMEOUT_MS,
    // A request's four search lists share two connections: on Workers each connection is a
    // WebSocket and a Postgres backend for one request only, so few per request keeps Neon's limits far.
    max: 2,
  });
  // An idle client that loses its socket must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  return { db: drizzle({ client: pool, schema }), pool };
}

/** neonConfig is module-global: a local proxy speaks ws://, with no TLS and no pipelined startup. */
function useLocalProxy(proxy: string): void {
  neonConfig.wsProxy = (host, port) => `${proxy}/v1?address=${host}:${port}`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
}
