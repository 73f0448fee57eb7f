/**
 * Both FAQ store backends for one test file, under Node: D1 as Miniflare's local D1 (the D1
 * migrations applied) and Postgres as PGlite + pgvector behind pglite-socket and a WebSocket→TCP
 * proxy, reached by the real Neon driver (scripts/local-postgres.mjs; migrations/pg applied).
 * Services are built by the production createServices from these bindings, so FAQ_STORE picks the adapter.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { Miniflare } from "miniflare";
import { inject } from "vitest";
import type { FaqStore } from "../../../src/features/faqs/port";
import { faqStore } from "../../../src/features/faqs/select";
import { createServices } from "../../../src/app/services";
import { type PostgresEnv, type Services } from "../../../src/platform/ports/services";
// @ts-expect-error: plain ESM modules shared with `npm start` and the bench, no type declarations
import { startLocalPostgres } from "../../../scripts/local-postgres.mjs";
// @ts-expect-error: plain ESM module shared with `npm run db:migrate:pg`
import { configureNeonForNode, migratePostgres } from "../../../scripts/pg-migrate.mjs";

export type Backend = "d1" | "postgres";
export const BACKENDS: readonly Backend[] = ["d1", "postgres"];

export interface LocalPostgres {
  databaseUrl: string;
  proxyPort: number;
  /** Drops every connection and refuses new ones (the data stays). */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Holds every byte between the driver and Postgres (a hung database), until unstall(). */
  stall(): void;
  unstall(): void;
  stop(): Promise<void>;
}

export interface Backends {
  services(backend: Backend): Services;
  store(backend: Backend): FaqStore;
  /** The store with its services' clock stopped at `now` (what it stamps on rows). */
  storeAt(backend: Backend, now: number): FaqStore;
  postgres: LocalPostgres;
  close(): Promise<void>;
}

const root = join(import.meta.dirname, "..", "..", "..");

export async function startBackends(): Promise<Backends> {
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch: () => new Response(null, { status: 404 }) }",
    compatibilityDate: "2026-04-20",
    d1Databases: { DB: "recall-faq-store" },
    kvNamespaces: ["CACHE"],
    queueProducers: { TICKETS: { queueName: "recall-tickets" } },
  });
  const db = await mf.getD1Database("DB");
  for (const migration of await readD1Migrations(join(root, "migrations"))) await db.batch(migration.queries.map((q) => db.prepare(q)));
  const postgres = (await startLocalPostgres()) as LocalPostgres;
  const wsProxy = `127.0.0.1:${postgres.proxyPort}`;
  await migratePostgres(postgres.databaseUrl, { wsProxy });
  configureNeonForNode(wsProxy);
  const env = {
    DB: db,
    CACHE: await mf.getKVNamespace("CACHE"),
    TICKETS: await mf.getQueueProducer("TICKETS"),
    EMBEDDER: "local-http",
    EMBEDDER_URL: inject("embedderUrl"),
    EMBEDDING_MODEL: "use-lite-512",
    EMBEDDING_DIMENSIONS: "512",
    VECTOR_INDEX: "d1-exact",
    JUDGE: "heuristic",
    SECRETS_KEK: `test:${randomBytes(32).toString("base64")}`,
  };
  const pgEnv: PostgresEnv = { FAQ_STORE: "postgres", DATABASE_URL: postgres.databaseUrl, DATABASE_WS_PROXY: wsProxy };
  // Only the bindings createServices reads: the Worker's Env also has Durable Objects these stores never touch.
  const built = { d1: createServices(env as unknown as Env), postgres: createServices({ ...env, ...pgEnv } as unknown as Env) };
  return {
    services: (backend) => built[backend],
    store: (backend) => faqStore(built[backend]),
    storeAt: (backend, now) => faqStore({ ...built[backend], clock: { now: () => now } }),
    postgres,
    async close() {
      await built.postgres.faqPostgres?.release().catch(() => {});
      await postgres.stop();
      await mf.dispose();
    },
  };
}

let tenantCount = 0;
/** A fresh tenant id (the D1 side needs its row: faqs reference tenants). */
export async function newTenant(backends: Backends): Promise<string> {
  const id = `t_pg_${process.pid}_${++tenantCount}`;
  const db = backends.services("d1").db;
  await db.prepare("INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)").bind(id, id, Date.now()).run();
  return id;
}

const unlimited = { limit: async () => ({ success: true }) };
/** Every Rate Limiting binding the Worker declares (wrangler.toml), which Node has none of. */
const RATE_LIMITS = [
  ...new Set([...readFileSync(join(root, "wrangler.toml"), "utf8").matchAll(/name = "(\w+_RATE_LIMIT)"/g)].map((m) => m[1]!)),
];

/**
 * The Worker's env for the app run under Node: the given bindings, and every Rate Limiting binding
 * unlimited, so a binding added to wrangler.toml needs no change here.
 */
export function nodeEnv(bindings: Partial<Record<keyof Env, unknown>>): Env {
  return { ...Object.fromEntries(RATE_LIMITS.map((name) => [name, unlimited])), ...bindings } as unknown as Env;
}
