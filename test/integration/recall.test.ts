import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/core/base/clock";
import { RELATED_QUESTION_MARK, SIMILAR_QUESTIONS_HEADING } from "../../src/features/context/markdown";
import { createServices } from "../../src/app/services";
import { estimateTokens } from "../../src/core/text/tokens";
import type { z } from "zod";
import type { newMemorySchema } from "../../src/http/routes/memories";
import { newTenant, send } from "../support/api";
import { clientWith, countingEmbedder, embedderDown, vectorIndexDown } from "../support/app";
import { apiClient, expectError, expectJson, type TestClient } from "../support/client";

const DAY = 24 * 3600 * 1000;

const remember = (
  api: TestClient,
  memory: Omit<z.input<typeof newMemorySchema>, "memoryType"> & Partial<Pick<z.input<typeof newMemorySchema>, "memoryType">>,
) => expectJson(api.v1.memories.$post({ json: { memoryType: "fact", ...memory } }), [200, 201]);
/** The question a call to /v1/questions/similar recorded (only a question is recorded). */
function recordedOf(res: { isQuestion: boolean; recorded?: { id: string; deduplicated: boolean } }) {
  expect(res.recorded).toBeDefined();
  return res.recorded!;
}

describe("POST /v1/questions/similar", () => {
  it("finds 'How do I deploy to Vercel?' for 'What's the best way to deploy on Vercel?' (seed 000)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:vercel";
    const target = await remember(api, { scope, content: "How do I deploy to Vercel?", memoryType: "question", category: "work_context" });
    await remember(api, { scope, content: "How do I center a div?", memoryType: "question" });
    await remember(api, { scope, content: "What is the capital of Australia?", memoryType: "question" });
    await remember(api, { scope, content: "Vercel is our hosting provider", memoryType: "fact" });

    const res = await expectJson(
      api.v1.questions.similar.$post({ json: { scope, text: "What's the best way to deploy on Vercel?", record: false } }),
      200,
    );
    expect(res.isQuestion).toBe(true);
    expect(res.questions[0]).toMatchObject({ id: target.id, context: "Category: work_context" });
    expect(res.questions.map((q) => q.content)).not.toContain("Vercel is our hosting provider");
    expect(res.questions[0]!.similarity).toBeGreaterThan(0.6);
    expect(res.questions[0]!.rawCosine).toEqual(expect.any(Number));
  });

  it("does not search for what is no information need (a command)", async () => {
    const { clientKey } = await newTenant();
    const { calls, override } = countingEmbedder();
    const res = await expectJson(
      clientWith(override, clientKey).v1.questions.similar.$post({ json: { scope: "s", text: "Rename this variable to userId." } }),
      200,
    );
    expect(res).toEqual({ isQuestion: false, questions: [], degraded: [] });
    expect(calls).toEqual([]);
  });

  it("records the question, so the very next call finds it, and counts a repeat instead of storing it twice", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:ryw";
    const similar = (text: string, sessionId: string) =>
      expectJson(api.v1.questions.similar.$post({ json: { scope, text, sessionId } }), 200);
    const first = await similar("How do I rotate the webhook secret?", "s1");
    expect(first.questions).toEqual([]);
    expect(recordedOf(first).deduplicated).toBe(false);

    const second = await similar("How can I rotate our webhook signing secret?", "s2");
    expect(second.questions[0]).toMatchObject({ id: recordedOf(first).id });

    const again = await similar("How do I rotate the webhook secret?", "s3");
    expect(recordedOf(again)).toEqual({ id: recordedOf(first).id, deduplicated: true });
    const stored = await expectJson(api.v1.memories[":id"].$get({ param: { id: recordedOf(first).id } }), 200);
    expect(stored.recallCount).toBeGreaterThanOrEqual(2);
  });

  it("keeps a different question on the same subject as its own memory", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:near-miss";
    const read = await expectJson(api.v1.questions.similar.$post({ json: { scope, text: "How do I read a JSON file in Node.js?" } }), 200);
    const write = await expectJson(api.v1.questions.similar.$post({ json: { scope, text: "How do I write a CSV file in Node.js?" } }), 200);
    expect(recordedOf(write).deduplicated).toBe(false);
    expect(recordedOf(write).id).not.toBe(recordedOf(read).id);
  });

  it("leaves out the caller's own session", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:session";
    await remember(api, { scope, content: "How do I enable dark mode?", memoryType: "question", sessionId: "current" });
    const res = await expectJson(
      api.v1.questions.similar.$post({ json: { scope, text: "How can I turn on dark mode?", excludeSessionId: "current", record: false } }),
      200,
    );
    expect(res.questions).toEqual([]);
  });

  it.each([[{ scope: "s", text: "why?", limit: 0 }], [{ scope: "s", text: "why?", limit: 11 }], [{ scope: "s" }]])(
    "answers 400 for %j",
    async (body) => {
      const { clientKey } = await newTenant();
      // Off the schema (a missing text among them): sent raw.
      await expectError(send("/v1/questions/similar", { key: clientKey, body }), 400);
    },
  );

  it("answers an unknown scope with no questions, not an error", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const res = await expectJson(
      api.v1.questions.similar.$post({ json: { scope: "nobody-here", text: "Is anyone there?", record: false } }),
      200,
    );
    expect(res.questions).toEqual([]);
  });
});

describe("POST /v1/context", () => {
  it("answers a trivial prompt at once, without an embedding call", async () => {
    const { clientKey } = await newTenant();
    const { calls, override } = countingEmbedder();
    const counted = clientWith(override, clientKey);
    for (const prompt of ["/commit", "ok", "sounds good", "thanks a lot!"]) {
      const res = await expectJson(counted.v1.context.$post({ json: { scope: "s", prompt } }), 200);
      expect(res).toMatchObject({ class: "trivial", markdown: "", degraded: [] });
    }
    expect(calls).toEqual([]);
  });

  it("renders the seed-000 block: similar questions with their category and the NOTE", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const scope = "user:ctx";
    await remember(api, { scope, content: "How do I optimize React performance?", memoryType: "question", category: "work_context" });
    await remember(api, { scope, content: "We decided to memoize expensive React components", memoryType: "decision" });
    await remember(api, { scope, content: "I'm a frontend developer", memoryType: "fact" });

    const { calls, override } = countingEmbedder();
    const res = await expectJson(
      clientWith(override, clientKey).v1.context.$post({ json: { scope, prompt: "How can I make my React app faster?" } }),
      200,
    );
    expect(calls).toHaveLength(1); // embedded once for all three lookups
    expect(res.class).toBe("searchable");
    // On the local model the decision is not sure the two are one question (few words shared), so
    // the seed's line carries the related mark.
    expect(res.markdown).toContain(
      `${SIMILAR_QUESTIONS_HEADING}\n\n1. How do I optimize React performance? ${RELATED_QUESTION_MARK}\n   Context: Category: work_context`,
    );
    expect(res.markdown).toContain("**NOTE:** These are questions you've asked in past conversations.");
    expect(res.markdown).toContain("[decision] We decided to memoize expensive React components");
    expect(res.sections!.similarQuestions).toHaveLength(1);
    expect(res.degraded).toEqual([]);
  });

  it("stays within the token budget", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:budget";
    for (let i = 0; i < 8; i++) {
      await remember(api, {
        scope,
        content: `Release checklist item ${i}: verify the staging deploy of service ${i} with the smoke tests`,
        memoryType: "fact",
      });
    }
    for (const tokenBudget of [60, 120, 500]) {
      const res = await expectJson(
        api.v1.context.$post({ json: { scope, prompt: "what is on the release checklist for the staging deploy", tokenBudget } }),
        200,
      );
      expect(res.tokens).toBeLessThanOrEqual(tokenBudget);
      expect(estimateTokens(res.markdown)).toBe(res.tokens);
    }
    await expectError(api.v1.context.$post({ json: { scope, prompt: "x y z", tokenBudget: 10 } }), 400);
  });

  it("shortens long memories around what matched instead of dropping them", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:long-facts";
    const filler = (topic: string) => Array.from({ length: 25 }, (_, i) => `Note ${i} on ${topic} goes on with details.`).join(" ");
    for (let i = 0; i < 6; i++) {
      await remember(api, {
        scope,
        content: `${filler("the office plants")} Docker build layer caching, tip ${i}: copy package.json and run npm ci before the source. ${filler("parking")}`,
        memoryType: "fact",
      });
    }
    const res = await expectJson(api.v1.context.$post({ json: { scope, prompt: "how does docker build layer caching work?" } }), 200);
    expect(res.tokens).toBeLessThanOrEqual(500);
    const shown = res.markdown.split("\n").filter((l) => l.startsWith("- [fact]"));
    expect(shown.length).toBeGreaterThanOrEqual(5);
    for (const line of shown) expect(line).toMatch(/Docker build layer caching, tip \d/);
  });

  it("includes the memory whose card answers the question, in the user's words", async () => {
    const api = apiClient((await newTenant()).clientKey);
    await remember(api, { scope: "user:card", content: "I live in Austin" });
    const res = await expectJson(api.v1.context.$post({ json: { scope: "user:card", prompt: "where do I live these days?" } }), 200);
    expect(res.sections!.memories[0]).toMatchObject({ content: "I live in Austin" });
    expect(res.markdown).toContain("- [fact] I live in Austin");
  });

  it("degrades instead of failing when the embedder is down", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:down";
    await remember(apiClient(clientKey), { scope, content: "How do I rotate the database password?", memoryType: "question" });
    const res = await expectJson(
      clientWith(embedderDown, clientKey).v1.context.$post({ json: { scope, prompt: "how do I rotate the password for the database?" } }),
      200,
    );
    expect(res.degraded).toContain("embeddings");
    expect(res.sections!.similarQuestions[0]).toMatchObject({ content: "How do I rotate the database password?", similarity: null });
  });

  it("degrades instead of failing when the vector index is down", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:index-down";
    await remember(apiClient(clientKey), { scope, content: "How do I rotate the database password?", memoryType: "question" });
    const res = await expectJson(
      clientWith(vectorIndexDown, clientKey).v1.context.$post({
        json: { scope, prompt: "how do I rotate the password for the database?" },
      }),
      200,
    );
    expect(res.degraded).toContain("vector_index");
    expect(res.sections!.similarQuestions[0]!.content).toBe("How do I rotate the database password?");
  });

  it("searches Chinese prompts lexically with the English-only model, never with a bogus similarity", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:zh-context";
    await remember(api, { scope, content: "怎么重置数据库密码？", memoryType: "question" });
    await remember(api, { scope, content: "今天午饭吃什么？", memoryType: "question" });
    const res = await expectJson(api.v1.context.$post({ json: { scope, prompt: "数据库密码怎么重置？" } }), 200);
    expect(res.sections!.similarQuestions.map((q) => q.content)).toEqual(["怎么重置数据库密码？"]);
    expect(res.sections!.similarQuestions[0]!.similarity).toBeNull();
  });

  it("handles a huge prompt and a prompt that is only a file path", async () => {
    const api = apiClient((await newTenant()).clientKey);
    await expectJson(api.v1.context.$post({ json: { scope: "s", prompt: "why does the deploy fail ".repeat(3000) } }), 200);
    await expectJson(api.v1.context.$post({ json: { scope: "s", prompt: "src/http/routes/context.ts" } }), 200);
  });
});

describe("session enrichment", () => {
  it("appends the session's most recent distinct file names, capped", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const files = ["src/a.ts", "src/b.rs", "/home/me/proj/src/a.ts", "lib/c.py", "d.go", "e.md", "f.toml", "g.json"].map((path) => ({
      path,
    }));
    await expectJson(api.v1.sessions[":sessionId"].files.$post({ param: { sessionId: "sess-1" }, json: { files } }), 201);
    const res = await expectJson(api.v1.context.$post({ json: { scope: "s", prompt: "why was this changed?", sessionId: "sess-1" } }), 200);
    expect(res.enrichedQuery).toBe("why was this changed?\n\n[Context: recently touched files: g.json, f.toml, e.md, d.go, c.py]");
  });

  it("enriches the vector side only: a session never makes a keyword-only match disappear", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:zh-session";
    await remember(api, { scope, content: "手机电池很快没电怎么办？", memoryType: "question" });
    const files = ["src/a.ts", "src/b.rs", "lib/c.py", "d.go", "e.md"].map((path) => ({ path }));
    await expectJson(api.v1.sessions[":sessionId"].files.$post({ param: { sessionId: "sess-zh" }, json: { files } }), 201);
    const prompt = "手机电池怎么办呢？";
    const alone = await expectJson(api.v1.context.$post({ json: { scope, prompt } }), 200);
    const withSession = await expectJson(api.v1.context.$post({ json: { scope, prompt, sessionId: "sess-zh" } }), 200);
    expect(alone.sections!.similarQuestions.map((q) => q.content)).toEqual(["手机电池很快没电怎么办？"]);
    expect(withSession.enrichedQuery).toContain("e.md");
    expect(withSession.sections!.similarQuestions.map((q) => q.content)).toEqual(["手机电池很快没电怎么办？"]);
  });

  it("leaves the query unchanged without a session or without files", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const none = await expectJson(api.v1.context.$post({ json: { scope: "s", prompt: "why was this changed?" } }), 200);
    expect(none.enrichedQuery).toBeUndefined();
    const empty = await expectJson(
      api.v1.context.$post({ json: { scope: "s", prompt: "why was this changed?", sessionId: "no-files" } }),
      200,
    );
    expect(empty.enrichedQuery).toBeUndefined();
  });

  it("validates file mentions", async () => {
    const files = apiClient((await newTenant()).clientKey).v1.sessions[":sessionId"].files;
    await expectError(files.$post({ param: { sessionId: "s" }, json: { files: [] } }), 400);
    await expectError(files.$post({ param: { sessionId: "s" }, json: { files: [{ path: "a\u0000b" }] } }), 400);
  });
});

describe("POST /v1/memories/search ranking", () => {
  it("keeps a keyword-only hit that the vector top-k missed, and takes weight overrides", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:union";
    for (let i = 0; i < 24; i++) {
      await remember(api, { scope, content: `Deploying the web app to production step ${i} of the release pipeline` });
    }
    const keyword = await remember(api, { scope, content: "Ticket ZQX-7781 tracks the flaky printer driver" });
    const res = await expectJson(
      api.v1.memories.search.$post({
        json: { scope, query: "deploy the web app to production ZQX-7781", limit: 5, weights: { vector: 0.05, text: 0.9 } },
      }),
      200,
    );
    const hit = res.results.find((r) => r.id === keyword.id);
    expect(hit).toBeDefined();
    expect(hit!.matchedBy).toEqual(["bm25"]);
    expect(hit!.rawCosine).toEqual(expect.any(Number)); // scored through the index even though its top-k missed it
    expect(res.results[0]!.id).toBe(keyword.id);
  });

  it("ranks the newer of two equal memories first (recency), with an injected clock", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:clock";
    const clock = fixedClock(Date.UTC(2026, 0, 1));
    const api = clientWith((real: ReturnType<typeof createServices>) => ({ ...real, clock }), clientKey);
    const old = await remember(api, { scope, content: "The office wifi password is on the fridge", memoryType: "fact" });
    clock.advance(60 * DAY);
    const recent = await remember(api, { scope, content: "The office wifi password is on the fridge!", memoryType: "fact" });
    const res = await expectJson(api.v1.memories.search.$post({ json: { scope, query: "where is the wifi password" } }), 200);
    expect(res.results.map((r) => r.id)).toEqual([recent.id, old.id]);
  });
});

describe("GET /v1/admin/metrics", () => {
  it("reports detection rate, hit rate, mean similarity and context latency", async () => {
    const { clientKey, adminKey } = await newTenant();
    const api = apiClient(clientKey);
    const scope = "user:metrics";
    await remember(api, { scope, content: "How do I deploy to Vercel?", memoryType: "question" });
    await expectJson(api.v1.context.$post({ json: { scope, prompt: "What's the best way to deploy on Vercel?" } }), 200);
    await expectJson(api.v1.context.$post({ json: { scope, prompt: "Summarize the release notes for me" } }), 200);
    const { recall } = await expectJson(apiClient(adminKey).v1.admin.metrics.$get(), 200);
    // Both prompts are needs; the release-notes request has asked nothing like it before.
    expect(recall).toMatchObject({ prompts: 2, questionDetectionRate: 1, similarQuestionHitRate: 0.5 });
    expect(recall.meanSimilarity).toBeGreaterThan(0.6);
    expect(recall.contextLatencyMs.samples).toBe(2);
    await expectError(api.v1.admin.metrics.$get(), 403);
  });
});

describe("read-your-writes over an eventually consistent index", () => {
  it("finds a vector written a moment ago although the primary index does not show it yet", async () => {
    const { exactD1Index } = await import("../../src/adapters/vectors/exact-d1");
    const { withReadYourWrites } = await import("../../src/adapters/vectors/read-your-writes");
    const lagging = exactD1Index(env.DB, "m", 2);
    // Vectorize-like: writes are accepted but not visible to queries yet.
    const eventual = { ...lagging, upsert: async () => {} };
    const index = withReadYourWrites(eventual, exactD1Index(env.DB, "m", 2));
    await index.upsert("t_ryw", "memories", [{ id: "fresh", vector: Float32Array.from([1, 0]), model: "m", metadata: { scope: "s" } }]);
    expect(await eventual.query("t_ryw", "memories", { vector: Float32Array.from([1, 0]), model: "m", topK: 5 })).toEqual([]);
    expect(
      await index.query("t_ryw", "memories", { vector: Float32Array.from([1, 0]), model: "m", topK: 5, filter: { scope: "s" } }),
    ).toEqual([{ id: "fresh", score: 1 }]);
  });
});
