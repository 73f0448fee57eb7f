import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { tenantSettingsPatchSchema } from "../../src/features/settings/tenant";
import { newTenant, send } from "../support/api";
import { apiClient, expectError, expectJson, type TestClient } from "../support/client";

const DEFAULTS = {
  cards: { enabled: true, confidenceThreshold: 0.7, extractOnStore: true },
  query: { questionTypeDetection: true, expansion: true },
};

type Client = TestClient;
const remember = (api: Client, scope: string, content: string) =>
  expectJson(api.v1.memories.$post({ json: { scope, content, memoryType: "fact" } }), 201);
const cardsOf = async (api: Client, scope: string) => (await expectJson(api.v1.cards.$get({ query: { scope } }), 200)).cards;
const readSettings = (api: Client) => expectJson(api.v1.admin.settings.$get(), 200);
const patchSettings = (api: Client, json: z.input<typeof tenantSettingsPatchSchema>) =>
  expectJson(api.v1.admin.settings.$patch({ json }), 200);

describe("GET/PATCH /v1/admin/settings (seed 003's switches, per tenant)", () => {
  it("answers the defaults, then merges a partial change, for the admin's tenant only", async () => {
    const alice = apiClient((await newTenant()).adminKey);
    const bob = apiClient((await newTenant()).adminKey);
    expect(await readSettings(alice)).toMatchObject({ settings: DEFAULTS, updatedAt: null });
    const changed = await patchSettings(alice, { cards: { confidenceThreshold: 0.8 }, query: { expansion: false } });
    expect(changed.settings).toEqual({
      cards: { ...DEFAULTS.cards, confidenceThreshold: 0.8 },
      query: { ...DEFAULTS.query, expansion: false },
    });
    expect((await readSettings(alice)).settings).toEqual(changed.settings);
    expect((await readSettings(bob)).settings).toEqual(DEFAULTS);
  });

  it("refuses bad values, unknown switches and client keys", async () => {
    const { adminKey, clientKey } = await newTenant();
    // Off the schema: sent raw.
    for (const body of [
      { cards: { confidenceThreshold: 1.5 } },
      { cards: { enabled: "yes" } },
      { query: { synonyms: true } },
      { theme: "dark" },
      [],
    ]) {
      await expectError(send("/v1/admin/settings", { method: "PATCH", key: adminKey, body }), 400, "VALIDATION_FAILED");
    }
    const client = apiClient(clientKey);
    await expectError(client.v1.admin.settings.$get(), 403);
    await expectError(client.v1.admin.settings.$patch({ json: { cards: { enabled: false } } }), 403);
  });
});

async function clients() {
  const { adminKey, clientKey } = await newTenant();
  return { admin: apiClient(adminKey), client: apiClient(clientKey) };
}

describe("the settings drive the code paths", () => {
  it("extracts no card on store when extractOnStore is off", async () => {
    const { admin, client } = await clients();
    await patchSettings(admin, { cards: { extractOnStore: false } });
    await remember(client, "s", "I live in Austin");
    expect(await cardsOf(client, "s")).toEqual([]);
  });

  it("keeps cards under the confidence threshold out", async () => {
    const { admin, client } = await clients();
    await patchSettings(admin, { cards: { confidenceThreshold: 0.85 } });
    await remember(client, "s", "I live in Austin"); // location rule: 0.8
    await remember(client, "s", "My name is Ada"); // name rule: 0.9
    expect((await cardsOf(client, "s")).map((c) => c.slot)).toEqual(["name"]);
  });

  it("stops the card path when cards are disabled or question-type detection is off", async () => {
    const { admin, client } = await clients();
    await remember(client, "s", "我是安卓玩机用户");
    const search = async () =>
      (await expectJson(client.v1.memories.search.$post({ json: { scope: "s", query: "我是什么用户" } }), 200)).results;
    expect((await search())[0]!.matchedBy).toContain("card");
    await patchSettings(admin, { cards: { enabled: false } });
    expect((await search()).flatMap((r) => r.matchedBy)).not.toContain("card");
    await patchSettings(admin, { cards: { enabled: true }, query: { questionTypeDetection: false } });
    expect((await search()).flatMap((r) => r.matchedBy)).not.toContain("card");
  });

  it("searches the query's own words, all of them, when expansion is off", async () => {
    const { admin, client } = await clients();
    await remember(client, "s", "My phone battery drains fast");
    const lexical = async (query: string) =>
      (await expectJson(client.v1.memories.search.$post({ json: { scope: "s", query } }), 200)).results.filter((r) =>
        r.matchedBy.includes("bm25"),
      );
    expect(await lexical("手机电池")).toHaveLength(1);
    expect(await lexical("phone charger")).toHaveLength(1);
    await patchSettings(admin, { query: { expansion: false } });
    expect(await lexical("手机电池")).toHaveLength(0);
    expect(await lexical("phone charger")).toHaveLength(0);
    expect(await lexical("phone battery")).toHaveLength(1);
  });
});
