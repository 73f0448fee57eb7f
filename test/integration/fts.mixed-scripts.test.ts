import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newTenant, send } from "../support/api";
import { apiClient, expectError, expectJson, type TestClient } from "../support/client";

const remember = (api: TestClient, scope: string, content: string) =>
  expectJson(api.v1.memories.$post({ json: { scope, content, memoryType: "fact" } }), 201);
/** The memories found by keyword (the FTS5 path): the vector path finds near neighbours of anything. */
const search = async (api: TestClient, scope: string, query: string) =>
  (await expectJson(api.v1.memories.search.$post({ json: { scope, query } }), 200)).results
    .filter((r) => r.matchedBy.includes("bm25"))
    .map((r) => r.content);

describe("mixed scripts and variants in memory search (seed 003)", () => {
  it("finds 我用iPhone手机 by 'iphone' and by 手机", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:iphone";
    await remember(api, scope, "我用iPhone手机");
    await remember(api, scope, "Siphon the water out of the tank");
    expect(await search(api, scope, "iphone")).toEqual(["我用iPhone手机"]);
    expect(await search(api, scope, "我的手机")).toContain("我用iPhone手机");
  });

  it("ranks the exact keyword hit first, above memories that share no word with the query", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:iphone-rank";
    for (const content of [
      "My laptop is a ThinkPad",
      "I prefer dark mode in every app",
      "My phone plan has unlimited data",
      "我用iPhone手机",
    ])
      await remember(api, scope, content);
    const res = await expectJson(api.v1.memories.search.$post({ json: { scope, query: "iphone" } }), 200);
    expect(res.results[0]).toMatchObject({ content: "我用iPhone手机", matchedBy: ["bm25"] });
  });

  it("finds an English statement with a Chinese question and the reverse (用户/user, 手机/phone)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:variants";
    await remember(api, scope, "My phone battery drains fast");
    await remember(api, scope, "我是付费用户");
    expect(await search(api, scope, "手机电池")).toContain("My phone battery drains fast");
    expect(await search(api, scope, "which users pay")).toContain("我是付费用户");
  });
});

// What the index held before Latin runs were split from CJK ones: letter bigrams.
const LEGACY = "我用 ip ph ho on ne e手 手机";

describe("POST /v1/admin/fts/rebuild", () => {
  it("re-tokenizes rows written with the old segmentation, once, for the admin's tenant only", async () => {
    const { clientKey, adminKey } = await newTenant();
    const api = apiClient(clientKey);
    const admin = apiClient(adminKey);
    const other = apiClient((await newTenant()).clientKey);
    const scope = "user:legacy";
    const memory = await remember(api, scope, "我用iPhone手机");
    const othersMemory = await remember(other, scope, "我用iPhone手机");
    for (const id of [memory.id, othersMemory.id]) {
      await env.DB.prepare("UPDATE memories_fts SET body = ? WHERE rowid = (SELECT seq FROM memories WHERE id = ?)").bind(LEGACY, id).run();
    }
    expect(await search(api, scope, "iphone")).toEqual([]);

    const rebuild = admin.v1.admin.fts.rebuild;
    const first = await expectJson(rebuild.$post({ json: { collection: "memories" } }), 200);
    expect(first).toMatchObject({ collection: "memories", processed: 1, rewritten: 1, nextCursor: null });
    expect(await search(api, scope, "iphone")).toEqual(["我用iPhone手机"]);
    expect(await search(other, scope, "iphone")).toEqual([]);
    const again = await expectJson(rebuild.$post({ json: { collection: "memories" } }), 200);
    expect(again).toMatchObject({ processed: 1, rewritten: 0 });

    for (const collection of ["faqs", "faq_variants"] as const) {
      expect(await expectJson(rebuild.$post({ json: { collection } }), 200)).toMatchObject({ collection, rewritten: 0 });
    }
    // Not a collection: sent raw.
    await expectError(send("/v1/admin/fts/rebuild", { key: adminKey, body: { collection: "shows" } }), 400);
    await expectError(api.v1.admin.fts.rebuild.$post({ json: { collection: "memories" } }), 403);
  });

  it("rebuilds a page of more rows than D1 binds parameters (100) in one call (found by npm run fuzz: a 500)", async () => {
    const { tenantId, adminKey } = await newTenant();
    const now = Date.now();
    // 150 legacy rows written straight to D1: the API would embed each one, and only the FTS rows matter here.
    await env.DB.batch(
      Array.from({ length: 150 }, (_, i) => [
        env.DB.prepare(
          "INSERT INTO memories (id, tenant_id, scope, content, memory_type, created_at, updated_at, index_state) VALUES (?, ?, 'user:bulk', '我用iPhone手机', 'fact', ?, ?, 'indexed')",
        ).bind(`mem_bulk${String(i).padStart(8, "0")}`, tenantId, now, now),
        env.DB.prepare("INSERT INTO memories_fts (rowid, body) SELECT seq, ? FROM memories WHERE id = ?").bind(
          LEGACY,
          `mem_bulk${String(i).padStart(8, "0")}`,
        ),
      ]).flat(),
    );
    const page = await expectJson(
      apiClient(adminKey).v1.admin.fts.rebuild.$post({ json: { collection: "memories", batchSize: 200 } }),
      200,
    );
    expect(page).toMatchObject({ collection: "memories", processed: 150, rewritten: 150, nextCursor: null });
  });
});
