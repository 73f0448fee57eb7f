import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";

const remember = (key: string, scope: string, content: string) =>
  expectJson(apiClient(key).v1.memories.$post({ json: { scope, content, memoryType: "fact" } }), 201);
const search = async (key: string, scope: string, query: string) =>
  (await expectJson(apiClient(key).v1.memories.search.$post({ json: { scope, query } }), 200)).results;

describe("card boost only for the slot the question asks about (seed 003)", () => {
  it("does not pull 'My name is Dana' into 我是什么用户", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:dana";
    await remember(clientKey, scope, "My name is Dana");
    const android = await remember(clientKey, scope, "我是安卓玩机用户");
    await remember(clientKey, scope, "I live in Austin");
    const results = await search(clientKey, scope, "我是什么用户");
    expect(results[0]).toMatchObject({ id: android.id, matchedBy: expect.arrayContaining(["card"]) });
    expect(results.map((r) => r.content)).not.toContain("My name is Dana");
  });

  it("boosts the name card for 'what is my name?' and the employer, not the location, for 'where do I work?'", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:slots";
    const name = await remember(clientKey, scope, "My name is Dana");
    const employer = await remember(clientKey, scope, "I work at Globex");
    const home = await remember(clientKey, scope, "I live in Austin");
    const byName = await search(clientKey, scope, "what is my name?");
    expect(byName[0]).toMatchObject({ id: name.id, matchedBy: expect.arrayContaining(["card"]) });
    const byWork = await search(clientKey, scope, "where do I work?");
    expect(byWork[0]).toMatchObject({ id: employer.id, matchedBy: expect.arrayContaining(["card"]) });
    expect(byWork.find((r) => r.id === home.id)?.matchedBy ?? []).not.toContain("card");
  });
});

describe("POST /v1/context keeps cards internal (seed 003)", () => {
  it("ranks the card's source memory first and shows no card section to the LLM", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:ctx-cards";
    await remember(clientKey, scope, "We moved the team offsite to Lisbon");
    const home = await remember(clientKey, scope, "I live in Austin");
    const res = await expectJson(apiClient(clientKey).v1.context.$post({ json: { scope, prompt: "where do I live these days?" } }), 200);
    expect(res.markdown).not.toContain("What You Know About the User");
    expect(res.sections).not.toHaveProperty("cards");
    expect(res.sections!.memories[0]).toMatchObject({ id: home.id, content: "I live in Austin" });
    expect(res.markdown).toContain("- [fact] I live in Austin");
  });
});
