import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";

const remember = (key: string, scope: string, content: string) =>
  expectJson(apiClient(key).v1.memories.$post({ json: { scope, content, memoryType: "fact" } }), 201);
const cardsOf = async (key: string, scope: string, slot?: string) =>
  (await expectJson(apiClient(key).v1.cards.$get({ query: { scope, ...(slot ? { slot } : {}) } }), 200)).cards;
const current = (cards: { slot: string; value: string; current: boolean }[]) =>
  cards.filter((c) => c.current).map((c) => [c.slot, c.value]);
const forget = async (key: string, id: string) =>
  expect((await apiClient(key).v1.memories[":id"].$delete({ param: { id } })).status).toBe(204);

describe("memory cards never forget (seed 003)", () => {
  it("ends the location when the user no longer lives there", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:left-austin";
    await remember(clientKey, scope, "I live in Austin");
    await remember(clientKey, scope, "I no longer live in Austin");
    const cards = await cardsOf(clientKey, scope, "location");
    expect(current(cards)).toEqual([]);
    expect(cards.map((c) => [c.value, c.versionRelation, c.current])).toEqual([
      ["Austin", "retracts", false],
      ["Austin", "sets", false],
    ]);
    const search = await expectJson(apiClient(clientKey).v1.memories.search.$post({ json: { scope, query: "where do I live?" } }), 200);
    expect(search.results.flatMap((r) => r.matchedBy)).not.toContain("card");
  });

  it("ends a like with 'don't like … anymore' and stores no temporal word", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:jazz";
    await remember(clientKey, scope, "I like jazz");
    await remember(clientKey, scope, "I like hiking");
    await remember(clientKey, scope, "I don't like jazz anymore");
    const cards = await cardsOf(clientKey, scope);
    expect(current(cards)).toEqual([["likes", "hiking"]]);
    expect(cards.map((c) => c.value)).not.toContain("jazz anymore");
  });

  it("replaces the employer with 'I work for Globex now'", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:globex";
    await remember(clientKey, scope, "I work at Initech");
    await remember(clientKey, scope, "I work for Globex now");
    expect(current(await cardsOf(clientKey, scope, "employer"))).toEqual([["employer", "Globex"]]);
  });

  it("keeps the current value when an older one is said to be past (used to, 以前)", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:past";
    await remember(clientKey, scope, "I live in Denver");
    await remember(clientKey, scope, "I used to live in Austin");
    await remember(clientKey, scope, "我住在上海");
    await remember(clientKey, scope, "我以前住在北京");
    expect(current(await cardsOf(clientKey, scope, "location"))).toEqual([["location", "上海"]]);
  });

  it("ends a like when the same thing becomes a dislike, and the reverse", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:flip";
    await remember(clientKey, scope, "我喜欢香菜");
    await remember(clientKey, scope, "我不喜欢香菜了");
    expect(current(await cardsOf(clientKey, scope))).toEqual([["dislikes", "香菜"]]);
    await remember(clientKey, scope, "我又喜欢香菜了");
    expect(current(await cardsOf(clientKey, scope))).toEqual([["likes", "香菜"]]);
  });

  it("handles a change in one sentence and in Chinese (不再, 已经不)", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:zh-change";
    await remember(clientKey, scope, "I used to work at Initech but now I work for Globex.");
    expect(current(await cardsOf(clientKey, scope, "employer"))).toEqual([["employer", "Globex"]]);
    await remember(clientKey, scope, "我在腾讯工作");
    await remember(clientKey, scope, "我已经不在腾讯工作了");
    expect(current(await cardsOf(clientKey, scope, "employer"))).toEqual([]);
    await remember(clientKey, scope, "我住在北京");
    await remember(clientKey, scope, "我不再住在北京");
    expect(current(await cardsOf(clientKey, scope, "location"))).toEqual([]);
  });

  it("restores the value when the retracting memory is deleted", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:undo";
    await remember(clientKey, scope, "I live in Austin");
    const retraction = await remember(clientKey, scope, "I no longer live in Austin");
    await forget(clientKey, retraction.id);
    expect(current(await cardsOf(clientKey, scope, "location"))).toEqual([["location", "Austin"]]);
  });

  it("restores a like when the memory that ended it is deleted", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:undo-like";
    await remember(clientKey, scope, "I like jazz");
    const retraction = await remember(clientKey, scope, "I don't like jazz anymore");
    const flip = await remember(clientKey, scope, "I love hiking");
    const dislike = await remember(clientKey, scope, "I hate hiking");
    expect(current(await cardsOf(clientKey, scope))).toEqual([["dislikes", "hiking"]]);
    await forget(clientKey, retraction.id);
    await forget(clientKey, dislike.id);
    expect(current(await cardsOf(clientKey, scope)).sort()).toEqual([
      ["likes", "hiking"],
      ["likes", "jazz"],
    ]);
    expect(flip.id).toBeTruthy();
  });

  it("stores the seed's event_date, document_date and extra", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:dates";
    const memory = await remember(clientKey, scope, "I moved to Berlin in 2021");
    await remember(clientKey, scope, "我的手机是小米14");
    const [location] = await cardsOf(clientKey, scope, "location");
    expect(location).toMatchObject({ value: "Berlin", eventDate: "2021-01-01T00:00:00.000Z", documentDate: memory.createdAt, extra: null });
    const [device] = await cardsOf(clientKey, scope, "device");
    expect(device).toMatchObject({ value: "小米14", eventDate: null, extra: { device: "手机" } });
  });
});

describe("memory says what is true now (issue 49)", () => {
  const context = async (key: string, scope: string, prompt: string) =>
    expectJson(apiClient(key).v1.context.$post({ json: { scope, prompt } }), 200);

  it.each([
    ["I'm not in Austin anymore", "where do I live these days?"],
    ["I left Austin", "where do I live these days?"],
    ["I moved away from Austin", "where do I live these days?"],
  ])("after %j the context marks 'I live in Austin' as former, not as the answer", async (ended, prompt) => {
    const { clientKey } = await newTenant();
    const scope = `user:austin-${Math.random().toString(36).slice(2)}`;
    await remember(clientKey, scope, "I live in Austin");
    await remember(clientKey, scope, ended);
    expect(current(await cardsOf(clientKey, scope, "location"))).toEqual([]);
    const built = await context(clientKey, scope, prompt);
    const austin = built.sections.memories.find((m) => m.content === "I live in Austin");
    expect(austin?.endedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(built.markdown).toContain(`- [fact, until ${austin!.endedAt!.slice(0, 7)}] I live in Austin`);
    expect(built.markdown).not.toMatch(/^- \[fact\] I live in Austin$/m);
  });

  it("shows the current value and never the ended one as current, in Chinese too", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:beijing";
    await remember(clientKey, scope, "我住在北京");
    await remember(clientKey, scope, "我现在不在北京了");
    await remember(clientKey, scope, "我住在上海");
    expect(current(await cardsOf(clientKey, scope, "location"))).toEqual([["location", "上海"]]);
    const built = await context(clientKey, scope, "我现在住在哪里？");
    const order = built.sections.memories.map((m) => [m.content, m.endedAt === null]);
    // The current value is shown; the ended one is left out or marked former, never shown as current.
    expect(order).toContainEqual(["我住在上海", true]);
    expect(order).not.toContainEqual(["我住在北京", true]);
  });
});
