import path from "node:path";
import { defineConfig } from "vitest/config";
import { workersPool } from "./test/support/workers-pool.ts";

// `npm run simulate:show`: the label-judged 3-hour show (test/simulation/), with the same Worker,
// Durable Object and real local embedder as the test suite; the labelled data is read from
// SHOW_SIMULATION_DATA (default ../shared/data) at run time and never committed.
// Three projects, one command, differing only in the repeat table the Worker imports
// (src/core/scale/tables/use-lite-512.repeat.json, swapped by a resolve alias):
//   "before"   a table for no model: the show compares the global calibration of the cosine (before issue 14)
//   "shipped"  the shipped table, fitted on every labelled pair, the simulated stackfaq threads included
//   "held-out" the same fit without the simulated threads (`npm run calibrate -- --repeat` writes both):
//              the figures of record, on wordings the table never saw
const tables = {
  before: path.resolve(import.meta.dirname, "test/simulation/tables/no-repeat-table.json"),
  shipped: null,
  "held-out": path.resolve(import.meta.dirname, "test/simulation/tables/use-lite-512.repeat.held-out.json"),
};

export default defineConfig(async () => {
  const project = async (name: keyof typeof tables) => ({
    plugins: [await workersPool()],
    resolve: { alias: tables[name] ? [{ find: /^\.\/tables\/use-lite-512\.repeat\.json$/, replacement: tables[name] }] : [] },
    test: {
      name,
      include: ["test/simulation/**/*.sim.ts"],
      globalSetup: ["./test/support/global-setup.ts", "./test/simulation/global-setup.ts"],
      setupFiles: ["./test/support/apply-migrations.ts"],
      provide: { simulationVariant: name },
      testTimeout: 900_000,
    },
  });
  return { test: { fileParallelism: false, projects: [await project("before"), await project("shipped"), await project("held-out")] } };
});
