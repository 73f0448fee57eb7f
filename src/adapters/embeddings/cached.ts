/**
 * An Embedder decorator that caches vectors in KV under `emb:v1:<model>:<sha256(text)>`, so a
 * repeated query (or a re-index) costs no model call, and the most recent short texts (queries)
 * in the isolate's memory too, so a repeated query costs no KV read either. Cache faults are
 * ignored: the cache may only make things faster, never break them.
 */
import { sha256Hex } from "../../core/base/crypto";
import type { Embedder } from "../../platform/ports/embedder";
import type { Defer } from "../../platform/ports/services";
import { CACHE_BUDGET } from "../../platform/isolate/memory";

/** Embeddings are a pure function of (model, text), so they can live long. */
export const EMBEDDING_CACHE_TTL_SECONDS = 30 * 24 * 3600;
/**
 * Texts an isolate remembers the vectors of, the oldest out first past CACHE_BUDGET.recentEmbeddings
 * (src/platform/isolate/memory.ts: 4 MB, ~900 queries at 1024 dimensions). Only texts up to
 * RECENT_TEXT_MAX_CHARS (queries, not documents being indexed).
 */
export const RECENT_TEXT_MAX_CHARS = 512;

export function embeddingCacheKey(model: string, textHash: string): string {
  return `emb:v1:${model}:${textHash}`;
}

const recent = new Map<string, Float32Array>();
let recentBytes = 0;

/** What the vectors this isolate remembers take (tests). */
export const recentEmbeddingBytes = () => recentBytes;

/** Forgets the vectors this isolate remembers, as a new isolate starts (tests). */
export function forgetRecentEmbeddings(): void {
  recent.clear();
  recentBytes = 0;
}

const recentKey = (model: string, text: string) => `${model}\u0000${text}`;
/** A remembered vector's cost: its floats, its key (two bytes a character at most) and the map's slot. */
const bytesOf = (key: string, vector: Float32Array) => vector.byteLength + 2 * key.length + 96;

function remember(model: string, text: string, vector: Float32Array): void {
  if (text.length > RECENT_TEXT_MAX_CHARS || vector.length === 0) return;
  const key = recentKey(model, text);
  const known = recent.get(key);
  if (known) recentBytes -= bytesOf(key, known);
  recent.delete(key);
  recent.set(key, vector.slice());
  recentBytes += bytesOf(key, vector);
  for (const [oldest, old] of recent) {
    if (recentBytes <= CACHE_BUDGET.recentEmbeddings) break;
    recent.delete(oldest);
    recentBytes -= bytesOf(oldest, old);
  }
}

function recalled(model: string, text: string): Float32Array | null {
  const key = recentKey(model, text);
  const vector = recent.get(key);
  if (!vector) return null;
  recent.delete(key);
  recent.set(key, vector); // most recent last: eviction takes from the front
  return vector.slice();
}

/**
 * `defer` takes the KV write of a freshly embedded text off the response path (a request's
 * waitUntil); without it (jobs, tests) the write is awaited.
 */
export function cachedEmbedder(inner: Embedder, kv: KVNamespace, defer?: Defer): Embedder {
  /**
   * Texts this embedder is fetching now. An embedder lives for one request (createServices), and
   * a request may ask for one text twice at once (the similar-questions search and its dedupe
   * check): the second waits for the first instead of paying its own KV read and model call.
   * Per request, never per isolate: workerd cancels a request's I/O when it ends.
   */
  const inflight = new Map<string, Promise<Float32Array>>();

  /** The texts' vectors from KV, or from the model for those KV lacks (then written to KV). */
  async function load(texts: readonly string[]): Promise<Float32Array[]> {
    const out: (Float32Array | null)[] = texts.map(() => null);
    const keys = await Promise.all(texts.map(async (text) => embeddingCacheKey(inner.model, await sha256Hex(text))));
    const stored = await Promise.all(keys.map((key) => kv.get(key, "arrayBuffer").catch(() => null)));
    const missing: { text: string; i: number; key: string }[] = [];
    texts.forEach((text, i) => {
      const buffer = stored[i];
      if (buffer) out[i] = new Float32Array(buffer);
      else missing.push({ text, i, key: keys[i]! });
    });
    if (missing.length > 0) {
      const fresh = await inner.embed(missing.map((m) => m.text));
      const writes = missing.map(({ i, key }, j) => {
        out[i] = fresh[j]!;
        return { key, buffer: fresh[j]!.slice().buffer };
      });
      const write = () =>
        Promise.all(writes.map(({ key, buffer }) => kv.put(key, buffer, { expirationTtl: EMBEDDING_CACHE_TTL_SECONDS }).catch(() => {})));
      if (defer) defer(write);
      else await write();
    }
    texts.forEach((text, i) => remember(inner.model, text, out[i]!));
    return out as Float32Array[];
  }

  return {
    ...inner,
    canEmbed: (text) => inner.canEmbed(text),
    async embed(texts) {
      const out: (Float32Array | null)[] = texts.map((t) => recalled(inner.model, t));
      const unknown = [...new Set(texts.filter((_, i) => !out[i]))];
      if (unknown.length === 0) return out as Float32Array[];
      const needed = unknown.filter((text) => !inflight.has(text));
      if (needed.length > 0) {
        const loading = load(needed);
        needed.forEach((text, j) => {
          const vector = loading.then((vectors) => vectors[j]!);
          inflight.set(text, vector);
          // Done (or failed) is no longer in flight: the next call reads the isolate's memory or KV, or retries.
          vector.then(
            () => inflight.delete(text),
            () => inflight.delete(text),
          );
        });
      }
      const vectors = new Map(await Promise.all(unknown.map(async (text) => [text, await inflight.get(text)!] as const)));
      // A copy each: callers sharing one fetch must not share one array.
      return texts.map((text, i) => out[i] ?? vectors.get(text)!.slice());
    },
  };
}
