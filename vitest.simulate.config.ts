import { defineConfig } from "vitest/config";
import { workersPool } from "./test/support/workers-pool.ts";

// `npm run simulate:show`: the label-judged 3-hour show (test/simulation/), with the same Worker,
// Durable Object and real local embedder as the test suite; the labelled data is read from
// SHOW_SIMULATION_DATA (default ../shared/data) at run time and never committed.
export default defineConfig(async () => ({
  plugins: [await workersPool()],
  test: {
    include: ["test/simulation/**/*.sim.ts"],
    globalSetup: ["./test/support/global-setup.ts", "./test/simulation/global-setup.ts"],
    setupFiles: ["./test/support/apply-migrations.ts"],
    testTimeout: 900_000,
  },
}));
