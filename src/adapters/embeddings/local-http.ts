/**
 * Local HTTP adapter: the Node embedding server that `npm start` (and the test run) launches on
 * 127.0.0.1 — see scripts/local-embedder.mjs for the other side of this protocol:
 *   POST /embed { texts: string[] } → { model, dimensions, vectors: number[][] }
 */
import { shippedScale } from "../../core/scale/registry";
import { languageGate } from "../../platform/ports/languages";
import { type Embedder, EmbeddingError } from "../../platform/ports/embedder";

/** The local default model (Universal Sentence Encoder lite) only knows English. */
export const LOCAL_MODEL_LANGUAGES = ["en"] as const;
/** Texts per request to the local server: bounds one request's memory and latency. */
const LOCAL_MAX_BATCH = 64;

export function localHttpEmbedder(baseUrl: string, model: string, dimensions: number, fetcher: typeof fetch = fetch): Embedder {
  const endpoint = new URL("/embed", baseUrl).toString();
  return {
    kind: "local-http",
    model,
    dimensions,
    languages: LOCAL_MODEL_LANGUAGES,
    canEmbed: languageGate(LOCAL_MODEL_LANGUAGES),
    scale: shippedScale(model),
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += LOCAL_MAX_BATCH) {
        const batch = texts.slice(i, i + LOCAL_MAX_BATCH);
        out.push(...(await post(batch)));
      }
      return out;
    },
  };

  async function post(texts: string[]): Promise<Float32Array[]> {
    let response: Response;
    try {
      response = await fetcher(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ texts }),
      });
    } catch (cause) {
      throw new EmbeddingError(`local embedder at ${baseUrl} is unreachable`, { cause });
    }
    if (!response.ok) throw new EmbeddingError(`local embedder answered ${response.status}`);
    const body = (await response.json()) as { model?: string; vectors?: number[][] };
    if (body.model !== model) {
      throw new EmbeddingError(`local embedder serves model ${body.model}, configured ${model}`);
    }
    if (!Array.isArray(body.vectors) || body.vectors.length !== texts.length) {
      throw new EmbeddingError("local embedder returned the wrong number of vectors");
    }
    return body.vectors.map((v) => {
      if (v.length !== dimensions) throw new EmbeddingError(`local embedder returned ${v.length}-d, expected ${dimensions}`);
      return Float32Array.from(v);
    });
  }
}
