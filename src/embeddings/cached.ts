/**
 * An Embedder decorator that caches vectors in KV under `emb:v1:<model>:<sha256(text)>`, so a
 * repeated query (or a re-index) costs no model call. Cache faults are ignored: the cache may
 * only make things faster, never break them.
 */
import { sha256Hex } from "../crypto";
import type { Embedder } from "./port";

/** Embeddings are a pure function of (model, text), so they can live long. */
export const EMBEDDING_CACHE_TTL_SECONDS = 30 * 24 * 3600;

export function embeddingCacheKey(model: string, textHash: string): string {
  return `emb:v1:${model}:${textHash}`;
}

export function cachedEmbedder(inner: Embedder, kv: KVNamespace): Embedder {
  return {
    ...inner,
    canEmbed: (text) => inner.canEmbed(text),
    async embed(texts) {
      const keys = await Promise.all(texts.map(async (t) => embeddingCacheKey(inner.model, await sha256Hex(t))));
      const cached = await Promise.all(keys.map((key) => kv.get(key, "arrayBuffer").catch(() => null)));
      const missing = texts.flatMap((text, i) => (cached[i] ? [] : [{ text, i }]));
      const out: Float32Array[] = cached.map((buffer) => (buffer ? new Float32Array(buffer) : new Float32Array(0)));
      if (missing.length > 0) {
        const fresh = await inner.embed(missing.map((m) => m.text));
        await Promise.all(
          missing.map(({ i }, j) => {
            out[i] = fresh[j]!;
            return kv.put(keys[i]!, fresh[j]!.slice().buffer, { expirationTtl: EMBEDDING_CACHE_TTL_SECONDS }).catch(() => {});
          }),
        );
      }
      return out;
    },
  };
}
