import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
// @ts-expect-error: plain ESM module shared with `npm start`, no type declarations
import { startLocalEmbedder } from "../../scripts/local-embedder.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    embedderUrl: string;
    hangingEmbedderUrl: string;
  }
}

/**
 * Starts the real local embedder once for the whole run; the Worker reaches it over 127.0.0.1.
 * Beside it, a model host that accepts connections and never answers (a hung model, as seen in
 * production): test/integration/deadlines.test.ts points the Worker at it.
 */
export default async function setup(project: TestProject) {
  const { server, url } = await startLocalEmbedder();
  project.provide("embedderUrl", url);
  const hanging = createServer(() => {});
  await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  project.provide("hangingEmbedderUrl", `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`);
  return () =>
    Promise.all([
      new Promise<void>((resolve) => server.close(() => resolve())),
      new Promise<void>((resolve) => {
        hanging.closeAllConnections();
        hanging.close(() => resolve());
      }),
    ]).then(() => undefined);
}
