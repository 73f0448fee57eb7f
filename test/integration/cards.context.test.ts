import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";

async function remember(key: string, scope: string, content: string, memoryType = "fact") {
  const res = await call("/v1/memories", { key, body: { scope, content, memoryType } });
  expect(res.status).toBe(201);
  return res.json as Record<string, any>;
}

describe("card boost only for the slot the question asks about (seed 003)", () => {
  it("does not pull 'My name is Dana' into 我是什么用户", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:dana";
    await remember(clientKey, scope, "My name is Dana");
    const android = await remember(clientKey, scope, "我是安卓玩机用户");
    await remember(clientKey, scope, "I live in Austin");
    const res = await call("/v1/memories/search", { key: clientKey, body: { scope, query: "我是什么用户" } });
    expect(res.json?.results[0]).toMatchObject({ id: android.id, matchedBy: expect.arrayContaining(["card"]) });
    expect(res.json?.results.map((r: any) => r.content)).not.toContain("My name is Dana");
  });

  it("boosts the name card for 'what is my name?' and the employer, not the location, for 'where do I work?'", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:slots";
    const name = await remember(clientKey, scope, "My name is Dana");
    const employer = await remember(clientKey, scope, "I work at Globex");
    const home = await remember(clientKey, scope, "I live in Austin");
    const byName = await call("/v1/memories/search", { key: clientKey, body: { scope, query: "what is my name?" } });
    expect(byName.json?.results[0]).toMatchObject({ id: name.id, matchedBy: expect.arrayContaining(["card"]) });
    const byWork = await call("/v1/memories/search", { key: clientKey, body: { scope, query: "where do I work?" } });
    expect(byWork.json?.results[0]).toMatchObject({ id: employer.id, matchedBy: expect.arrayContaining(["card"]) });
    expect(byWork.json?.results.find((r: any) => r.id === home.id)?.matchedBy ?? []).not.toContain("card");
  });
});

describe("POST /v1/context keeps cards internal (seed 003)", () => {
  it("ranks the card's source memory first and shows no card section to the LLM", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:ctx-cards";
    await remember(clientKey, scope, "We moved the team offsite to Lisbon");
    const home = await remember(clientKey, scope, "I live in Austin");
    const res = await call("/v1/context", { key: clientKey, body: { scope, prompt: "where do I live these days?" } });
    expect(res.status).toBe(200);
    expect(res.json?.markdown).not.toContain("What You Know About the User");
    expect(res.json?.sections).not.toHaveProperty("cards");
    expect(res.json?.sections.memories[0]).toMatchObject({ id: home.id, content: "I live in Austin" });
    expect(res.json?.markdown).toContain("- [fact] I live in Austin");
  });
});
