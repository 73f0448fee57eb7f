import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";
import { callWith, embedderDown } from "../support/app";

async function remember(key: string, scope: string, content: string, memoryType = "question") {
  const res = await call("/v1/memories", { key, body: { scope, content, memoryType } });
  expect(res.status).toBe(201);
  return res.json as Record<string, any>;
}

describe("a keyword-only match needs a floor (seed 000)", () => {
  it("does not offer 'best practices for state management' for a Vercel question", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:floor";
    const vercel = await remember(clientKey, scope, "How do I deploy to Vercel?");
    await remember(clientKey, scope, "What are best practices for state management?");
    await remember(clientKey, scope, "What is the best pizza in Naples?");
    const text = "What's the best way to deploy on Vercel?";

    const similar = await call("/v1/questions/similar", { key: clientKey, body: { scope, text, record: false } });
    expect(similar.json?.questions.map((q: any) => q.id)).toEqual([vercel.id]);

    const context = await call("/v1/context", { key: clientKey, body: { scope, prompt: text } });
    expect(context.json?.sections.similarQuestions.map((q: any) => q.id)).toEqual([vercel.id]);
    expect(context.json?.markdown).not.toContain("state management");
  });

  it("applies the floor when there is no vector at all (embedder down, Chinese)", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:floor-lexical";
    await remember(clientKey, scope, "How do I rotate the database password?");
    await remember(clientKey, scope, "What is the best password manager?");
    const res = await callWith(embedderDown, "/v1/questions/similar", clientKey, { scope, text: "how do I rotate the password for the database?", record: false });
    expect(res.json?.questions.map((q: any) => q.content)).toEqual(["How do I rotate the database password?"]);

    await remember(clientKey, scope, "怎么重置数据库密码？");
    await remember(clientKey, scope, "数据分析用什么工具？");
    const zh = await call("/v1/questions/similar", { key: clientKey, body: { scope, text: "数据库密码怎么重置？", record: false } });
    expect(zh.json?.questions.map((q: any) => q.content)).toEqual(["怎么重置数据库密码？"]);
  });

  it("keeps a keyword match that carries the question, like an exact code", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:codes";
    await remember(clientKey, scope, "Why does order PO-12345 show error E500?");
    const res = await call("/v1/questions/similar", { key: clientKey, body: { scope, text: "what is wrong with PO-12345?", record: false } });
    expect(res.json?.questions.map((q: any) => q.content)).toEqual(["Why does order PO-12345 show error E500?"]);
  });
});
