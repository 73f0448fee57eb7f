import type { TestProject } from "vitest/node";
// @ts-expect-error: plain ESM modules shared with the benches, no type declarations
import { BENCH_KEY, startWorker } from "../../../bench/support/worker.mjs";
// @ts-expect-error: plain ESM module shared with `npm run build:cli`
import { buildCli } from "../../../scripts/build-cli.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    recallUrl: string;
    recallKey: string;
    cliPath: string;
  }
}

/**
 * Builds the `recall` command and starts the Worker (the deploy bundle under Miniflare, local
 * D1/KV/Durable Objects, the real local embedder) listening on a free 127.0.0.1 port, once for
 * the node project. The key is the dev key of the Worker's local dev tenant.
 */
export default async function setup(project: TestProject) {
  const [cliPath, worker] = await Promise.all([buildCli(), startWorker({ helperEmbedder: false })]);
  project.provide("cliPath", cliPath as string);
  project.provide("recallUrl", worker.url as string);
  project.provide("recallKey", BENCH_KEY as string);
  return () => worker.close();
}
