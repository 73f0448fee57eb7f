import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/clock";
import { SIMILAR_QUESTIONS_HEADING } from "../../src/context/markdown";
import { createServices } from "../../src/services";
import { estimateTokens } from "../../src/text/tokens";
import { call, newTenant } from "../support/api";
import { callWith, countingEmbedder, embedderDown, vectorIndexDown } from "../support/app";

const DAY = 24 * 3600 * 1000;

async function remember(key: string, body: Record<string, unknown>) {
  const res = await call("/v1/memories", { key, body: { memoryType: "fact", ...body } });
  expect([200, 201]).toContain(res.status);
  return res.json as Record<string, any>;
}

describe("POST /v1/questions/similar", () => {
  it("finds 'How do I deploy to Vercel?' for 'What's the best way to deploy on Vercel?' (seed 000)", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:vercel";
    const target = await remember(clientKey, { scope, content: "How do I deploy to Vercel?", memoryType: "question", category: "work_context" });
    await remember(clientKey, { scope, content: "How do I center a div?", memoryType: "question" });
    await remember(clientKey, { scope, content: "What is the capital of Australia?", memoryType: "question" });
    await remember(clientKey, { scope, content: "Vercel is our hosting provider", memoryType: "fact" });

    const res = await call("/v1/questions/similar", { key: clientKey, body: { scope, text: "What's the best way to deploy on Vercel?", record: false } });
    expect(res.status).toBe(200);
    expect(res.json?.isQuestion).toBe(true);
    expect(res.json?.questions[0]).toMatchObject({ id: target.id, context: "Category: work_context" });
    expect(res.json?.questions.map((q: any) => q.content)).not.toContain("Vercel is our hosting provider");
    expect(res.json?.questions[0].similarity).toBeGreaterThan(0.6);
    expect(res.json?.questions[0].rawCosine).toEqual(expect.any(Number));
  });

  it("does not search for a statement", async () => {
    const { clientKey } = await newTenant();
    const { calls, override } = countingEmbedder();
    const res = await callWith(override, "/v1/questions/similar", clientKey, { scope: "s", text: "The build is green again." });
    expect(res.json).toEqual({ isQuestion: false, questions: [], degraded: [] });
    expect(calls).toEqual([]);
  });

  it("records the question, so the very next call finds it, and counts a repeat instead of storing it twice", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:ryw";
    const first = await call("/v1/questions/similar", { key: clientKey, body: { scope, text: "How do I rotate the webhook secret?", sessionId: "s1" } });
    expect(first.json?.questions).toEqual([]);
    expect(first.json?.recorded.deduplicated).toBe(false);

    const second = await call("/v1/questions/similar", { key: clientKey, body: { scope, text: "How can I rotate our webhook signing secret?", sessionId: "s2" } });
    expect(second.json?.questions[0]).toMatchObject({ id: first.json?.recorded.id });

    const again = await call("/v1/questions/similar", { key: clientKey, body: { scope, text: "How do I rotate the webhook secret?", sessionId: "s3" } });
    expect(again.json?.recorded).toEqual({ id: first.json?.recorded.id, deduplicated: true });
    const stored = await call(`/v1/memories/${first.json?.recorded.id}`, { key: clientKey });
    expect(stored.json?.recallCount).toBeGreaterThanOrEqual(2);
  });

  it("keeps a different question on the same subject as its own memory", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:near-miss";
    const read = await call("/v1/questions/similar", { key: clientKey, body: { scope, text: "How do I read a JSON file in Node.js?" } });
    const write = await call("/v1/questions/similar", { key: clientKey, body: { scope, text: "How do I write a CSV file in Node.js?" } });
    expect(write.json?.recorded.deduplicated).toBe(false);
    expect(write.json?.recorded.id).not.toBe(read.json?.recorded.id);
  });

  it("leaves out the caller's own session", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:session";
    await remember(clientKey, { scope, content: "How do I enable dark mode?", memoryType: "question", sessionId: "current" });
    const res = await call("/v1/questions/similar", {
      key: clientKey,
      body: { scope, text: "How can I turn on dark mode?", excludeSessionId: "current", record: false },
    });
    expect(res.json?.questions).toEqual([]);
  });

  it.each([
    [{ scope: "s", text: "why?", limit: 0 }],
    [{ scope: "s", text: "why?", limit: 11 }],
    [{ scope: "s" }],
  ])("answers 400 for %j", async (body) => {
    const { clientKey } = await newTenant();
    expect((await call("/v1/questions/similar", { key: clientKey, body })).status).toBe(400);
  });

  it("answers an unknown scope with no questions, not an error", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/questions/similar", { key: clientKey, body: { scope: "nobody-here", text: "Is anyone there?", record: false } });
    expect(res.status).toBe(200);
    expect(res.json?.questions).toEqual([]);
  });
});

describe("POST /v1/context", () => {
  it("answers a trivial prompt at once, without an embedding call", async () => {
    const { clientKey } = await newTenant();
    const { calls, override } = countingEmbedder();
    for (const prompt of ["/commit", "ok", "sounds good", "thanks a lot!"]) {
      const res = await callWith(override, "/v1/context", clientKey, { scope: "s", prompt });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ class: "trivial", markdown: "", degraded: [] });
    }
    expect(calls).toEqual([]);
  });

  it("renders the seed-000 block: similar questions with their category and the NOTE", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:ctx";
    await remember(clientKey, { scope, content: "How do I optimize React performance?", memoryType: "question", category: "work_context" });
    await remember(clientKey, { scope, content: "We decided to memoize expensive React components", memoryType: "decision" });
    await remember(clientKey, { scope, content: "I'm a frontend developer", memoryType: "fact" });

    const { calls, override } = countingEmbedder();
    const res = await callWith(override, "/v1/context", clientKey, { scope, prompt: "How can I make my React app faster?" });
    expect(res.status).toBe(200);
    expect(calls).toHaveLength(1); // embedded once for all three lookups
    expect(res.json.class).toBe("searchable");
    expect(res.json.markdown).toContain(`${SIMILAR_QUESTIONS_HEADING}\n\n1. How do I optimize React performance?\n   Context: Category: work_context`);
    expect(res.json.markdown).toContain("**NOTE:** These are questions you've asked in past conversations.");
    expect(res.json.markdown).toContain("[decision] We decided to memoize expensive React components");
    expect(res.json.sections.similarQuestions).toHaveLength(1);
    expect(res.json.degraded).toEqual([]);
  });

  it("stays within the token budget", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:budget";
    for (let i = 0; i < 8; i++) {
      await remember(clientKey, { scope, content: `Release checklist item ${i}: verify the staging deploy of service ${i} with the smoke tests`, memoryType: "fact" });
    }
    for (const tokenBudget of [60, 120, 500]) {
      const res = await call("/v1/context", { key: clientKey, body: { scope, prompt: "what is on the release checklist for the staging deploy", tokenBudget } });
      expect(res.json?.tokens).toBeLessThanOrEqual(tokenBudget);
      expect(estimateTokens(res.json?.markdown)).toBe(res.json?.tokens);
    }
    expect((await call("/v1/context", { key: clientKey, body: { scope, prompt: "x y z", tokenBudget: 10 } })).status).toBe(400);
  });

  it("includes the memory whose card answers the question, in the user's words", async () => {
    const { clientKey } = await newTenant();
    await remember(clientKey, { scope: "user:card", content: "I live in Austin" });
    const res = await call("/v1/context", { key: clientKey, body: { scope: "user:card", prompt: "where do I live these days?" } });
    expect(res.json?.sections.memories[0]).toMatchObject({ content: "I live in Austin" });
    expect(res.json?.markdown).toContain("- [fact] I live in Austin");
  });

  it("degrades instead of failing when the embedder is down", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:down";
    await remember(clientKey, { scope, content: "How do I rotate the database password?", memoryType: "question" });
    const res = await callWith(embedderDown, "/v1/context", clientKey, { scope, prompt: "how do I rotate the password for the database?" });
    expect(res.status).toBe(200);
    expect(res.json.degraded).toContain("embeddings");
    expect(res.json.sections.similarQuestions[0]).toMatchObject({ content: "How do I rotate the database password?", similarity: null });
  });

  it("degrades instead of failing when the vector index is down", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:index-down";
    await remember(clientKey, { scope, content: "How do I rotate the database password?", memoryType: "question" });
    const res = await callWith(vectorIndexDown, "/v1/context", clientKey, { scope, prompt: "how do I rotate the password for the database?" });
    expect(res.status).toBe(200);
    expect(res.json.degraded).toContain("vector_index");
    expect(res.json.sections.similarQuestions[0].content).toBe("How do I rotate the database password?");
  });

  it("searches Chinese prompts lexically with the English-only model, never with a bogus similarity", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:zh-context";
    await remember(clientKey, { scope, content: "怎么重置数据库密码？", memoryType: "question" });
    await remember(clientKey, { scope, content: "今天午饭吃什么？", memoryType: "question" });
    const res = await call("/v1/context", { key: clientKey, body: { scope, prompt: "数据库密码怎么重置？" } });
    expect(res.json?.sections.similarQuestions.map((q: any) => q.content)).toEqual(["怎么重置数据库密码？"]);
    expect(res.json?.sections.similarQuestions[0].similarity).toBeNull();
  });

  it("handles a huge prompt and a prompt that is only a file path", async () => {
    const { clientKey } = await newTenant();
    const huge = await call("/v1/context", { key: clientKey, body: { scope: "s", prompt: "why does the deploy fail ".repeat(3000) } });
    expect(huge.status).toBe(200);
    const path = await call("/v1/context", { key: clientKey, body: { scope: "s", prompt: "src/http/routes/context.ts" } });
    expect(path.status).toBe(200);
  });
});

describe("session enrichment", () => {
  it("appends the session's most recent distinct file names, capped", async () => {
    const { clientKey } = await newTenant();
    const files = ["src/a.ts", "src/b.rs", "/home/me/proj/src/a.ts", "lib/c.py", "d.go", "e.md", "f.toml", "g.json"].map((path) => ({ path }));
    expect((await call("/v1/sessions/sess-1/files", { key: clientKey, body: { files } })).status).toBe(201);
    const res = await call("/v1/context", { key: clientKey, body: { scope: "s", prompt: "why was this changed?", sessionId: "sess-1" } });
    expect(res.json?.enrichedQuery).toBe("why was this changed?\n\n[Context: recently touched files: g.json, f.toml, e.md, d.go, c.py]");
  });

  it("leaves the query unchanged without a session or without files", async () => {
    const { clientKey } = await newTenant();
    const none = await call("/v1/context", { key: clientKey, body: { scope: "s", prompt: "why was this changed?" } });
    expect(none.json?.enrichedQuery).toBeUndefined();
    const empty = await call("/v1/context", { key: clientKey, body: { scope: "s", prompt: "why was this changed?", sessionId: "no-files" } });
    expect(empty.json?.enrichedQuery).toBeUndefined();
  });

  it("validates file mentions", async () => {
    const { clientKey } = await newTenant();
    expect((await call("/v1/sessions/s/files", { key: clientKey, body: { files: [] } })).status).toBe(400);
    expect((await call("/v1/sessions/s/files", { key: clientKey, body: { files: [{ path: "a\u0000b" }] } })).status).toBe(400);
  });
});

describe("POST /v1/memories/search ranking", () => {
  it("keeps a keyword-only hit that the vector top-k missed, and takes weight overrides", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:union";
    for (let i = 0; i < 24; i++) {
      await remember(clientKey, { scope, content: `Deploying the web app to production step ${i} of the release pipeline` });
    }
    const keyword = await remember(clientKey, { scope, content: "Ticket ZQX-7781 tracks the flaky printer driver" });
    const res = await call("/v1/memories/search", {
      key: clientKey,
      body: { scope, query: "deploy the web app to production ZQX-7781", limit: 5, weights: { vector: 0.05, text: 0.9 } },
    });
    const hit = res.json?.results.find((r: any) => r.id === keyword.id);
    expect(hit).toBeDefined();
    expect(hit.matchedBy).toEqual(["bm25"]);
    expect(hit.rawCosine).toEqual(expect.any(Number)); // scored through the index even though its top-k missed it
    expect(res.json?.results[0].id).toBe(keyword.id);
  });

  it("ranks the newer of two equal memories first (recency), with an injected clock", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:clock";
    const clock = fixedClock(Date.UTC(2026, 0, 1));
    const withClock = (real: ReturnType<typeof createServices>) => ({ ...real, clock });
    const old = await callWith(withClock, "/v1/memories", clientKey, { scope, content: "The office wifi password is on the fridge", memoryType: "fact" });
    clock.advance(60 * DAY);
    const recent = await callWith(withClock, "/v1/memories", clientKey, { scope, content: "The office wifi password is on the fridge!", memoryType: "fact" });
    const res = await callWith(withClock, "/v1/memories/search", clientKey, { scope, query: "where is the wifi password" });
    expect(res.json.results.map((r: any) => r.id)).toEqual([recent.json.id, old.json.id]);
  });
});

describe("GET /v1/admin/metrics", () => {
  it("reports detection rate, hit rate, mean similarity and context latency", async () => {
    const { clientKey, adminKey } = await newTenant();
    const scope = "user:metrics";
    await remember(clientKey, { scope, content: "How do I deploy to Vercel?", memoryType: "question" });
    await call("/v1/context", { key: clientKey, body: { scope, prompt: "What's the best way to deploy on Vercel?" } });
    await call("/v1/context", { key: clientKey, body: { scope, prompt: "Summarize the release notes for me" } });
    const res = await call("/v1/admin/metrics", { key: adminKey });
    expect(res.status).toBe(200);
    expect(res.json?.recall).toMatchObject({ prompts: 2, questionDetectionRate: 0.5, similarQuestionHitRate: 1 });
    expect(res.json?.recall.meanSimilarity).toBeGreaterThan(0.6);
    expect(res.json?.recall.contextLatencyMs.samples).toBe(2);
    expect((await call("/v1/admin/metrics", { key: clientKey })).status).toBe(403);
  });
});

describe("read-your-writes over an eventually consistent index", () => {
  it("finds a vector written a moment ago although the primary index does not show it yet", async () => {
    const { exactD1Index } = await import("../../src/vectors/exact-d1");
    const { withReadYourWrites } = await import("../../src/vectors/read-your-writes");
    const lagging = exactD1Index(env.DB, "m", 2);
    // Vectorize-like: writes are accepted but not visible to queries yet.
    const eventual = { ...lagging, upsert: async () => {} };
    const index = withReadYourWrites(eventual, exactD1Index(env.DB, "m", 2));
    await index.upsert("t_ryw", "memories", [{ id: "fresh", vector: Float32Array.from([1, 0]), model: "m", metadata: { scope: "s" } }]);
    expect(await eventual.query("t_ryw", "memories", { vector: Float32Array.from([1, 0]), model: "m", topK: 5 })).toEqual([]);
    expect(await index.query("t_ryw", "memories", { vector: Float32Array.from([1, 0]), model: "m", topK: 5, filter: { scope: "s" } })).toEqual([
      { id: "fresh", score: 1 },
    ]);
  });
});
