import { defineConfig } from "vitest/config";
// @ts-expect-error: plain ESM module shared with the benches' bundler, no type declarations
import { viteWasmModule } from "./scripts/wasm-module.mjs";
import { workersPool } from "./test/support/workers-pool.ts";

// Three projects. `npm test` runs "workers" and "node" together, then "postgres" on its own: under
// the full suite's load Miniflare's synchronous D1 proxy, which the postgres project's D1 adapter
// reaches from Node, once answered a call with another call's reply (an assertion inside miniflare).
// - "workers": tests run inside workerd with the real local D1, KV, Durable Objects and Queues of
//   Miniflare. The embedding model is real too: test/support/global-setup.ts starts the local
//   embedder (USE-lite from npm) on a free 127.0.0.1 port, and its URL reaches the Worker as EMBEDDER_URL.
// - "node": tests that spawn processes (the `recall` command), which workerd cannot; their setup
//   (test/node/support/stack.ts) builds the command and runs the Worker under Miniflare on a free port.
// - "postgres": the FAQ store port's adapters under Node, D1 (Miniflare) and Postgres (PGlite +
//   pgvector behind a local WebSocket proxy, the real Neon driver), started per test file by
//   test/postgres/support/backends.ts; workerd cannot load PGlite, so these run in Node.
export default defineConfig(async () => {
  return {
    test: {
      reporters: ["default", "./test/support/summary-reporter.ts"],
      // Every request writes a JSON access line (src/platform/observe/log.ts): keep those and info lines out of the
      // report; other warnings and errors still print. Tests that assert lines spy on the console.
      onConsoleLog: (log: string) => !(log.startsWith('{"time":') && (log.includes('"level":"info"') || log.includes('"event":"request"'))),
      projects: [
        {
          plugins: [await workersPool()],
          test: {
            name: "workers",
            include: ["test/**/*.test.ts"],
            exclude: ["test/node/**", "test/postgres/**"],
            globalSetup: ["./test/support/global-setup.ts"],
            setupFiles: ["./test/support/apply-migrations.ts"],
            testTimeout: 20_000,
          },
        },
        {
          plugins: [viteWasmModule],
          test: {
            name: "node",
            include: ["test/node/**/*.test.ts"],
            environment: "node",
            globalSetup: ["./test/node/support/stack.ts"],
            testTimeout: 30_000,
            hookTimeout: 120_000,
          },
        },
        {
          plugins: [viteWasmModule],
          test: {
            name: "postgres",
            include: ["test/postgres/**/*.test.ts"],
            environment: "node",
            globalSetup: ["./test/postgres/support/global-setup.ts"],
            testTimeout: 30_000,
            hookTimeout: 120_000,
          },
        },
      ],
    },
  };
});
