import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";

describe("another tenant's FAQ ids", () => {
  it("are a 404 on every route, and never surface in lists, search, stats or suggestions", async () => {
    const owner = await newTenant();
    const intruder = await newTenant();
    const faq = (await call("/v1/faqs", { key: owner.clientKey, body: { question: "What is the secret launch date?", answer: "March 3rd." } })).json!;
    const variant = (await call(`/v1/faqs/${faq.id}/variants`, { key: owner.clientKey, body: { variantText: "when do we launch" } })).json!;
    const other = (await call("/v1/faqs", { key: owner.clientKey, body: { question: "Who runs the launch?", answer: "Dana." } })).json!;
    const link = (await call(`/v1/faqs/${faq.id}/related`, { key: owner.clientKey, body: { targetFaqId: other.id, relationshipType: "see_also" } })).json!;
    await call(`/v1/faqs/${faq.id}`, { key: owner.clientKey, method: "PATCH", body: { answer: "March 4th." } });
    const mine = (await call("/v1/faqs", { key: intruder.clientKey, body: { question: "Intruder's own FAQ?", answer: "Yes." } })).json!;

    const key = intruder.clientKey;
    const attempts: [string, Parameters<typeof call>[1]][] = [
      [`/v1/faqs/${faq.id}`, { key }],
      [`/v1/faqs/${faq.id}`, { key, method: "PATCH", body: { answer: "hacked" } }],
      [`/v1/faqs/${faq.id}`, { key, method: "DELETE" }],
      [`/v1/faqs/${faq.id}/variants`, { key }],
      [`/v1/faqs/${faq.id}/variants`, { key, body: { variantText: "injected" } }],
      [`/v1/faqs/variants/${variant.id}`, { key, method: "DELETE" }],
      [`/v1/faqs/${faq.id}/related`, { key }],
      [`/v1/faqs/${faq.id}/related`, { key, body: { targetFaqId: mine.id } }],
      [`/v1/faqs/${mine.id}/related`, { key, body: { targetFaqId: faq.id } }],
      [`/v1/faqs/relationships/${link.relationshipId}`, { key, method: "DELETE" }],
      [`/v1/faqs/${faq.id}/versions`, { key }],
      [`/v1/faqs/${faq.id}/rollback/1`, { key, body: {} }],
      [`/v1/faqs/${faq.id}/stats`, { key }],
    ];
    for (const [path, options] of attempts) {
      const res = await call(path, options);
      expect(res.status, `${options?.method ?? (options?.body ? "POST" : "GET")} ${path}`).toBe(404);
    }

    expect((await call("/v1/faqs", { key })).json!.faqs.map((f: { id: string }) => f.id)).toEqual([mine.id]);
    const found = await call("/v1/faqs/search", { key, body: { query: "secret launch date when do we launch" } });
    expect(found.status).toBe(200);
    expect(found.json!.results.map((r: { id: string }) => r.id).filter((id: string) => id !== mine.id)).toEqual([]);
    const own = await call("/v1/faqs/search", { key, body: { query: "intruder's own FAQ" } });
    expect(own.json!.results.map((r: { id: string }) => r.id)).toEqual([mine.id]);
    expect((await call("/v1/faqs/stats", { key })).json!.faqs.map((f: { id: string }) => f.id)).toEqual([mine.id]);

    // Nothing changed for the owner.
    const intact = (await call(`/v1/faqs/${faq.id}`, { key: owner.clientKey })).json!;
    expect(intact).toMatchObject({ answer: "March 4th.", variants: [{ id: variant.id }], related: [{ id: other.id, relationshipType: "see_also" }] });
  });

  it("needs an API key", async () => {
    expect((await call("/v1/faqs", { key: null })).status).toBe(401);
    expect((await call("/v1/faqs/search", { key: null, body: { query: "x" } })).status).toBe(401);
  });
});
