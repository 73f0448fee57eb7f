// Applies migrations/pg/ (drizzle-kit's journal, hand-written ones included) to the FAQ store's
// Postgres: `DATABASE_URL=postgres://… npm run db:migrate:pg`. Through Neon's driver, as the
// Worker connects; DATABASE_WS_PROXY=127.0.0.1:PORT for a local Postgres behind a WebSocket proxy.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import { migrate } from "drizzle-orm/neon-serverless/migrator";
import ws from "ws";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Neon's driver in Node: `ws` for WebSockets; a local proxy speaks ws:// with no TLS and no pipelined startup. */
export function configureNeonForNode(wsProxy) {
  neonConfig.webSocketConstructor = ws;
  if (!wsProxy) return;
  neonConfig.wsProxy = (host, port) => `${wsProxy}/v1?address=${host}:${port}`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
}

export async function migratePostgres(databaseUrl, { wsProxy } = {}) {
  configureNeonForNode(wsProxy);
  const pool = new Pool({ connectionString: databaseUrl });
  try {
    await migrate(drizzle({ client: pool }), { migrationsFolder: join(root, "migrations", "pg") });
  } finally {
    await pool.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is not set (postgres://user:password@host/db)");
    process.exit(2);
  }
  await migratePostgres(url, { wsProxy: process.env.DATABASE_WS_PROXY });
  console.log("migrations/pg applied");
}
