import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";

describe("another tenant's FAQ ids", () => {
  it("are a 404 on every route, and never surface in lists, search, stats or suggestions", async () => {
    const owner = apiClient((await newTenant()).clientKey);
    const intruder = apiClient((await newTenant()).clientKey);
    const faq = await expectJson(owner.v1.faqs.$post({ json: { question: "What is the secret launch date?", answer: "March 3rd." } }), 201);
    const variant = await expectJson(
      owner.v1.faqs[":id"].variants.$post({ param: { id: faq.id }, json: { variantText: "when do we launch" } }),
      201,
    );
    const other = await expectJson(owner.v1.faqs.$post({ json: { question: "Who runs the launch?", answer: "Dana." } }), 201);
    const link = await expectJson(
      owner.v1.faqs[":id"].related.$post({ param: { id: faq.id }, json: { targetFaqId: other.id, relationshipType: "see_also" } }),
      201,
    );
    await expectJson(owner.v1.faqs[":id"].$patch({ param: { id: faq.id }, json: { answer: "March 4th." } }), 200);
    const mine = await expectJson(intruder.v1.faqs.$post({ json: { question: "Intruder's own FAQ?", answer: "Yes." } }), 201);

    const faqs = intruder.v1.faqs;
    const param = { id: faq.id };
    const attempts: [string, () => Promise<{ status: number }>][] = [
      ["GET /v1/faqs/:id", () => faqs[":id"].$get({ param })],
      ["PATCH /v1/faqs/:id", () => faqs[":id"].$patch({ param, json: { answer: "hacked" } })],
      ["DELETE /v1/faqs/:id", () => faqs[":id"].$delete({ param })],
      ["GET /v1/faqs/:id/variants", () => faqs[":id"].variants.$get({ param, query: {} })],
      ["POST /v1/faqs/:id/variants", () => faqs[":id"].variants.$post({ param, json: { variantText: "injected" } })],
      ["DELETE /v1/faqs/variants/:variantId", () => faqs.variants[":variantId"].$delete({ param: { variantId: variant.id } })],
      ["GET /v1/faqs/:id/related", () => faqs[":id"].related.$get({ param, query: {} })],
      ["POST /v1/faqs/:id/related (theirs → mine)", () => faqs[":id"].related.$post({ param, json: { targetFaqId: mine.id } })],
      [
        "POST /v1/faqs/:id/related (mine → theirs)",
        () => faqs[":id"].related.$post({ param: { id: mine.id }, json: { targetFaqId: faq.id } }),
      ],
      ["DELETE /v1/faqs/relationships/:id", () => faqs.relationships[":id"].$delete({ param: { id: link.relationshipId } })],
      ["GET /v1/faqs/:id/versions", () => faqs[":id"].versions.$get({ param, query: {} })],
      ["POST /v1/faqs/:id/rollback/1", () => faqs[":id"].rollback[":version"].$post({ param: { id: faq.id, version: "1" } })],
      ["GET /v1/faqs/:id/stats", () => faqs[":id"].stats.$get({ param })],
    ];
    for (const [name, attempt] of attempts) {
      expect((await attempt()).status, name).toBe(404);
    }

    expect((await expectJson(faqs.$get({ query: {} }), 200)).faqs.map((f) => f.id)).toEqual([mine.id]);
    const found = await expectJson(faqs.search.$post({ json: { query: "secret launch date when do we launch" } }), 200);
    expect(found.results.map((r) => r.id).filter((id) => id !== mine.id)).toEqual([]);
    const own = await expectJson(faqs.search.$post({ json: { query: "intruder's own FAQ" } }), 200);
    expect(own.results.map((r) => r.id)).toEqual([mine.id]);
    expect((await expectJson(faqs.stats.$get({ query: {} }), 200)).faqs.map((f) => f.id)).toEqual([mine.id]);

    // Nothing changed for the owner.
    const intact = await expectJson(owner.v1.faqs[":id"].$get({ param }), 200);
    expect(intact).toMatchObject({
      answer: "March 4th.",
      variants: [{ id: variant.id }],
      related: [{ id: other.id, relationshipType: "see_also" }],
    });
  });

  it("needs an API key", async () => {
    const anonymous = apiClient(null);
    await expectError(anonymous.v1.faqs.$get({ query: {} }), 401);
    await expectError(anonymous.v1.faqs.search.$post({ json: { query: "x" } }), 401);
  });
});
