import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
// @ts-expect-error: plain ESM script shared with `npm start`, no type declarations
import { copyReferenceAssets } from "../../scripts/reference-assets.mjs";

const root = path.join(import.meta.dirname, "..", "..");

/**
 * The Worker as the test suite and the show simulation run it: inside workerd with the real local
 * D1, KV, Durable Objects and Queues, the migrations as a binding, and the URL of the real local
 * embedder that test/support/global-setup.ts starts.
 */
export async function workersPool() {
  // [env.test] leaves out the remote-only AI and Vectorize bindings on purpose; without this, wrangler
  // warns about it once per test file and buries the report (its errors still print).
  process.env.WRANGLER_LOG ??= "error";
  // wrangler.toml's [assets] folder must exist before the Worker starts.
  copyReferenceAssets();
  const migrations = await readD1Migrations(path.join(root, "migrations"));
  return cloudflareTest(({ inject }) => ({
    main: "./workers/api.ts",
    remoteBindings: false,
    wrangler: { configPath: "./wrangler.toml", environment: "test" },
    miniflare: {
      bindings: { TEST_MIGRATIONS: migrations, EMBEDDER_URL: inject("embedderUrl"), HANGING_EMBEDDER_URL: inject("hangingEmbedderUrl") },
      // Real (emulated) rate limiters with a tiny limit: test/integration/ratelimit.test.ts swaps
      // them in for the raised ones of [env.test] to reach a 429 in a few requests.
      ratelimits: { TIGHT_RATE_LIMIT: { simple: { limit: 3, period: 60 } } },
    },
  }));
}
