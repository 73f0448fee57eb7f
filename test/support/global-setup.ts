import type { TestProject } from "vitest/node";
// @ts-expect-error: plain ESM module shared with `npm start`, no type declarations
import { startLocalEmbedder } from "../../scripts/local-embedder.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    embedderUrl: string;
  }
}

/** Starts the real local embedder once for the whole run; the Worker reaches it over 127.0.0.1. */
export default async function setup(project: TestProject) {
  const { server, url } = await startLocalEmbedder();
  project.provide("embedderUrl", url);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
