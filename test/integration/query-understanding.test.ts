import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { cachedExpandQuery, expansionCacheKey } from "../../src/query/analyze";
import { sha256Hex } from "../../src/crypto";
import { expandQuery } from "../../src/text/expand";
import { fixedClock } from "../../src/clock";
import type { Services } from "../../src/services";

const DAY = 24 * 3600 * 1000;
import { call, newTenant } from "../support/api";
import { callWith } from "../support/app";

async function remember(key: string, scope: string, content: string, memoryType = "fact") {
  const res = await call("/v1/memories", { key, body: { scope, content, memoryType } });
  expect(res.status).toBe(201);
  return res.json as Record<string, any>;
}

describe("POST /v1/memories/search with question types and cards", () => {
  it("answers 我是什么用户 with 我是安卓玩机用户 first (seed 003), through the card and lexical paths", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:zh";
    for (const content of ["我喜欢在周末爬山", "今天的会议改到下午三点", "我们的用户增长很快", "这家餐厅的菜很好吃"]) {
      await remember(clientKey, scope, content);
    }
    const target = await remember(clientKey, scope, "我是安卓玩机用户");
    expect(target.indexState).toBe("lexical_only"); // the English-only local model cannot embed it
    await remember(clientKey, scope, "用户反馈说登录太慢");

    const res = await call("/v1/memories/search", { key: clientKey, body: { scope, query: "我是什么用户" } });
    expect(res.status).toBe(200);
    expect(res.json?.results[0]).toMatchObject({ id: target.id, content: "我是安卓玩机用户" });
    expect(res.json?.results[0].matchedBy).toEqual(["card", "bm25"]);
    expect(res.json?.results[0].similarity).toBeNull(); // no bogus 1.0 from the English-only model
  });

  it("answers 'where do I live?' with the memory that says so (English card)", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:en";
    await remember(clientKey, scope, "I like living close to the office");
    const target = await remember(clientKey, scope, "I live in Austin");
    await remember(clientKey, scope, "Where should we hold the offsite? Lisbon maybe");
    await remember(clientKey, scope, "My manager lives in Denver");

    const res = await call("/v1/memories/search", { key: clientKey, body: { scope, query: "where do I live?" } });
    expect(res.json?.results[0]).toMatchObject({ id: target.id });
    expect(res.json?.results[0].matchedBy).toContain("card");
  });

  it("lets the newest statement win for a single-valued slot, and restores the old one when it is deleted", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:moves";
    await remember(clientKey, scope, "I live in Austin");
    const moved = await remember(clientKey, scope, "I moved to Berlin");

    const first = await call("/v1/memories/search", { key: clientKey, body: { scope, query: "where do I live now" } });
    expect(first.json?.results[0].id).toBe(moved.id);

    const listed = await call(`/v1/cards?scope=${encodeURIComponent(scope)}&slot=location`, { key: clientKey });
    expect(listed.json?.cards.map((c: any) => [c.value, c.current, c.versionRelation])).toEqual([
      ["Berlin", true, "updates"],
      ["Austin", false, "sets"],
    ]);

    await call(`/v1/memories/${moved.id}`, { method: "DELETE", key: clientKey });
    const after = await call(`/v1/cards?scope=${encodeURIComponent(scope)}&slot=location`, { key: clientKey });
    expect(after.json?.cards.map((c: any) => [c.value, c.current])).toEqual([["Austin", true]]);
  });

  it("ranks newer memories higher for a Recency question", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:recency";
    const clock = fixedClock(Date.UTC(2026, 0, 1));
    const withClock = (real: Services): Services => ({ ...real, clock });
    const older = await callWith(withClock, "/v1/memories", clientKey, { scope, content: "The deploy target is Heroku", memoryType: "fact" });
    clock.advance(10 * DAY);
    const newer = await callWith(withClock, "/v1/memories", clientKey, { scope, content: "The deploy target is Fly.io", memoryType: "fact" });
    const search = async (query: string) => (await callWith(withClock, "/v1/memories/search", clientKey, { scope, query })).json.results;
    const recency = await search("what is the current deploy target");
    expect(recency.map((r: any) => r.id)).toEqual([newer.json.id, older.json.id]);
    // The Recency question weighs age more than the same question without "current" does.
    const plain = await search("what is the deploy target");
    const gap = (results: any[]) => results.find((r) => r.id === newer.json.id).score - results.find((r) => r.id === older.json.id).score;
    expect(gap(recency)).toBeGreaterThan(gap(plain));
  });
});

describe("GET /v1/cards", () => {
  it("lists only the caller's cards and validates its query", async () => {
    const alice = await newTenant();
    const bob = await newTenant();
    await remember(alice.clientKey, "s", "我住在湖南长沙");
    expect((await call("/v1/cards?scope=s", { key: alice.clientKey })).json?.cards).toHaveLength(1);
    expect((await call("/v1/cards?scope=s", { key: bob.clientKey })).json?.cards).toEqual([]);
    expect((await call("/v1/cards", { key: alice.clientKey })).status).toBe(400);
    expect((await call("/v1/cards?scope=s&limit=5000", { key: alice.clientKey })).status).toBe(400);
  });
});

describe("POST /v1/admin/cards/backfill", () => {
  it("extracts cards for memories stored without them, page by page, and only once", async () => {
    const { clientKey, adminKey, tenantId } = await newTenant();
    await remember(clientKey, "bf", "I work at Acme Corp");
    await remember(clientKey, "bf", "My phone is a Pixel 8");
    // Simulate memories from before cards existed.
    await env.DB.prepare("DELETE FROM memory_cards WHERE tenant_id = ?").bind(tenantId).run();

    const page1 = await call("/v1/admin/cards/backfill", { key: adminKey, body: { batchSize: 1 } });
    expect(page1.json).toMatchObject({ processed: 1, cardsCreated: 1 });
    const page2 = await call("/v1/admin/cards/backfill", { key: adminKey, body: { after: page1.json?.nextCursor, batchSize: 1 } });
    expect(page2.json).toMatchObject({ processed: 1, cardsCreated: 1 });
    const page3 = await call("/v1/admin/cards/backfill", { key: adminKey, body: { after: page2.json?.nextCursor, batchSize: 1 } });
    expect(page3.json).toEqual({ processed: 0, cardsCreated: 0, nextCursor: null });

    const again = await call("/v1/admin/cards/backfill", { key: adminKey, body: {} });
    expect(again.json).toMatchObject({ processed: 2, cardsCreated: 0, nextCursor: null });
    expect((await call("/v1/admin/cards/backfill", { key: clientKey, body: {} })).status).toBe(403);
  });
});

describe("POST /v1/query/analyze", () => {
  it("returns class, isQuestion, question type, language and expansion", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/query/analyze", { key: clientKey, body: { text: "我是什么用户" } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      class: "searchable",
      isQuestion: true,
      questionType: "WhatKind",
      lang: "zh",
      expansion: { keywords: ["我", "用户"], variants: ["user"], orQuery: '"我" OR "用户" OR "user"', lang: "zh", truncated: false },
    });
  });

  it("says why a prompt is trivial", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/query/analyze", { key: clientKey, body: { text: "/commit" } });
    expect(res.json).toMatchObject({ class: "trivial", reason: "slash command", isQuestion: false, questionType: "Generic" });
  });

  it.each([
    ["very long input", "why ".repeat(4000)],
    ["control characters", "what\u0000 is\u0007 this\u001b[31m?"],
    ["mixed scripts and emoji", "我用 TypeScript 🙂 写 Workers 吗？"],
    ["only punctuation", "?!?!...;;"],
    ["FTS5 operators", 'NEAR(" OR * AND NOT ^col:'],
    ["an unpaired surrogate", "abc\uD800def"],
  ])("handles %s without an error", async (_name, text) => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/query/analyze", { key: clientKey, body: { text } });
    expect(res.status).toBe(200);
    const search = await call("/v1/memories/search", { key: clientKey, body: { scope: "hostile", query: text.slice(0, 2000) } });
    expect(search.status).toBe(200);
  });

  it("says when the input was cut", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/query/analyze", { key: clientKey, body: { text: "word ".repeat(2000) } });
    expect(res.json?.expansion.truncated).toBe(true);
  });

  it("rejects input over the accepted size", async () => {
    const { clientKey } = await newTenant();
    expect((await call("/v1/query/analyze", { key: clientKey, body: { text: "x".repeat(20_001) } })).status).toBe(400);
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
