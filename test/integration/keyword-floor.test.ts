import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";
import { clientWith, embedderDown } from "../support/app";
import { apiClient, expectJson, type TestClient } from "../support/client";

const remember = (api: TestClient, scope: string, content: string) =>
  expectJson(api.v1.memories.$post({ json: { scope, content, memoryType: "question" } }), 201);
const similar = async (api: TestClient, scope: string, text: string) =>
  (await expectJson(api.v1.questions.similar.$post({ json: { scope, text, record: false } }), 200)).questions;

describe("a keyword-only match needs a floor (seed 000)", () => {
  it("does not offer 'best practices for state management' for a Vercel question", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:floor";
    const vercel = await remember(api, scope, "How do I deploy to Vercel?");
    await remember(api, scope, "What are best practices for state management?");
    await remember(api, scope, "What is the best pizza in Naples?");
    const text = "What's the best way to deploy on Vercel?";

    expect((await similar(api, scope, text)).map((q) => q.id)).toEqual([vercel.id]);

    const context = await expectJson(api.v1.context.$post({ json: { scope, prompt: text } }), 200);
    expect(context.sections!.similarQuestions.map((q) => q.id)).toEqual([vercel.id]);
    expect(context.markdown).not.toContain("state management");
  });

  it("applies the floor when there is no vector at all (embedder down, Chinese)", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const scope = "user:floor-lexical";
    await remember(api, scope, "How do I rotate the database password?");
    await remember(api, scope, "What is the best password manager?");
    const down = await similar(clientWith(embedderDown, clientKey), scope, "how do I rotate the password for the database?");
    expect(down.map((q) => q.content)).toEqual(["How do I rotate the database password?"]);

    await remember(api, scope, "怎么重置数据库密码？");
    await remember(api, scope, "数据分析用什么工具？");
    expect((await similar(api, scope, "数据库密码怎么重置？")).map((q) => q.content)).toEqual(["怎么重置数据库密码？"]);
  });

  it("keeps a keyword match that carries the question, like an exact code", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:codes";
    await remember(api, scope, "Why does order PO-12345 show error E500?");
    expect((await similar(api, scope, "what is wrong with PO-12345?")).map((q) => q.content)).toEqual([
      "Why does order PO-12345 show error E500?",
    ]);
  });
});
