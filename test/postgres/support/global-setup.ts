import type { TestProject } from "vitest/node";
// @ts-expect-error: plain ESM module shared with `npm start`, no type declarations
import { startLocalEmbedder } from "../../../scripts/local-embedder.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    embedderUrl: string;
  }
}

/** The real local embedder, once for the postgres project; each test file starts its own databases (support/backends.ts). */
export default async function setup(project: TestProject) {
  const { server, url } = (await startLocalEmbedder()) as { server: import("node:http").Server; url: string };
  project.provide("embedderUrl", url);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
