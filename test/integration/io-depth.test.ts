/**
 * The round trips of the hot routes (docs/design/round-trips.md), read from the `io` entry of the
 * Server-Timing header every answer carries: calls per kind and the sequential depth (`seq`).
 *
 * - warm: the same request a second time on this isolate; its embedding is then in the isolate's
 *   memory, and the key, the scale in force and the vector snapshot are cached.
 * - cold-ish: the first request with a new text; its embedding is in neither memory nor KV, so it
 *   costs a KV read and a model call, and the answer does not wait for the KV write.
 * - cold isolate: as a new isolate meets a key it has never seen: every isolate cache forgotten
 *   (key, scale, snapshots, embeddings, rows) and a new text.
 *
 * The figures are asserted exactly, so an added round trip (or a lost overlap) fails here, with the
 * budgets beside them: warm ≤ 2 sequential round trips, cold-ish ≤ 4, the show's analysis its
 * Durable Object call plus the embedding. Locally the vector index is the exact one over D1: its
 * version check is a `d1` call here where production's Vectorize counts `vec`.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../src/features/auth/keys";
import { forgetScales } from "../../src/features/calibration/in-force";
import { forgetRecentEmbeddings } from "../../src/adapters/embeddings/cached";
import { forgetCachedRows } from "../../src/features/faqs/row-cache";
import { type IoSummary, parseIoServerTiming } from "../../src/platform/observe/io-depth";
import { forgetSnapshots } from "../../src/adapters/vectors/exact-d1";
import { newTenant, send } from "../support/api";
import { apiClient, expectJson, type TestClient } from "../support/client";

const WARM_BUDGET = 2;
const COLD_BUDGET = 4;

/** The request's figures from its Server-Timing header. */
async function io(path: string, key: string, body: unknown): Promise<IoSummary> {
  const response = await send(path, { key, body });
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBeLessThan(300);
  const figures = parseIoServerTiming(response.headers.get("server-timing"));
  expect(figures, response.headers.get("server-timing") ?? "no Server-Timing").not.toBeNull();
  return figures!;
}

/** The same request twice: the first is cold-ish (a text never embedded), the second warm. */
async function coldThenWarm(path: string, key: string, body: unknown) {
  const cold = await io(path, key, body);
  const warm = await io(path, key, body);
  return { cold, warm };
}

const figures = (counts: Partial<IoSummary> & { seq: number }): IoSummary => ({ d1: 0, kv: 0, vec: 0, ai: 0, do: 0, q: 0, ...counts });

/** A tenant whose key, scale and snapshots this isolate has seen (its data was written through the API). */
async function tenantWithMemories(scope: string) {
  const tenant = await newTenant();
  const api = apiClient(tenant.clientKey);
  for (const content of ["How do I deploy to Vercel?", "What is the capital of Australia?"])
    await expectJson(api.v1.memories.$post({ json: { scope, content, memoryType: "question", sessionId: "older" } }), 201);
  await expectJson(api.v1.memories.$post({ json: { scope, content: "Vercel is our hosting provider", memoryType: "fact" } }), 201);
  return { key: tenant.clientKey, api };
}

const touched = (api: TestClient, sessionId: string) =>
  expectJson(api.v1.sessions[":sessionId"].files.$post({ param: { sessionId }, json: { files: [{ path: "src/deploy.ts" }] } }), 201);

describe("POST /v1/faqs/search round trips", () => {
  it("takes one round of D1 reads warm (version check and the lexical batch) and two cold-ish (KV, then the model)", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    for (const question of ["How do I reset my password?", "How do I change my email address?", "Where can I download invoices?"])
      await expectJson(api.v1.faqs.$post({ json: { question, answer: `Answer to: ${question}` } }), 201);

    // The tenant's first search reads its FAQ rows into the isolate (src/features/faqs/row-cache.ts): this one is not measured.
    await io("/v1/faqs/search", clientKey, { query: "invoices" });
    const { cold, warm } = await coldThenWarm("/v1/faqs/search", clientKey, { query: "I forgot my password, how do I reset it" });
    // The exact index's version check and the lexical batch overlap the embedding.
    expect(cold).toEqual(figures({ d1: 2, kv: 1, ai: 1, seq: 2 }));
    expect(warm).toEqual(figures({ d1: 2, seq: 1 }));
    expect(cold.seq).toBeLessThanOrEqual(COLD_BUDGET);
    expect(warm.seq).toBeLessThanOrEqual(WARM_BUDGET);
  });

  it("records the session's hits and the suggestion after the answer: not counted as the request's", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    await expectJson(api.v1.faqs.$post({ json: { question: "How do I export my data?", answer: "Settings → Export." } }), 201);
    const query = "export all my data";
    await io("/v1/faqs/search", clientKey, { query });
    const without = await io("/v1/faqs/search", clientKey, { query });
    const withSession = await io("/v1/faqs/search", clientKey, { query, sessionId: "hits-session" });
    expect(withSession).toEqual(without);
  });
});

describe("POST /v1/context round trips", () => {
  it("reads settings, version, full text (and cards) in one round and the rows in a second", async () => {
    const scope = "user:io-context";
    const { key } = await tenantWithMemories(scope);
    const { cold, warm } = await coldThenWarm("/v1/context", key, { scope, prompt: "What's the best way to deploy on Vercel?" });
    // Settings, version check, full text; then the rows. Cold-ish, the KV read and the model call come between.
    expect(warm).toEqual(figures({ d1: 4, seq: 2 }));
    expect(cold).toEqual(figures({ d1: 4, kv: 1, ai: 1, seq: 3 }));
    expect(warm.seq).toBeLessThanOrEqual(WARM_BUDGET);
    expect(cold.seq).toBeLessThanOrEqual(COLD_BUDGET);
  });

  it("reads the session's files beside the other reads; only the embedding waits for them", async () => {
    const scope = "user:io-context-session";
    const { key, api } = await tenantWithMemories(scope);
    await touched(api, "io-session");
    const { cold, warm } = await coldThenWarm("/v1/context", key, {
      scope,
      prompt: "How do we deploy this on Vercel?",
      sessionId: "io-session",
    });
    expect(warm).toEqual(figures({ d1: 5, seq: 2 }));
    // Files → KV → model → rows: the enriched text cannot be embedded before the files are read.
    expect(cold).toEqual(figures({ d1: 5, kv: 1, ai: 1, seq: 4 }));
    expect(warm.seq).toBeLessThanOrEqual(WARM_BUDGET);
    expect(cold.seq).toBeLessThanOrEqual(COLD_BUDGET);
  });
});

describe("POST /v1/hooks/claude-code round trips", () => {
  it("counts the /v1/context call it makes in-process as its own, and not the question it records after the answer", async () => {
    const scope = "user:io-hook";
    const { key, api } = await tenantWithMemories(scope);
    await touched(api, "io-hook-session");
    const prompt = (text: string) => ({ hook_event_name: "UserPromptSubmit", session_id: "io-hook-session", cwd: "/x", prompt: text });
    const { cold, warm } = await coldThenWarm(`/v1/hooks/claude-code?scope=${scope}`, key, prompt("How should I deploy to Vercel?"));
    // Exactly /v1/context's figures with a session: the hook's own key check is cached.
    expect(warm).toEqual(figures({ d1: 5, seq: 2 }));
    expect(cold).toEqual(figures({ d1: 5, kv: 1, ai: 1, seq: 4 }));
    expect(warm.seq).toBeLessThanOrEqual(WARM_BUDGET);
    expect(cold.seq).toBeLessThanOrEqual(COLD_BUDGET);
  });
});

describe("POST /v1/questions/similar round trips", () => {
  it("looks up in two rounds warm (settings, version, full text, cards; then the rows)", async () => {
    const scope = "user:io-similar";
    const { key } = await tenantWithMemories(scope);
    // "Where" asks the location slot: the card lookup runs in the first round too.
    const { cold, warm } = await coldThenWarm("/v1/questions/similar", key, { scope, text: "Where do I deploy to Vercel?", record: false });
    expect(warm).toEqual(figures({ d1: 5, seq: 2 }));
    expect(cold).toEqual(figures({ d1: 5, kv: 1, ai: 1, seq: 3 }));
    expect(warm.seq).toBeLessThanOrEqual(WARM_BUDGET);
    expect(cold.seq).toBeLessThanOrEqual(COLD_BUDGET);
  });

  it("records after the lookup: the repeat check reads beside the search, only the write waits for it", async () => {
    const scope = "user:io-similar-record";
    const { key } = await tenantWithMemories(scope);
    const body = { scope, text: "How can we ship this app to Vercel?" };
    // A new question: lookup (2 rounds after the model) → the row and its full text → its vector
    // (the exact index's model check, then its batch) → the row marked indexed.
    const created = await io("/v1/questions/similar", key, body);
    expect(created).toEqual(figures({ d1: 9, kv: 1, ai: 1, seq: 7 }));
    // Asked again: the lookup, then the repeat counted on the first row.
    const repeated = await io("/v1/questions/similar", key, body);
    expect(repeated).toEqual(figures({ d1: 6, seq: 3 }));
  });
});

describe("POST /v1/shows/:showId/rank round trips", () => {
  const candidates = (suffix: string) => [
    { text: `What is your favourite colour ${suffix}?`, model: "m" },
    { text: `Where did you grow up ${suffix}?`, model: "m" },
  ];

  it("is the Durable Object call after the embeddings; the show's listing row is written after the answer", async () => {
    const { clientKey } = await newTenant();
    await expectJson(apiClient(clientKey).v1.shows[":showId"].status.$get({ param: { showId: "io-show" } }), 200);
    const { cold, warm } = await coldThenWarm("/v1/shows/io-show/rank", clientKey, { candidates: candidates("tonight"), topN: 1 });
    // Cold-ish: both texts read from KV at once, one model call for both, then the object; the
    // key's label ("ranked by") is read beside them, once per isolate.
    expect(cold).toEqual(figures({ d1: 1, kv: 2, ai: 1, do: 1, seq: 3 }));
    expect(warm).toEqual(figures({ do: 1, seq: 1 }));
    expect(cold.seq).toBeLessThanOrEqual(COLD_BUDGET);
  });

  it("checks a text with one call to the object", async () => {
    const { clientKey } = await newTenant();
    await expectJson(apiClient(clientKey).v1.shows[":showId"].status.$get({ param: { showId: "io-check" } }), 200);
    const { cold, warm } = await coldThenWarm("/v1/shows/io-check/check", clientKey, { text: "Where did you grow up, really?" });
    expect(cold).toEqual(figures({ kv: 1, ai: 1, do: 1, seq: 3 }));
    expect(warm).toEqual(figures({ do: 1, seq: 1 }));
  });
});

describe("a cold isolate", () => {
  it("answers each hot route within 4 sequential round trips: the key and its scale in one, the snapshot's base manifest beside the version check", async () => {
    const tenant = await newTenant();
    const api = apiClient(tenant.clientKey);
    for (const question of ["How do I reset my password?", "Where can I download invoices?"])
      await expectJson(api.v1.faqs.$post({ json: { question, answer: `Answer to: ${question}` } }), 201);
    await expectJson(api.v1.memories.$post({ json: { scope: "cold", content: "Vercel hosts our app", memoryType: "fact" } }), 201);
    await expectJson(api.v1.memories.$post({ json: { scope: "cold", content: "Where is the app hosted?", memoryType: "question" } }), 201);
    const routes: [string, unknown][] = [
      ["/v1/faqs/search", { query: "how do I change the password of my account" }],
      ["/v1/context", { scope: "cold", prompt: "where do we host the app these days?" }],
      ["/v1/questions/similar", { scope: "cold", text: "where do we host our app nowadays?", record: false }],
      [
        "/v1/hooks/claude-code",
        {
          session_id: "cold",
          transcript_path: "/t",
          cwd: "/",
          hook_event_name: "UserPromptSubmit",
          prompt: "where is the app hosted right now?",
        },
      ],
    ];
    for (const [path, body] of routes) {
      forgetScales();
      forgetSnapshots();
      forgetRecentEmbeddings();
      forgetCachedRows();
      // A key this isolate has never seen: its row is read, with the tenant's scale in the same batch.
      const { key } = await createApiKey(env.DB, { tenantId: tenant.tenantId, role: "client", now: Date.now() });
      const figures = await io(path, key, body);
      expect(figures.seq, path).toBeLessThanOrEqual(COLD_BUDGET);
    }
  });
});
