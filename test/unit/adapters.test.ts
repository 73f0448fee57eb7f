import { describe, expect, it } from "vitest";
import { localHttpEmbedder } from "../../src/embeddings/local-http";
import { EmbeddingError } from "../../src/embeddings/port";
import { workersAiEmbedder } from "../../src/embeddings/workers-ai";
import { VectorModelMismatch } from "../../src/vectors/port";
import { type VectorizeBinding, vectorizeIndex } from "../../src/vectors/vectorize";

// Workers AI and Vectorize are remote-only; these tests check our request/response mapping
// against the shapes their documentation (and @cloudflare/workers-types) give.

describe("workersAiEmbedder", () => {
  it("sends { text: [...] } and reads { shape, data }", async () => {
    const calls: unknown[] = [];
    const ai = {
      run: async (model: string, inputs: { text: string[] }) => {
        calls.push({ model, inputs });
        return { shape: [inputs.text.length, 3], data: inputs.text.map((_, i) => [i, 0, 1]) };
      },
    };
    const embedder = workersAiEmbedder(ai, "@cf/baai/bge-m3", 3);
    const vectors = await embedder.embed(["a", "b"]);
    expect(calls).toEqual([{ model: "@cf/baai/bge-m3", inputs: { text: ["a", "b"] } }]);
    expect(vectors.map((v) => Array.from(v))).toEqual([
      [0, 0, 1],
      [1, 0, 1],
    ]);
    expect(embedder.canEmbed("我是什么用户")).toBe(true);
  });

  it("reads bge-m3's `response` field and splits batches of 100", async () => {
    let batches = 0;
    const ai = {
      run: async (_model: string, inputs: { text: string[] }) => {
        batches++;
        return { response: inputs.text.map(() => [1, 2]) };
      },
    };
    const vectors = await workersAiEmbedder(ai, "@cf/baai/bge-m3", 2).embed(Array.from({ length: 150 }, () => "x"));
    expect(vectors).toHaveLength(150);
    expect(batches).toBe(2);
  });

  it("refuses a response of the wrong shape", async () => {
    const ai = { run: async () => ({ data: [[1, 2, 3]] }) };
    await expect(workersAiEmbedder(ai, "@cf/baai/bge-small-en-v1.5", 384).embed(["a"])).rejects.toThrow(EmbeddingError);
    const short = { run: async () => ({ data: [] }) };
    await expect(workersAiEmbedder(short, "@cf/baai/bge-small-en-v1.5", 3).embed(["a"])).rejects.toThrow(EmbeddingError);
  });

  it("says an English model cannot embed Chinese", () => {
    const embedder = workersAiEmbedder({ run: async () => ({}) }, "@cf/baai/bge-small-en-v1.5", 384);
    expect(embedder.canEmbed("我是什么用户")).toBe(false);
    expect(embedder.canEmbed("what kind of user am I")).toBe(true);
  });
});

describe("localHttpEmbedder", () => {
  it("refuses a server that serves another model", async () => {
    const fetcher = (async () => Response.json({ model: "other", vectors: [[1, 2]] })) as typeof fetch;
    await expect(localHttpEmbedder("http://127.0.0.1:1", "use-lite-512", 2, fetcher).embed(["a"])).rejects.toThrow(/other/);
  });

  it("turns an unreachable server into an EmbeddingError", async () => {
    const fetcher = (async () => {
      throw new TypeError("connection refused");
    }) as typeof fetch;
    await expect(localHttpEmbedder("http://127.0.0.1:1", "m", 2, fetcher).embed(["a"])).rejects.toThrow(EmbeddingError);
  });
});

function recordingVectorize() {
  const calls: { op: string; args: unknown[] }[] = [];
  const binding: VectorizeBinding = {
    upsert: async (...args) => {
      calls.push({ op: "upsert", args });
      return { mutationId: "m1" };
    },
    query: async (...args) => {
      calls.push({ op: "query", args });
      return { count: 1, matches: [{ id: "mem_1", score: 0.9 }] };
    },
    deleteByIds: async (...args) => {
      calls.push({ op: "delete", args });
      return { mutationId: "m2" };
    },
    getByIds: async (...args) => {
      calls.push({ op: "get", args });
      return [
        { id: "mem_1", values: [1, 0], namespace: "t_a:memories", metadata: { model: "@cf/baai/bge-m3" } },
        { id: "mem_2", values: [1, 0], namespace: "t_b:memories", metadata: { model: "@cf/baai/bge-m3" } },
        { id: "mem_3", values: [1, 0], namespace: "t_a:memories", metadata: { model: "old-model" } },
      ];
    },
  };
  return { binding, calls };
}

describe("vectorizeIndex", () => {
  it("upserts into the tenant's namespace with the model in metadata", async () => {
    const { binding, calls } = recordingVectorize();
    const index = vectorizeIndex(binding, "@cf/baai/bge-m3", 2);
    const vector = Float32Array.from([0.1, 0.2]);
    await index.upsert("t_a", "memories", [{ id: "mem_1", vector, model: "@cf/baai/bge-m3", metadata: { scope: "s" } }]);
    expect(calls[0]).toEqual({
      op: "upsert",
      args: [[{ id: "mem_1", values: vector, namespace: "t_a:memories", metadata: { scope: "s", model: "@cf/baai/bge-m3" } }]],
    });
  });

  it("queries the tenant's namespace, filtered by model, without values or metadata", async () => {
    const { binding, calls } = recordingVectorize();
    const index = vectorizeIndex(binding, "@cf/baai/bge-m3", 2);
    const vector = Float32Array.from([0.1, 0.2]);
    const matches = await index.query("t_a", "memories", { vector, model: "@cf/baai/bge-m3", topK: 500, filter: { scope: "s" } });
    expect(matches).toEqual([{ id: "mem_1", score: 0.9 }]);
    expect(calls[0]?.args[1]).toEqual({
      topK: 100,
      namespace: "t_a:memories",
      filter: { scope: "s", model: "@cf/baai/bge-m3" },
      returnMetadata: "none",
    });
  });

  it("scores given ids with getByIds, ignoring other tenants' and other models' vectors", async () => {
    const { binding, calls } = recordingVectorize();
    const index = vectorizeIndex(binding, "@cf/baai/bge-m3", 2);
    const scores = await index.similarities("t_a", "memories", { vector: Float32Array.from([1, 0]), model: "@cf/baai/bge-m3" }, [
      "mem_1",
      "mem_2",
      "mem_3",
    ]);
    expect([...scores]).toEqual([["mem_1", 1]]);
    expect(calls[0]).toEqual({ op: "get", args: [["mem_1", "mem_2", "mem_3"]] });
  });

  it("refuses vectors of another model or dimension", async () => {
    const { binding } = recordingVectorize();
    const index = vectorizeIndex(binding, "@cf/baai/bge-m3", 2);
    const record = { id: "x", vector: Float32Array.from([1, 2]), model: "use-lite-512", metadata: {} };
    await expect(index.upsert("t", "memories", [record])).rejects.toThrow(VectorModelMismatch);
    await expect(
      index.upsert("t", "memories", [{ ...record, model: "@cf/baai/bge-m3", vector: Float32Array.from([1, 2, 3]) }]),
    ).rejects.toThrow(VectorModelMismatch);
  });
});
