import { describe, expect, it } from "vitest";
import { localHttpEmbedder } from "../../src/adapters/embeddings/local-http";
import { EmbeddingError } from "../../src/platform/ports/embedder";
import { WORKERS_AI_MAX_BATCH, workersAiEmbedder } from "../../src/adapters/embeddings/workers-ai";
import { workersAiRest } from "../../src/adapters/embeddings/workers-ai-rest";
import { VectorModelMismatch } from "../../src/platform/ports/vector-index";
import { type VectorizeBinding, vectorizeIndex } from "../../src/adapters/vectors/vectorize";

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

// The REST API (https://developers.cloudflare.com/workers-ai/get-started/rest-api/) wraps what the
// binding returns in Cloudflare's envelope; these are the documented request and response shapes.
describe("workersAiRest", () => {
  const token = "cf-test-token-0123456789";
  const envelope = (result: unknown) => ({ result, success: true, errors: [], messages: [] });

  function recordingFetch(answer: (texts: string[]) => Response) {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), init: init ?? {} });
      const { text } = JSON.parse(String(init?.body)) as { text: string[] };
      return answer(text);
    }) as typeof fetch;
    return { fetcher, calls };
  }

  const documented = (texts: string[]) =>
    Response.json(envelope({ shape: [texts.length, 3], data: texts.map((_, i) => [i, 0.5, -1]), pooling: "cls" }));

  it("POSTs { text } to /accounts/{account_id}/ai/run/{model} with the bearer token", async () => {
    const { fetcher, calls } = recordingFetch(documented);
    const runner = workersAiRest({ accountId: "acc123", apiToken: token, fetcher });
    await workersAiEmbedder(runner, "@cf/baai/bge-m3", 3).embed(["a", "b"]);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe("https://api.cloudflare.com/client/v4/accounts/acc123/ai/run/@cf/baai/bge-m3");
    expect(call?.init.method).toBe("POST");
    expect(new Headers(call?.init.headers).get("authorization")).toBe(`Bearer ${token}`);
    expect(new Headers(call?.init.headers).get("content-type")).toBe("application/json");
    expect(JSON.parse(String(call?.init.body))).toEqual({ text: ["a", "b"] });
  });

  it("takes another API root", async () => {
    const { fetcher, calls } = recordingFetch(documented);
    const runner = workersAiRest({ accountId: "acc", apiToken: token, fetcher, baseUrl: "http://127.0.0.1:1/client/v4/" });
    await runner.run("@cf/baai/bge-small-en-v1.5", { text: ["a"] });
    expect(calls[0]?.url).toBe("http://127.0.0.1:1/client/v4/accounts/acc/ai/run/@cf/baai/bge-small-en-v1.5");
  });

  it("hands the envelope's result to workersAiEmbedder, which reads the vectors", async () => {
    const { fetcher } = recordingFetch(documented);
    const runner = workersAiRest({ accountId: "acc", apiToken: token, fetcher });
    expect(await runner.run("@cf/baai/bge-m3", { text: ["a"] })).toEqual({ shape: [1, 3], data: [[0, 0.5, -1]], pooling: "cls" });
    const vectors = await workersAiEmbedder(runner, "@cf/baai/bge-m3", 3).embed(["a", "b"]);
    expect(vectors.map((v) => Array.from(v))).toEqual([
      [0, 0.5, -1],
      [1, 0.5, -1],
    ]);
  });

  it.each([
    { status: 401, body: { result: null, success: false, errors: [{ code: 10000, message: "Authentication error" }], messages: [] } },
    { status: 500, body: { result: null, success: false, errors: [{ code: 3043, message: "Internal server error" }], messages: [] } },
    {
      status: 200,
      body: { result: null, success: false, errors: [{ code: 5007, message: "No such model @cf/baai/bge-m3 or task" }], messages: [] },
    },
  ])("turns $status with success: false into an EmbeddingError naming the status and Cloudflare's message", async ({ status, body }) => {
    const fetcher = (async () => Response.json(body, { status })) as typeof fetch;
    const runner = workersAiRest({ accountId: "acc", apiToken: token, fetcher });
    const error = await runner.run("@cf/baai/bge-m3", { text: ["a"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    const message = (error as Error).message;
    expect(message).toContain(String(status));
    expect(message).toContain(body.errors[0]?.message);
    expect(message).not.toContain(token);
    // Through the production adapter: an EmbeddingError whose cause says why.
    const wrapped = await workersAiEmbedder(runner, "@cf/baai/bge-m3", 3)
      .embed(["a"])
      .catch((e: unknown) => e);
    expect(wrapped).toBeInstanceOf(EmbeddingError);
    expect(((wrapped as Error).cause as Error).message).toBe(message);
  });

  it("reports a non-JSON error page by its status, and never the token", async () => {
    const fetcher = (async () =>
      new Response(`<html>bad gateway ${token}</html>`, { status: 502, statusText: "Bad Gateway" })) as typeof fetch;
    const error = await workersAiRest({ accountId: "acc", apiToken: token, fetcher })
      .run("@cf/baai/bge-m3", { text: ["a"] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as Error).message).toMatch(/502.*Bad Gateway/);
    expect((error as Error).message).not.toContain(token);
  });

  it("scrubs the token should Cloudflare's message ever echo it", async () => {
    const body = { result: null, success: false, errors: [{ code: 9109, message: `Invalid access token ${token}` }], messages: [] };
    const fetcher = (async () => Response.json(body, { status: 403 })) as typeof fetch;
    const error = await workersAiRest({ accountId: "acc", apiToken: token, fetcher })
      .run("@cf/baai/bge-m3", { text: ["a"] })
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain("Invalid access token [token]");
    expect((error as Error).message).not.toContain(token);
  });

  it("turns a network failure into an EmbeddingError", async () => {
    const fetcher = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof fetch;
    await expect(workersAiRest({ accountId: "acc", apiToken: token, fetcher }).run("@cf/baai/bge-m3", { text: ["a"] })).rejects.toThrow(
      EmbeddingError,
    );
  });

  it(`splits batches above ${WORKERS_AI_MAX_BATCH} texts into several requests, in order`, async () => {
    const { fetcher, calls } = recordingFetch((texts) =>
      Response.json(envelope({ shape: [texts.length, 1], data: texts.map((t) => [Number(t)]) })),
    );
    const texts = Array.from({ length: WORKERS_AI_MAX_BATCH + 50 }, (_, i) => String(i));
    const vectors = await workersAiEmbedder(workersAiRest({ accountId: "acc", apiToken: token, fetcher }), "@cf/baai/bge-m3", 1).embed(
      texts,
    );
    expect(calls.map((c) => (JSON.parse(String(c.init.body)) as { text: string[] }).text.length)).toEqual([WORKERS_AI_MAX_BATCH, 50]);
    expect(vectors.map((v) => v[0])).toEqual(texts.map(Number));
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
