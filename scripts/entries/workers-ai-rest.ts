// What `npm run calibrate -- --model @cf/…` needs from src/: the production Workers AI adapter
// (workersAiEmbedder: batching, vector checks, each model's languages) over the REST API instead
// of the binding (bundled with esbuild, so the laptop embeds with the code the Worker runs).
import type { Embedder } from "../../src/platform/ports/embedder";
import { workersAiEmbedder } from "../../src/adapters/embeddings/workers-ai";
import { workersAiRest } from "../../src/adapters/embeddings/workers-ai-rest";

/**
 * Output dimensions of the Workers AI embedding models Recall knows (the "Output Dimensions" of
 * each model page, https://developers.cloudflare.com/workers-ai/models/). Their languages are
 * workers-ai.ts's; a model missing here is refused rather than guessed.
 */
export const WORKERS_AI_DIMENSIONS: Readonly<Record<string, number>> = {
  "@cf/baai/bge-m3": 1024,
  "@cf/baai/bge-large-en-v1.5": 1024,
  "@cf/baai/bge-base-en-v1.5": 768,
  "@cf/baai/bge-small-en-v1.5": 384,
};

export function workersAiRestEmbedder(model: string, credentials: { accountId: string; apiToken: string }): Embedder {
  const dimensions = WORKERS_AI_DIMENSIONS[model];
  if (dimensions === undefined) throw new Error(`unknown Workers AI model ${model}`);
  return workersAiEmbedder(workersAiRest(credentials), model, dimensions);
}
