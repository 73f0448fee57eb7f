/**
 * Vectorize is remote-only, so tests put an in-memory stand-in behind its binding (the only part
 * stubbed; D1 and KV stay Miniflare's). It keeps vectors per namespace, answers queries by cosine,
 * and records every call. `lagging` holds writes back from queries, as Vectorize does for seconds;
 * `hung` records each call and never answers it.
 */
import { cosine } from "../../src/core/ranking/cosine";
import type { VectorMetadata } from "../../src/platform/ports/vector-index";
import type { VectorizeBinding } from "../../src/adapters/vectors/vectorize";

interface Stored {
  id: string;
  values: Float32Array;
  namespace: string;
  metadata: VectorMetadata;
}

export function vectorizeStub({ lagging = false, hung = false } = {}) {
  const calls: { op: "upsert" | "query" | "delete" | "get"; namespace?: string; ids?: string[] }[] = [];
  const stored = new Map<string, Stored>();
  const binding: VectorizeBinding = {
    async upsert(vectors) {
      calls.push({ op: "upsert", namespace: vectors[0]?.namespace, ids: vectors.map((v) => v.id) });
      if (!lagging) for (const v of vectors) stored.set(v.id, { ...v, namespace: v.namespace ?? "", metadata: v.metadata ?? {} });
      return { mutationId: "stub" };
    },
    async query(vector, { topK, namespace = "", filter = {} }) {
      calls.push({ op: "query", namespace });
      const matches = [...stored.values()]
        .filter((s) => s.namespace === namespace && Object.entries(filter).every(([k, value]) => s.metadata[k] === value))
        .map((s) => ({ id: s.id, score: cosine(vector, s.values) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, topK);
      return { matches };
    },
    async deleteByIds(ids) {
      calls.push({ op: "delete", ids });
      for (const id of ids) stored.delete(id);
      return { mutationId: "stub" };
    },
    async getByIds(ids) {
      calls.push({ op: "get", ids });
      return ids.flatMap((id) => {
        const found = stored.get(id);
        return found ? [{ id, values: found.values, namespace: found.namespace, metadata: found.metadata }] : [];
      });
    },
  };
  if (hung) {
    // Each call is recorded (by the stand-in above) and never answered.
    for (const op of ["upsert", "query", "deleteByIds", "getByIds"] as const) {
      const record = binding[op].bind(binding) as (...args: unknown[]) => Promise<unknown>;
      (binding as unknown as Record<string, unknown>)[op] = (...args: unknown[]) => {
        void record(...args);
        return new Promise(() => {});
      };
    }
  }
  /** The binding as the Worker's env types it. */
  const asBinding = binding as unknown as VectorizeIndex;
  return { binding: asBinding, calls, stored };
}
