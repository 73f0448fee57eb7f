import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { cachedExpandQuery, expansionCacheKey } from "../../src/core/query/analyze";
import { sha256Hex } from "../../src/core/base/crypto";
import { expandQuery } from "../../src/core/text/expand";
import { fixedClock } from "../../src/core/base/clock";
import type { Services } from "../../src/platform/ports/services";

const DAY = 24 * 3600 * 1000;
import { newTenant, send } from "../support/api";
import { clientWith } from "../support/app";
import { apiClient, expectError, expectJson, type TestClient } from "../support/client";

const remember = (api: TestClient, scope: string, content: string, memoryType: "fact" | "question" = "fact") =>
  expectJson(api.v1.memories.$post({ json: { scope, content, memoryType } }), 201);
const searchMemories = async (api: TestClient, scope: string, query: string) =>
  (await expectJson(api.v1.memories.search.$post({ json: { scope, query } }), 200)).results;
const listCards = async (api: TestClient, query: { scope: string; slot?: string }) =>
  (await expectJson(api.v1.cards.$get({ query }), 200)).cards;

describe("POST /v1/memories/search with question types and cards", () => {
  it("answers 我是什么用户 with 我是安卓玩机用户 first (seed 003), through the card and lexical paths", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:zh";
    for (const content of ["我喜欢在周末爬山", "今天的会议改到下午三点", "我们的用户增长很快", "这家餐厅的菜很好吃"]) {
      await remember(api, scope, content);
    }
    const target = await remember(api, scope, "我是安卓玩机用户");
    expect(target.indexState).toBe("lexical_only"); // the English-only local model cannot embed it
    await remember(api, scope, "用户反馈说登录太慢");

    const results = await searchMemories(api, scope, "我是什么用户");
    expect(results[0]).toMatchObject({ id: target.id, content: "我是安卓玩机用户" });
    expect(results[0]!.matchedBy).toEqual(["card", "bm25"]);
    expect(results[0]!.similarity).toBeNull(); // no bogus 1.0 from the English-only model
  });

  it("answers 'where do I live?' with the memory that says so (English card)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:en";
    await remember(api, scope, "I like living close to the office");
    const target = await remember(api, scope, "I live in Austin");
    await remember(api, scope, "Where should we hold the offsite? Lisbon maybe");
    await remember(api, scope, "My manager lives in Denver");

    const results = await searchMemories(api, scope, "where do I live?");
    expect(results[0]).toMatchObject({ id: target.id });
    expect(results[0]!.matchedBy).toContain("card");
  });

  it("lets the newest statement win for a single-valued slot, and restores the old one when it is deleted", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:moves";
    await remember(api, scope, "I live in Austin");
    const moved = await remember(api, scope, "I moved to Berlin");

    expect((await searchMemories(api, scope, "where do I live now"))[0]!.id).toBe(moved.id);

    const listed = await listCards(api, { scope, slot: "location" });
    expect(listed.map((c) => [c.value, c.current, c.versionRelation])).toEqual([
      ["Berlin", true, "updates"],
      ["Austin", false, "sets"],
    ]);

    expect((await api.v1.memories[":id"].$delete({ param: { id: moved.id } })).status).toBe(204);
    const after = await listCards(api, { scope, slot: "location" });
    expect(after.map((c) => [c.value, c.current])).toEqual([["Austin", true]]);
  });

  it("ranks newer memories higher for a Recency question", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:recency";
    const clock = fixedClock(Date.UTC(2026, 0, 1));
    const api = clientWith((real: Services): Services => ({ ...real, clock }), clientKey);
    const older = await remember(api, scope, "The deploy target is Heroku");
    clock.advance(10 * DAY);
    const newer = await remember(api, scope, "The deploy target is Fly.io");
    const recency = await searchMemories(api, scope, "what is the current deploy target");
    expect(recency.map((r) => r.id)).toEqual([newer.id, older.id]);
    // The Recency question weighs age more than the same question without "current" does.
    const plain = await searchMemories(api, scope, "what is the deploy target");
    const gap = (results: typeof plain) => results.find((r) => r.id === newer.id)!.score - results.find((r) => r.id === older.id)!.score;
    expect(gap(recency)).toBeGreaterThan(gap(plain));
  });
});

describe("GET /v1/cards", () => {
  it("lists only the caller's cards and validates its query", async () => {
    const { clientKey } = await newTenant();
    const alice = apiClient(clientKey);
    const bob = apiClient((await newTenant()).clientKey);
    await remember(alice, "s", "我住在湖南长沙");
    expect(await listCards(alice, { scope: "s" })).toHaveLength(1);
    expect(await listCards(bob, { scope: "s" })).toEqual([]);
    // No scope at all: off the schema, sent raw.
    await expectError(send("/v1/cards", { key: clientKey }), 400);
    await expectError(alice.v1.cards.$get({ query: { scope: "s", limit: "5000" } }), 400);
  });
});

describe("POST /v1/admin/cards/backfill", () => {
  it("extracts cards for memories stored without them, page by page, and only once", async () => {
    const { clientKey, adminKey, tenantId } = await newTenant();
    const api = apiClient(clientKey);
    await remember(api, "bf", "I work at Acme Corp");
    await remember(api, "bf", "My phone is a Pixel 8");
    // Simulate memories from before cards existed.
    await env.DB.prepare("DELETE FROM memory_cards WHERE tenant_id = ?").bind(tenantId).run();

    const backfill = apiClient(adminKey).v1.admin.cards.backfill;
    const page1 = await expectJson(backfill.$post({ json: { batchSize: 1 } }), 200);
    expect(page1).toMatchObject({ processed: 1, cardsCreated: 1 });
    const page2 = await expectJson(backfill.$post({ json: { after: page1.nextCursor!, batchSize: 1 } }), 200);
    expect(page2).toMatchObject({ processed: 1, cardsCreated: 1 });
    const page3 = await expectJson(backfill.$post({ json: { after: page2.nextCursor!, batchSize: 1 } }), 200);
    expect(page3).toEqual({ processed: 0, cardsCreated: 0, nextCursor: null });

    const again = await expectJson(backfill.$post({ json: {} }), 200);
    expect(again).toMatchObject({ processed: 2, cardsCreated: 0, nextCursor: null });
    await expectError(api.v1.admin.cards.backfill.$post({ json: {} }), 403);
  });
});

describe("POST /v1/query/analyze", () => {
  const analyze = (api: TestClient, text: string) => expectJson(api.v1.query.analyze.$post({ json: { text } }), 200);

  it("returns class, isQuestion, question type, language and expansion", async () => {
    const api = apiClient((await newTenant()).clientKey);
    expect(await analyze(api, "我是什么用户")).toEqual({
      class: "searchable",
      isQuestion: true,
      questionType: "WhatKind",
      lang: "zh",
      expansion: { keywords: ["我", "用户"], variants: ["user"], orQuery: '"我" OR "用户" OR "user"', lang: "zh", truncated: false },
    });
  });

  it("says why a prompt is trivial", async () => {
    const api = apiClient((await newTenant()).clientKey);
    expect(await analyze(api, "/commit")).toMatchObject({
      class: "trivial",
      reason: "slash command",
      isQuestion: false,
      questionType: "Generic",
    });
  });

  it.each([
    ["very long input", "why ".repeat(4000)],
    ["control characters", "what\u0000 is\u0007 this\u001b[31m?"],
    ["mixed scripts and emoji", "我用 TypeScript 🙂 写 Workers 吗？"],
    ["only punctuation", "?!?!...;;"],
    ["FTS5 operators", 'NEAR(" OR * AND NOT ^col:'],
  ])("handles %s without an error", async (_name, text) => {
    const api = apiClient((await newTenant()).clientKey);
    await analyze(api, text);
    await searchMemories(api, "hostile", text.slice(0, 2000));
  });

  it("refuses an unpaired surrogate as not text, with the field named (one rule for every body)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const refused = await expectError(api.v1.query.analyze.$post({ json: { text: "abc\uD800def" } }), 400, "VALIDATION_FAILED");
    expect(refused.error.details).toEqual([{ path: "text", message: expect.stringContaining("unpaired UTF-16 surrogate") }]);
  });

  it("says when the input was cut", async () => {
    const api = apiClient((await newTenant()).clientKey);
    expect((await analyze(api, "word ".repeat(2000))).expansion.truncated).toBe(true);
  });

  it("rejects input over the accepted size", async () => {
    const api = apiClient((await newTenant()).clientKey);
    await expectError(api.v1.query.analyze.$post({ json: { text: "x".repeat(20_001) } }), 400);
  });
});

describe("the query expansion cache", () => {
  it("stores under qexp:v2:<lang>:<sha256> and a hit returns the same result", async () => {
    const text = "How do I rotate the webhook signing secret?";
    const fresh = await cachedExpandQuery(env.CACHE, text);
    expect(fresh).toEqual(expandQuery(text));
    const key = expansionCacheKey("en", await sha256Hex(text));
    expect(await env.CACHE.get(key, "json")).toEqual(fresh);
    const hit = await cachedExpandQuery(env.CACHE, text);
    expect(hit).toEqual(fresh);
  });
});
