import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";

async function remember(key: string, scope: string, content: string) {
  const res = await call("/v1/memories", { key, body: { scope, content, memoryType: "fact" } });
  expect(res.status).toBe(201);
  return res.json as Record<string, any>;
}
/** The memories found by keyword (the FTS5 path): the vector path finds near neighbours of anything. */
const search = async (key: string, scope: string, query: string) =>
  ((await call("/v1/memories/search", { key, body: { scope, query } })).json?.results ?? [])
    .filter((r: any) => r.matchedBy.includes("bm25"))
    .map((r: any) => r.content);

describe("mixed scripts and variants in memory search (seed 003)", () => {
  it("finds 我用iPhone手机 by 'iphone' and by 手机", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:iphone";
    await remember(clientKey, scope, "我用iPhone手机");
    await remember(clientKey, scope, "Siphon the water out of the tank");
    expect(await search(clientKey, scope, "iphone")).toEqual(["我用iPhone手机"]);
    expect(await search(clientKey, scope, "我的手机")).toContain("我用iPhone手机");
  });

  it("finds an English statement with a Chinese question and the reverse (用户/user, 手机/phone)", async () => {
    const { clientKey } = await newTenant();
    const scope = "user:variants";
    await remember(clientKey, scope, "My phone battery drains fast");
    await remember(clientKey, scope, "我是付费用户");
    expect(await search(clientKey, scope, "手机电池")).toContain("My phone battery drains fast");
    expect(await search(clientKey, scope, "which users pay")).toContain("我是付费用户");
  });
});

describe("POST /v1/admin/fts/rebuild", () => {
  it("re-tokenizes rows written with the old segmentation, once, for the admin's tenant only", async () => {
    const { clientKey, adminKey, tenantId } = await newTenant();
    const other = await newTenant();
    const scope = "user:legacy";
    const memory = await remember(clientKey, scope, "我用iPhone手机");
    const othersMemory = await remember(other.clientKey, scope, "我用iPhone手机");
    // What the index held before Latin runs were split from CJK ones: letter bigrams.
    const legacy = "我用 ip ph ho on ne e手 手机";
    for (const id of [memory.id, othersMemory.id]) {
      await env.DB.prepare("UPDATE memories_fts SET body = ? WHERE rowid = (SELECT seq FROM memories WHERE id = ?)").bind(legacy, id).run();
    }
    expect(await search(clientKey, scope, "iphone")).toEqual([]);

    const first = await call("/v1/admin/fts/rebuild", { key: adminKey, body: { collection: "memories" } });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ collection: "memories", processed: 1, rewritten: 1, nextCursor: null });
    expect(await search(clientKey, scope, "iphone")).toEqual(["我用iPhone手机"]);
    expect(await search(other.clientKey, scope, "iphone")).toEqual([]);
    const again = await call("/v1/admin/fts/rebuild", { key: adminKey, body: { collection: "memories" } });
    expect(again.json).toMatchObject({ processed: 1, rewritten: 0 });

    for (const collection of ["faqs", "faq_variants"]) {
      expect((await call("/v1/admin/fts/rebuild", { key: adminKey, body: { collection } })).json).toMatchObject({ collection, rewritten: 0 });
    }
    expect((await call("/v1/admin/fts/rebuild", { key: adminKey, body: { collection: "shows" } })).status).toBe(400);
    expect((await call("/v1/admin/fts/rebuild", { key: clientKey, body: { collection: "memories" } })).status).toBe(403);
    expect(tenantId).toBeTruthy();
  });
});
