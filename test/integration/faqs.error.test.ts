import { describe, expect, it } from "vitest";
import { newTenant, send } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";

// Bodies, paths and queries off the schema go through send(): the typed client would not build them.
const faqBody = { question: "How do I reset my password?", answer: "Settings → Security." };

describe("POST /v1/faqs · PATCH /v1/faqs/:id with bad input", () => {
  it.each([
    ["an empty question", { ...faqBody, question: "  " }, "question"],
    ["an empty answer", { ...faqBody, answer: "" }, "answer"],
    ["a 25 kB answer (limit 20,000 characters)", { ...faqBody, answer: "a".repeat(25_000) }, "answer"],
    ["a question over 1,000 characters", { ...faqBody, question: "q".repeat(1001) }, "question"],
    ["a control character in the question", { ...faqBody, question: "bell\u0007ring" }, "question"],
    ["a tag with odd characters", { ...faqBody, tags: ["ok", "drop table;"] }, "tags.1"],
    ["a tag starting with punctuation", { ...faqBody, tags: ["-x"] }, "tags.0"],
    ["33 tags", { ...faqBody, tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }, "tags"],
    ["nested metadata", { ...faqBody, metadata: { a: { b: 1 } } }, "metadata.a"],
    ["an unknown field", { ...faqBody, category: "x" }, "(root)"],
  ])("refuses %s with 400 VALIDATION_FAILED", async (_, body, path) => {
    const { clientKey } = await newTenant();
    const res = await expectError(send("/v1/faqs", { key: clientKey, body }), 400, "VALIDATION_FAILED");
    expect(res.error.details!.map((d) => d.path)).toContain(path);
  });

  it("refuses a body over 256 KiB with 413", async () => {
    const api = apiClient((await newTenant()).clientKey);
    await expectError(api.v1.faqs.$post({ json: { ...faqBody, answer: "a".repeat(300 * 1024) } }), 413, "PAYLOAD_TOO_LARGE");
  });

  it("refuses an empty PATCH, a PATCH of an unknown FAQ (404), keeps answers with newlines and folds a question's", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const faq = await expectJson(
      api.v1.faqs.$post({ json: { ...faqBody, question: "Subject line\nand the body", answer: "Line one.\n\tLine two." } }),
      201,
    );
    expect(faq.answer).toBe("Line one.\n\tLine two.");
    expect(faq.question).toBe("Subject line and the body"); // a question is one line: breaks fold into spaces
    await expectError(api.v1.faqs[":id"].$patch({ param: { id: faq.id }, json: { changeReason: "nothing" } }), 400);
    await expectError(api.v1.faqs[":id"].$patch({ param: { id: "faq_missing" }, json: { answer: "x" } }), 404);
  });
});

describe("versions and rollback errors", () => {
  it("answers 404 for a rollback to a missing version, to the current one, and of an unknown FAQ", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const faq = await expectJson(api.v1.faqs.$post({ json: faqBody }), 201);
    await expectJson(api.v1.faqs[":id"].$patch({ param: { id: faq.id }, json: { answer: "New." } }), 200);
    const rollback = (id: string, version: string) => api.v1.faqs[":id"].rollback[":version"].$post({ param: { id, version } });
    for (const version of [7, 2]) {
      const res = await expectError(rollback(faq.id, String(version)), 404);
      expect(res.error.message).toContain(`version ${version}`);
    }
    await expectError(rollback("faq_missing", "1"), 404);
    await expectError(api.v1.faqs[":id"].versions.$get({ param: { id: "faq_missing" }, query: {} }), 404);
    await expectError(rollback(faq.id, "0"), 400);
    await expectError(rollback(faq.id, "one"), 400);
    await expectError(send(`/v1/faqs/${faq.id}/rollback/1`, { key: clientKey, body: { bogus: 1 } }), 400);
    expect((await expectJson(api.v1.faqs[":id"].versions.$get({ param: { id: faq.id }, query: {} }), 200)).versions).toHaveLength(1);
  });
});

describe("relationship errors", () => {
  it("refuses self-links (400), unknown targets (404) and deleted targets (409)", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const a = await expectJson(api.v1.faqs.$post({ json: faqBody }), 201);
    const b = await expectJson(api.v1.faqs.$post({ json: { question: "Opening hours of the Berlin office?", answer: "9 to 5." } }), 201);
    const link = (id: string, targetFaqId: string) => api.v1.faqs[":id"].related.$post({ param: { id }, json: { targetFaqId } });
    await expectError(link(a.id, a.id), 400);
    await expectError(link(a.id, "faq_missing"), 404);
    await expectError(send(`/v1/faqs/${a.id}/related`, { key: clientKey, body: { targetFaqId: b.id, relationshipType: "cousin" } }), 400);
    expect((await api.v1.faqs[":id"].$delete({ param: { id: b.id } })).status).toBe(204);
    await expectError(link(a.id, b.id), 409, "CONFLICT");
    // From a deleted FAQ: 404.
    await expectError(link(b.id, a.id), 404);
  });
});

describe("variant errors", () => {
  it("refuses empty or unknown-source variants (400) and variants of deleted FAQs (404)", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const faq = await expectJson(api.v1.faqs.$post({ json: faqBody }), 201);
    const variants = api.v1.faqs[":id"].variants;
    const param = { id: faq.id };
    await expectError(variants.$post({ param, json: { variantText: " " } }), 400);
    await expectError(send(`/v1/faqs/${faq.id}/variants`, { key: clientKey, body: { variantText: "x", source: "robot" } }), 400);
    const variant = await expectJson(variants.$post({ param, json: { variantText: "forgot login" } }), 201);
    expect((await api.v1.faqs[":id"].$delete({ param })).status).toBe(204);
    await expectError(variants.$post({ param, json: { variantText: "locked out" } }), 404);
    await expectError(variants.$get({ param, query: {} }), 404);
    await expectError(api.v1.faqs.variants[":variantId"].$delete({ param: { variantId: variant.id } }), 404);
  });
});

describe("list errors", () => {
  it("refuses a forged cursor, an odd tag and an unknown parameter", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    await expectError(api.v1.faqs.$get({ query: { cursor: "abc" } }), 400);
    await expectError(api.v1.faqs.$get({ query: { tag: "a b" } }), 400);
    await expectError(api.v1.faqs.$get({ query: { limit: "0" } }), 400);
    await expectError(send("/v1/faqs?sort=asc", { key: clientKey }), 400);
  });
});

describe("stats and suggestions errors", () => {
  it("refuses out-of-range limits and unknown parameters, and answers 404 for unknown FAQ stats and suggestions", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    for (const path of [
      "/v1/faqs/stats?limit=0",
      "/v1/faqs/stats?limit=201",
      "/v1/faqs/suggestions?limit=x",
      "/v1/faqs/suggestions?status=open",
    ]) {
      expect((await send(path, { key: clientKey })).status, path).toBe(400);
    }
    await expectError(api.v1.faqs[":id"].stats.$get({ param: { id: "faq_missing" } }), 404);
    const resolve = api.v1.faqs.suggestions[":id"][":action{accept|dismiss}"];
    await expectError(resolve.$post({ param: { id: "sug_missing", action: "accept" } }), 404);
    await expectError(send("/v1/faqs/suggestions/sug_missing/dismiss", { key: clientKey, body: { bogus: true } }), 400);
    await expectError(send("/v1/faqs/suggestions/sug_missing/dismiss", { key: clientKey, raw: "{nope" }), 400);
  });
});
