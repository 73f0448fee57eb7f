import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { faqUsage } from "../../src/features/faqs/usage";
import { newTenant, send } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";

const DAY = 86_400_000;

const insertHit = (tenant: string, faq: string, at: number, session = "s") =>
  env.DB.prepare(
    "INSERT INTO faq_hits (tenant_id, faq_id, variant_id, query_text, score, session_id, hit_at) VALUES (?, ?, NULL, 'q', 0.5, ?, ?)",
  )
    .bind(tenant, faq, session, at)
    .run();

describe("faqUsage", () => {
  it("counts live FAQs' hits per day, ranks the trend by this week against the previous, and lists the never-used oldest first", async () => {
    const tenant = await newTenant();
    const api = apiClient(tenant.adminKey);
    const create = async (question: string) =>
      (await expectJson(api.v1.faqs.$post({ json: { question, answer: "See the help centre." } }), 201)).id;
    const rising = await create("How do I export my data?");
    const falling = await create("How do I change my plan?");
    const steady = await create("Where is my invoice?");
    const unusedOld = await create("Do you have a mobile app?");
    const unusedNew = await create("Can I pay by bank transfer?");
    const gone = await create("Is there a student discount?");
    expect((await api.v1.faqs[":id"].$delete({ param: { id: gone } })).status).toBe(204);
    const now = Date.UTC(2026, 10, 23, 12);
    for (let i = 0; i < 4; i++) await insertHit(tenant.tenantId, rising, now - i * 3600_000, `s${i}`);
    for (let i = 0; i < 3; i++) await insertHit(tenant.tenantId, falling, now - 9 * DAY - i * 3600_000);
    await insertHit(tenant.tenantId, steady, now - 2 * DAY);
    await insertHit(tenant.tenantId, steady, now - 8 * DAY);
    await insertHit(tenant.tenantId, gone, now);
    await insertHit(tenant.tenantId, steady, now - 40 * DAY);

    const usage = await faqUsage(env.DB, tenant.tenantId, now, 30, 10);
    expect(usage.daily).toHaveLength(30);
    expect(usage.daily.at(-1)).toEqual({ day: "2026-11-23", hits: 4 });
    // The deleted FAQ's hit and the 40-day-old one are outside: 4 + 3 + 2.
    expect(usage.hits).toBe(9);
    expect(usage.sessions).toBe(5);
    expect(usage).toMatchObject({ liveFaqs: 5, neverUsedFaqs: 2 });
    expect(usage.trending).toEqual([
      { id: rising, question: "How do I export my data?", thisWeek: 4, previousWeek: 0 },
      { id: steady, question: "Where is my invoice?", thisWeek: 1, previousWeek: 1 },
      { id: falling, question: "How do I change my plan?", thisWeek: 0, previousWeek: 3 },
    ]);
    expect(usage.neverUsed.map((f) => f.id)).toEqual([unusedOld, unusedNew]);
  });
});

describe("GET /v1/faqs/usage", () => {
  it("answers the overview for the key's tenant: most used, trending, never used (cut at limit)", async () => {
    const tenant = await newTenant();
    const api = apiClient(tenant.clientKey);
    const ids: string[] = [];
    for (const question of ["How do I reset my password?", "How long does a refund take?", "Can I change my plan mid-month?"])
      ids.push((await expectJson(api.v1.faqs.$post({ json: { question, answer: "See the help centre." } }), 201)).id);
    await insertHit(tenant.tenantId, ids[1]!, Date.now() - 1000, "a");
    await insertHit(tenant.tenantId, ids[1]!, Date.now() - 2000, "b");
    const usage = await expectJson(api.v1.faqs.usage.$get({ query: { limit: "1" } }), 200);
    expect(usage).toMatchObject({ days: 30, window: { hits: 2, sessions: 2 }, faqs: { live: 3, used: 1, neverUsed: 2 } });
    expect(usage.mostUsed).toEqual([expect.objectContaining({ id: ids[1], totalHits: 2, uniqueSessions: 2 })]);
    expect(usage.trending).toEqual([{ id: ids[1], question: "How long does a refund take?", thisWeek: 2, previousWeek: 0, change: 2 }]);
    expect(usage.neverUsed).toEqual([expect.objectContaining({ id: ids[0] })]);
    expect(usage.neverUsedTruncated).toBe(true);
    expect(usage.daily.reduce((sum, d) => sum + d.hits, 0)).toBe(2);

    const other = await expectJson(apiClient((await newTenant()).clientKey).v1.faqs.usage.$get({ query: {} }), 200);
    expect(other).toMatchObject({ window: { hits: 0 }, faqs: { live: 0 }, mostUsed: [], trending: [], neverUsed: [] });
    await expectError(send("/v1/faqs/usage?days=91", { key: tenant.clientKey }), 400, "VALIDATION_FAILED");
  });
});
