import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// `npm run simulate:show`: the label-judged 3-hour show (test/simulation/), with the same Worker,
// Durable Object and real local embedder as the test suite; the labelled data is read from
// SHOW_SIMULATION_DATA (default ../shared/data) at run time and never committed.
export default defineConfig(async () => {
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
      include: ["test/simulation/**/*.sim.ts"],
      globalSetup: ["./test/support/global-setup.ts", "./test/simulation/global-setup.ts"],
      setupFiles: ["./test/support/apply-migrations.ts"],
      testTimeout: 900_000,
    },
  };
});
