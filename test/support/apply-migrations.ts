import { applyD1Migrations, env } from "cloudflare:test";

// Setup files run before each test file, outside its isolated storage; applying is idempotent.
// Every database has every table (docs/design/tenant-placement.md): the home one and DB_1.
if (!env.DB_1) throw new Error("wrangler.toml [env.test] has no DB_1: the placement tests need a second database");
await Promise.all([applyD1Migrations(env.DB, env.TEST_MIGRATIONS), applyD1Migrations(env.DB_1, env.TEST_MIGRATIONS)]);
