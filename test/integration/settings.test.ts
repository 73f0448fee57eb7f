import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";

const DEFAULTS = {
  cards: { enabled: true, confidenceThreshold: 0.7, extractOnStore: true },
  query: { questionTypeDetection: true, expansion: true },
};

async function remember(key: string, scope: string, content: string) {
  const res = await call("/v1/memories", { key, body: { scope, content, memoryType: "fact" } });
  expect(res.status).toBe(201);
  return res.json as Record<string, any>;
}
const cardsOf = async (key: string, scope: string) => (await call(`/v1/cards?scope=${scope}`, { key })).json?.cards as any[];
const settings = (key: string, body?: unknown) => call("/v1/admin/settings", body === undefined ? { key } : { method: "PATCH", key, body });

describe("GET/PATCH /v1/admin/settings (seed 003's switches, per tenant)", () => {
  it("answers the defaults, then merges a partial change, for the admin's tenant only", async () => {
    const alice = await newTenant();
    const bob = await newTenant();
    expect((await settings(alice.adminKey)).json).toMatchObject({ settings: DEFAULTS, updatedAt: null });
    const changed = await settings(alice.adminKey, { cards: { confidenceThreshold: 0.8 }, query: { expansion: false } });
    expect(changed.status).toBe(200);
    expect(changed.json?.settings).toEqual({ cards: { ...DEFAULTS.cards, confidenceThreshold: 0.8 }, query: { ...DEFAULTS.query, expansion: false } });
    expect((await settings(alice.adminKey)).json?.settings).toEqual(changed.json?.settings);
    expect((await settings(bob.adminKey)).json?.settings).toEqual(DEFAULTS);
  });

  it("refuses bad values, unknown switches and client keys", async () => {
    const { adminKey, clientKey } = await newTenant();
    for (const body of [{ cards: { confidenceThreshold: 1.5 } }, { cards: { enabled: "yes" } }, { query: { synonyms: true } }, { theme: "dark" }, []]) {
      const res = await settings(adminKey, body);
      expect(res.status).toBe(400);
      expect(res.json?.error.code).toBe("VALIDATION_FAILED");
    }
    expect((await settings(clientKey)).status).toBe(403);
    expect((await settings(clientKey, { cards: { enabled: false } })).status).toBe(403);
  });
});

describe("the settings drive the code paths", () => {
  it("extracts no card on store when extractOnStore is off", async () => {
    const { adminKey, clientKey } = await newTenant();
    await settings(adminKey, { cards: { extractOnStore: false } });
    await remember(clientKey, "s", "I live in Austin");
    expect(await cardsOf(clientKey, "s")).toEqual([]);
  });

  it("keeps cards under the confidence threshold out", async () => {
    const { adminKey, clientKey } = await newTenant();
    await settings(adminKey, { cards: { confidenceThreshold: 0.85 } });
    await remember(clientKey, "s", "I live in Austin"); // location rule: 0.8
    await remember(clientKey, "s", "My name is Ada"); // name rule: 0.9
    expect((await cardsOf(clientKey, "s")).map((c) => c.slot)).toEqual(["name"]);
  });

  it("stops the card path when cards are disabled or question-type detection is off", async () => {
    const { adminKey, clientKey } = await newTenant();
    await remember(clientKey, "s", "我是安卓玩机用户");
    const search = async () => (await call("/v1/memories/search", { key: clientKey, body: { scope: "s", query: "我是什么用户" } })).json?.results as any[];
    expect((await search())[0].matchedBy).toContain("card");
    await settings(adminKey, { cards: { enabled: false } });
    expect((await search()).flatMap((r) => r.matchedBy)).not.toContain("card");
    await settings(adminKey, { cards: { enabled: true }, query: { questionTypeDetection: false } });
    expect((await search()).flatMap((r) => r.matchedBy)).not.toContain("card");
  });

  it("searches the query's own words, all of them, when expansion is off", async () => {
    const { adminKey, clientKey } = await newTenant();
    await remember(clientKey, "s", "My phone battery drains fast");
    const lexical = async (query: string) =>
      ((await call("/v1/memories/search", { key: clientKey, body: { scope: "s", query } })).json?.results as any[]).filter((r) => r.matchedBy.includes("bm25"));
    expect(await lexical("手机电池")).toHaveLength(1);
    expect(await lexical("phone charger")).toHaveLength(1);
    await settings(adminKey, { query: { expansion: false } });
    expect(await lexical("手机电池")).toHaveLength(0);
    expect(await lexical("phone charger")).toHaveLength(0);
    expect(await lexical("phone battery")).toHaveLength(1);
  });
});
