import path from "node:path";
import { defineConfig } from "vitest/config";
import { workersPool } from "./test/support/workers-pool";

// `npm run simulate:show`: the label-judged 3-hour show (test/simulation/), with the same Worker,
// Durable Object and real local embedder as the test suite; the labelled data is read from
// SHOW_SIMULATION_DATA (default ../shared/data) at run time and never committed.
// Two projects, one command: "after" runs the shipped tables; "before" resolves the repeat table
// (src/calibration/tables/use-lite-512.repeat.json) to a table for no model, so the show compares
// the global calibration of the cosine as it did before issue 14. Nothing else differs.
const noRepeatTable = path.resolve(import.meta.dirname, "test/simulation/tables/no-repeat-table.json");

export default defineConfig(async () => {
  const project = async (name: "before" | "after") => ({
    plugins: [await workersPool()],
    resolve: name === "before" ? { alias: [{ find: /^\.\/tables\/use-lite-512\.repeat\.json$/, replacement: noRepeatTable }] } : {},
    test: {
      name,
      include: ["test/simulation/**/*.sim.ts"],
      globalSetup: ["./test/support/global-setup.ts", "./test/simulation/global-setup.ts"],
      setupFiles: ["./test/support/apply-migrations.ts"],
      provide: { simulationVariant: name },
      testTimeout: 900_000,
    },
  });
  return { test: { fileParallelism: false, projects: [await project("before"), await project("after")] } };
});
