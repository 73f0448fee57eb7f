/**
 * Workers AI adapter (production). The BGE embedding models answer `{ text: string[] }` with
 * `{ shape: [n, d], data: number[][] }` (bge-m3 may name the field `response`); both are read,
 * and a response of the wrong shape is an error, never a silently truncated vector.
 */
import { shippedScale } from "../../core/scale/registry";
import { languageGate } from "../../platform/ports/languages";
import { type Embedder, EmbeddingError } from "../../platform/ports/embedder";

/** Workers AI accepts at most 100 texts per embedding call. */
export const WORKERS_AI_MAX_BATCH = 100;

/** Models we know, with their languages: bge-m3 is multilingual, the small/base BGE are English. */
const KNOWN_LANGUAGES: Record<string, readonly string[]> = {
  "@cf/baai/bge-m3": ["*"],
  "@cf/baai/bge-small-en-v1.5": ["en"],
  "@cf/baai/bge-base-en-v1.5": ["en"],
  "@cf/baai/bge-large-en-v1.5": ["en"],
};

export interface AiRunner {
  run(model: string, inputs: { text: string[] }): Promise<unknown>;
}

export function workersAiEmbedder(ai: AiRunner, model: string, dimensions: number): Embedder {
  const languages = KNOWN_LANGUAGES[model] ?? ["en"];
  return {
    kind: "workers-ai",
    model,
    dimensions,
    languages,
    canEmbed: languageGate(languages),
    scale: shippedScale(model),
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += WORKERS_AI_MAX_BATCH) {
        const batch = texts.slice(i, i + WORKERS_AI_MAX_BATCH);
        let response: unknown;
        try {
          response = await ai.run(model, { text: batch });
        } catch (cause) {
          throw new EmbeddingError(`Workers AI ${model} failed`, { cause });
        }
        out.push(...readVectors(response, batch.length, dimensions, model));
      }
      return out;
    },
  };
}

function readVectors(response: unknown, count: number, dimensions: number, model: string): Float32Array[] {
  const body = response as { data?: unknown; response?: unknown } | null;
  const rows = Array.isArray(body?.data) ? body.data : Array.isArray(body?.response) ? body.response : null;
  if (!rows || rows.length !== count) {
    throw new EmbeddingError(`Workers AI ${model} returned ${rows ? rows.length : "no"} vectors for ${count} texts`);
  }
  return rows.map((row) => {
    if (!Array.isArray(row) || row.length !== dimensions || !row.every((x) => typeof x === "number")) {
      throw new EmbeddingError(`Workers AI ${model} returned a vector that is not ${dimensions} numbers`);
    }
    return Float32Array.from(row);
  });
}
