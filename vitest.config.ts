import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
// @ts-expect-error: plain ESM script shared with `npm start`, no type declarations
import { copyReferenceAssets } from "./scripts/reference-assets.mjs";

// Tests run inside workerd with the real local D1, KV, Durable Objects and Queues of Miniflare.
// The embedding model is real too: test/support/global-setup.ts starts the local embedder
// (USE-lite from npm) on a free 127.0.0.1 port, and its URL reaches the Worker as EMBEDDER_URL.
export default defineConfig(async () => {
  // wrangler.toml's [assets] folder must exist before the Worker starts.
  copyReferenceAssets();
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    plugins: [
      cloudflareTest(({ inject }) => ({
        main: "./workers/api.ts",
        remoteBindings: false,
        wrangler: { configPath: "./wrangler.toml", environment: "test" },
        miniflare: {
          bindings: { TEST_MIGRATIONS: migrations, EMBEDDER_URL: inject("embedderUrl") },
        },
      })),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      globalSetup: ["./test/support/global-setup.ts"],
      setupFiles: ["./test/support/apply-migrations.ts"],
      testTimeout: 20_000,
      reporters: ["default", "./test/support/summary-reporter.ts"],
    },
  };
});
