import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  CACHED_ROW_BYTES,
  cachedRowBytes,
  candidateRows,
  forgetCachedRows,
  OUTLINED_TENANT,
  prefetchRows,
  type RowVersion,
  rowVersionQuery,
  WHOLE_TENANT,
} from "../../src/features/faqs/row-cache";
import { newTenant } from "../support/api";
import { apiClient, expectJson, type TestClient } from "../support/client";

const FAQ = {
  question: "How do I rotate the signing certificate?",
  answer: "Open Security, choose Certificates, then Rotate.",
  tags: ["security"],
};

const versionOf = async (tenantId: string) => (await rowVersionQuery(env.DB, tenantId).first<RowVersion>()) ?? null;

type Limits = NonNullable<Parameters<typeof candidateRows>[5]>["limits"];

/** The answer of one FAQ as a search at `version` would return it (a candidate, then a hit). */
async function answerAt(tenantId: string, version: RowVersion, id: string, limits?: Limits) {
  const found = await candidateRows(env.DB, tenantId, version, [], [id], limits ? { limits } : {});
  return (await found.hits([...found.rows.keys()])).get(id)?.answer;
}

async function createFaq(api: TestClient, faq = FAQ) {
  return (await expectJson(api.v1.faqs.$post({ json: faq }), 201)).id;
}

describe("FAQ row version (migration 0012 triggers, real local D1)", () => {
  it("moves on every insert, update and delete of the tenant's FAQs and variants, whatever writes them", async () => {
    const { tenantId, clientKey } = await newTenant();
    const other = await newTenant();
    const api = apiClient(clientKey);
    expect(await versionOf(tenantId)).toBeNull();

    const id = await createFaq(api);
    await createFaq(apiClient(other.clientKey));
    const created = (await versionOf(tenantId))!;
    const otherBefore = await versionOf(other.tenantId);

    // A write that bypasses the store code (a migration, a console query) moves it too.
    await env.DB.prepare("UPDATE faqs SET answer = 'edited in the console' WHERE id = ?").bind(id).run();
    const updated = (await versionOf(tenantId))!;
    expect(updated).toEqual({ epoch: created.epoch, counter: created.counter + 1 });

    const variant = await expectJson(api.v1.faqs[":id"].variants.$post({ param: { id }, json: { variantText: "renew the cert" } }), 201);
    const withVariant = (await versionOf(tenantId))!;
    expect(withVariant.counter).toBeGreaterThan(updated.counter);

    await env.DB.prepare("DELETE FROM faq_variants WHERE id = ?").bind(variant.id).run();
    expect((await versionOf(tenantId))!.counter).toBe(withVariant.counter + 1);
    // Another tenant's writes and version are apart.
    expect(await versionOf(other.tenantId)).toEqual(otherBefore);
  });
});

describe("candidateRows (per-isolate cache over real local D1)", () => {
  it("answers from memory while the version is the same, and reads D1 again once it moves", async () => {
    const { tenantId, clientKey } = await newTenant();
    const id = await createFaq(apiClient(clientKey));
    forgetCachedRows();
    const before = (await versionOf(tenantId))!;
    expect(await answerAt(tenantId, before, id)).toBe(FAQ.answer);

    await env.DB.prepare("UPDATE faqs SET answer = 'new answer' WHERE id = ?").bind(id).run();
    // Asked at the version it was cached under: the cached row (this proves the cache serves it).
    expect(await answerAt(tenantId, before, id)).toBe(FAQ.answer);
    // At the version the write produced: the new row.
    const after = (await versionOf(tenantId))!;
    expect(after.counter).toBe(before.counter + 1);
    expect(await answerAt(tenantId, after, id)).toBe("new answer");
  });

  it("keeps absent rows absent, and another tenant's rows out, until the version moves", async () => {
    const mine = await newTenant();
    const theirs = await newTenant();
    const api = apiClient(mine.clientKey);
    const id = await createFaq(api);
    const variant = await expectJson(api.v1.faqs[":id"].variants.$post({ param: { id }, json: { variantText: "renew the cert" } }), 201);
    const foreign = await createFaq(apiClient(theirs.clientKey));
    forgetCachedRows();

    const version = (await versionOf(mine.tenantId))!;
    const found = await candidateRows(env.DB, mine.tenantId, version, [variant.id, "fv_missing"], [foreign, "faq_missing"]);
    // The variant's FAQ comes with it; the other tenant's FAQ and unknown ids do not.
    expect([...found.variantRows.keys()]).toEqual([variant.id]);
    expect([...found.rows.keys()]).toEqual([id]);

    expect((await api.v1.faqs[":id"].$delete({ param: { id } })).status).toBe(204);
    const deleted = await candidateRows(env.DB, mine.tenantId, (await versionOf(mine.tenantId))!, [variant.id], [id]);
    expect(deleted.rows.size).toBe(0);
  });
});

describe("candidateRows, a tenant read whole (WHOLE_TENANT)", () => {
  async function twoFaqs() {
    const { tenantId, clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const first = await createFaq(api);
    const second = await createFaq(api, { ...FAQ, question: "How do I export the audit log?", answer: "Open Audit, then Export." });
    forgetCachedRows();
    return { tenantId, first, second, version: (await versionOf(tenantId))! };
  }
  // A console write leaves the version where the cache was keyed: what a search at that version gets shows where it came from.
  const editBehindTheCache = (id: string) => env.DB.prepare("UPDATE faqs SET answer = 'edited' WHERE id = ?").bind(id).run();

  it("reads a small tenant's rows on its first search at a version, so a later candidate comes from memory", async () => {
    const { tenantId, first, second, version } = await twoFaqs();
    expect(await answerAt(tenantId, version, first)).toBe(FAQ.answer);
    await editBehindTheCache(second);
    // Never asked for before, yet the row as it was at `version`: the whole read brought it.
    expect(await answerAt(tenantId, version, second)).toBe("Open Audit, then Export.");
    expect((await candidateRows(env.DB, tenantId, version, [], ["faq_missing"])).rows.size).toBe(0);
  });

  const pastBoth = { whole: { rows: 1, answerChars: 1_000_000 }, outlined: { rows: 1 }, bytes: CACHED_ROW_BYTES };

  it("takes the first read a search started ahead (prefetchRows) when it is of the version the lists saw", async () => {
    const { tenantId, first, second, version } = await twoFaqs();
    const ahead = prefetchRows(env.DB, tenantId);
    await ahead;
    await editBehindTheCache(second);
    // Read ahead, before the edit: the row as it was at `version`.
    await candidateRows(env.DB, tenantId, version, [], [first], { ahead });
    expect(await answerAt(tenantId, version, second)).toBe("Open Audit, then Export.");
    // A tenant the isolate holds is not read ahead: its version is not known yet.
    expect(prefetchRows(env.DB, tenantId)).toBeNull();
  });

  it.each([
    ["rows", { whole: { rows: 1, answerChars: 1_000_000 }, outlined: { rows: 1 }, bytes: CACHED_ROW_BYTES }],
    ["answer characters", { whole: { rows: 1_000, answerChars: 10 }, outlined: { rows: 1 }, bytes: CACHED_ROW_BYTES }],
  ])("reads only the candidates of a tenant past its limits of %s", async (_, limits) => {
    const { tenantId, first, second, version } = await twoFaqs();
    expect(await answerAt(tenantId, version, first, limits)).toBe(FAQ.answer);
    await editBehindTheCache(second);
    expect(await answerAt(tenantId, version, second, limits)).toBe("edited");
  });

  it("remembers a tenant past its limits: its next version reads candidates only, without trying the first read again", async () => {
    const { tenantId, first, second, version } = await twoFaqs();
    await answerAt(tenantId, version, first, pastBoth);
    await editBehindTheCache(first); // a new version
    const next = (await versionOf(tenantId))!;
    expect(next).not.toEqual(version);
    // Within the default limits now, yet no first read: a row asked for after a write behind the cache comes back edited.
    await answerAt(tenantId, next, first);
    await editBehindTheCache(second);
    expect(await answerAt(tenantId, next, second)).toBe("edited");
  });
});

describe("candidateRows, bounded in bytes", () => {
  it("keeps at most its byte budget over all tenants, the least recently used tenant out first", async () => {
    const a = await twoFaqTenant();
    const b = await twoFaqTenant();
    forgetCachedRows();
    await answerAt(a.tenantId, a.version, a.first);
    const one = cachedRowBytes();
    expect(one).toBeGreaterThan(0);
    forgetCachedRows();
    // Room for one such tenant, not two: reading the second puts the first out.
    const limits = { whole: WHOLE_TENANT, outlined: OUTLINED_TENANT, bytes: Math.round(one * 1.5) };
    expect(await answerAt(a.tenantId, a.version, a.first, limits)).toBe(FAQ.answer);
    expect(await answerAt(b.tenantId, b.version, b.first, limits)).toBe(FAQ.answer);
    expect(cachedRowBytes()).toBeLessThanOrEqual(limits.bytes);
    // Tenant a was put out: a row asked for after a write behind the cache is read again, edited.
    await env.DB.prepare("UPDATE faqs SET answer = 'edited' WHERE id = ?").bind(a.second).run();
    expect(await answerAt(a.tenantId, a.version, a.second, limits)).toBe("edited");
  });

  it("does not keep an outline that would take more than its share of the budget", async () => {
    const { tenantId, first, second, version } = await twoFaqTenant();
    forgetCachedRows();
    const limits = { whole: { rows: 1, answerChars: WHOLE_TENANT.answerChars }, outlined: OUTLINED_TENANT, bytes: 200 };
    await candidateRows(env.DB, tenantId, version, [], [first], { limits });
    await env.DB.prepare("UPDATE faqs SET tags = '[\"moved\"]' WHERE id = ?").bind(second).run();
    // No outline: a candidate never asked for is read from D1, as it is now.
    expect((await candidateRows(env.DB, tenantId, version, [], [second], { limits })).rows.get(second)?.tags).toBe('["moved"]');
  });
});

/** A tenant with two FAQs, and its row version. */
async function twoFaqTenant() {
  const { tenantId, clientKey } = await newTenant();
  const api = apiClient(clientKey);
  const first = await createFaq(api);
  const second = await createFaq(api, { ...FAQ, question: "How do I export the audit log?", answer: "Open Audit, then Export." });
  return { tenantId, first, second, version: (await versionOf(tenantId))! };
}

describe("candidateRows, a tenant outlined (OUTLINED_TENANT)", () => {
  const outlined = { whole: { rows: 1, answerChars: WHOLE_TENANT.answerChars }, outlined: OUTLINED_TENANT, bytes: CACHED_ROW_BYTES };

  it("reads the outline after the first search's answer when it can (defer), and ranks from it from then on", async () => {
    const { tenantId, clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const first = await createFaq(api);
    const second = await createFaq(api, { ...FAQ, question: "How do I export the audit log?", tags: ["audit"] });
    forgetCachedRows();
    const version = (await versionOf(tenantId))!;
    const deferred: (() => Promise<unknown>)[] = [];
    const defer = (start: () => Promise<unknown>) => void deferred.push(start);

    // The first search reads its own candidate and leaves the outline for after its answer.
    expect((await candidateRows(env.DB, tenantId, version, [], [first], { limits: outlined, defer })).rows.get(first)?.tags).toBe(
      '["security"]',
    );
    expect(deferred).toHaveLength(1);
    await Promise.all(deferred.map((start) => start()));
    // Behind the cache: a candidate never asked for comes from the outline, as it was at `version`.
    await env.DB.prepare("UPDATE faqs SET tags = '[\"moved\"]' WHERE tenant_id = ?").bind(tenantId).run();
    const later = await candidateRows(env.DB, tenantId, version, [], [second], { limits: outlined, defer });
    expect(later.rows.get(second)?.tags).toBe('["audit"]');
    expect(deferred).toHaveLength(1);
  });

  it("ranks from the outline read at a version and reads only the hits' answers, each once", async () => {
    const { tenantId, clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const first = await createFaq(api);
    const second = await createFaq(api, { ...FAQ, question: "How do I export the audit log?", tags: ["audit"] });
    const variant = await expectJson(
      api.v1.faqs[":id"].variants.$post({ param: { id: second }, json: { variantText: "download the audit trail" } }),
      201,
    );
    const gone = await createFaq(api, { ...FAQ, question: "How do I close my account?" });
    expect((await api.v1.faqs[":id"].$delete({ param: { id: gone } })).status).toBe(204);
    forgetCachedRows();
    const version = (await versionOf(tenantId))!;

    const before = await candidateRows(env.DB, tenantId, version, [], [first], { limits: outlined });
    expect(before.rows.get(first)?.tags).toBe('["security"]');
    // Behind the cache (the version stays): the outline read at `version` still answers for ranking...
    await env.DB.prepare("UPDATE faqs SET tags = '[\"moved\"]', answer = 'edited' WHERE tenant_id = ?").bind(tenantId).run();
    const later = await candidateRows(env.DB, tenantId, version, [variant.id, "fv_missing"], [gone, "faq_missing"], { limits: outlined });
    expect(later.variantRows.get(variant.id)).toEqual({ id: variant.id, faq_id: second, variant_text: "download the audit trail" });
    expect([...later.rows.entries()]).toEqual([[second, { id: second, tags: '["audit"]' }]]);
    // ...while a hit's answer is read when it is a hit, then kept: asked again after another edit, it is the one read.
    expect((await later.hits([second])).get(second)?.answer).toBe("edited");
    await env.DB.prepare("UPDATE faqs SET answer = 'edited twice' WHERE id = ?").bind(second).run();
    const again = await candidateRows(env.DB, tenantId, version, [], [second], { limits: outlined });
    expect((await again.hits([second])).get(second)?.answer).toBe("edited");
  });
});

describe("POST /v1/faqs/search", () => {
  it("returns an edited answer and drops a deleted FAQ on the very next search", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const id = await createFaq(api);
    const search = async () =>
      (await expectJson(api.v1.faqs.search.$post({ json: { query: "rotate the signing certificate" } }), 200)).results;

    expect((await search())[0]).toMatchObject({ id, answer: FAQ.answer });
    await expectJson(api.v1.faqs[":id"].$patch({ param: { id }, json: { answer: "Choose Certificates, then Rotate now." } }), 200);
    expect((await search())[0]).toMatchObject({ id, answer: "Choose Certificates, then Rotate now." });
    await env.DB.prepare("UPDATE faqs SET tags = '[\"moved\"]' WHERE id = ?").bind(id).run();
    expect((await search())[0]).toMatchObject({ id, tags: ["moved"] });

    expect((await api.v1.faqs[":id"].$delete({ param: { id } })).status).toBe(204);
    expect((await search()).map((r) => r.id)).not.toContain(id);
  });
});
