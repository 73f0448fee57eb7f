import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";

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
    const res = await call("/v1/faqs", { key: clientKey, body });
    expect(res.status).toBe(400);
    expect(res.json!.error.code).toBe("VALIDATION_FAILED");
    expect(res.json!.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it("refuses a body over 256 KiB with 413", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/faqs", { key: clientKey, body: { ...faqBody, answer: "a".repeat(300 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.json!.error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("refuses an empty PATCH, a PATCH of an unknown FAQ (404), keeps answers with newlines and folds a question's", async () => {
    const { clientKey } = await newTenant();
    const faq = (await call("/v1/faqs", { key: clientKey, body: { ...faqBody, question: "Subject line\nand the body", answer: "Line one.\n\tLine two." } })).json!;
    expect(faq.answer).toBe("Line one.\n\tLine two.");
    expect(faq.question).toBe("Subject line and the body"); // a question is one line: breaks fold into spaces
    const empty = await call(`/v1/faqs/${faq.id}`, { key: clientKey, method: "PATCH", body: { changeReason: "nothing" } });
    expect(empty.status).toBe(400);
    expect((await call("/v1/faqs/faq_missing", { key: clientKey, method: "PATCH", body: { answer: "x" } })).status).toBe(404);
  });
});

describe("versions and rollback errors", () => {
  it("answers 404 for a rollback to a missing version, to the current one, and of an unknown FAQ", async () => {
    const { clientKey } = await newTenant();
    const faq = (await call("/v1/faqs", { key: clientKey, body: faqBody })).json!;
    await call(`/v1/faqs/${faq.id}`, { key: clientKey, method: "PATCH", body: { answer: "New." } });
    for (const version of [7, 2]) {
      const res = await call(`/v1/faqs/${faq.id}/rollback/${version}`, { key: clientKey, body: {} });
      expect(res.status).toBe(404);
      expect(res.json!.error.message).toContain(`version ${version}`);
    }
    expect((await call(`/v1/faqs/faq_missing/rollback/1`, { key: clientKey, body: {} })).status).toBe(404);
    expect((await call(`/v1/faqs/faq_missing/versions`, { key: clientKey })).status).toBe(404);
    expect((await call(`/v1/faqs/${faq.id}/rollback/0`, { key: clientKey, body: {} })).status).toBe(400);
    expect((await call(`/v1/faqs/${faq.id}/rollback/one`, { key: clientKey, body: {} })).status).toBe(400);
    expect((await call(`/v1/faqs/${faq.id}/rollback/1`, { key: clientKey, body: { bogus: 1 } })).status).toBe(400);
    expect((await call(`/v1/faqs/${faq.id}/versions`, { key: clientKey })).json!.versions).toHaveLength(1);
  });
});

describe("relationship errors", () => {
  it("refuses self-links (400), unknown targets (404) and deleted targets (409)", async () => {
    const { clientKey } = await newTenant();
    const a = (await call("/v1/faqs", { key: clientKey, body: faqBody })).json!;
    const b = (await call("/v1/faqs", { key: clientKey, body: { question: "Opening hours of the Berlin office?", answer: "9 to 5." } })).json!;
    const self = await call(`/v1/faqs/${a.id}/related`, { key: clientKey, body: { targetFaqId: a.id } });
    expect(self.status).toBe(400);
    expect((await call(`/v1/faqs/${a.id}/related`, { key: clientKey, body: { targetFaqId: "faq_missing" } })).status).toBe(404);
    expect((await call(`/v1/faqs/${a.id}/related`, { key: clientKey, body: { targetFaqId: b.id, relationshipType: "cousin" } })).status).toBe(400);
    await call(`/v1/faqs/${b.id}`, { key: clientKey, method: "DELETE" });
    const deleted = await call(`/v1/faqs/${a.id}/related`, { key: clientKey, body: { targetFaqId: b.id } });
    expect(deleted.status).toBe(409);
    expect(deleted.json!.error.code).toBe("CONFLICT");
    // From a deleted FAQ: 404.
    expect((await call(`/v1/faqs/${b.id}/related`, { key: clientKey, body: { targetFaqId: a.id } })).status).toBe(404);
  });
});

describe("variant errors", () => {
  it("refuses empty or unknown-source variants (400) and variants of deleted FAQs (404)", async () => {
    const { clientKey } = await newTenant();
    const faq = (await call("/v1/faqs", { key: clientKey, body: faqBody })).json!;
    expect((await call(`/v1/faqs/${faq.id}/variants`, { key: clientKey, body: { variantText: " " } })).status).toBe(400);
    expect((await call(`/v1/faqs/${faq.id}/variants`, { key: clientKey, body: { variantText: "x", source: "robot" } })).status).toBe(400);
    const variant = (await call(`/v1/faqs/${faq.id}/variants`, { key: clientKey, body: { variantText: "forgot login" } })).json!;
    await call(`/v1/faqs/${faq.id}`, { key: clientKey, method: "DELETE" });
    expect((await call(`/v1/faqs/${faq.id}/variants`, { key: clientKey, body: { variantText: "locked out" } })).status).toBe(404);
    expect((await call(`/v1/faqs/${faq.id}/variants`, { key: clientKey })).status).toBe(404);
    expect((await call(`/v1/faqs/variants/${variant.id}`, { key: clientKey, method: "DELETE" })).status).toBe(404);
  });
});

describe("list errors", () => {
  it("refuses a forged cursor, an odd tag and an unknown parameter", async () => {
    const { clientKey } = await newTenant();
    expect((await call("/v1/faqs?cursor=abc", { key: clientKey })).status).toBe(400);
    expect((await call("/v1/faqs?tag=a%20b", { key: clientKey })).status).toBe(400);
    expect((await call("/v1/faqs?limit=0", { key: clientKey })).status).toBe(400);
    expect((await call("/v1/faqs?sort=asc", { key: clientKey })).status).toBe(400);
  });
});

describe("stats and suggestions errors", () => {
  it("refuses out-of-range limits and unknown parameters, and answers 404 for unknown FAQ stats and suggestions", async () => {
    const { clientKey } = await newTenant();
    for (const path of ["/v1/faqs/stats?limit=0", "/v1/faqs/stats?limit=201", "/v1/faqs/suggestions?limit=x", "/v1/faqs/suggestions?status=open"]) {
      expect((await call(path, { key: clientKey })).status, path).toBe(400);
    }
    expect((await call("/v1/faqs/faq_missing/stats", { key: clientKey })).status).toBe(404);
    expect((await call("/v1/faqs/suggestions/sug_missing/accept", { key: clientKey, body: {} })).status).toBe(404);
    expect((await call("/v1/faqs/suggestions/sug_missing/dismiss", { key: clientKey, body: { bogus: true } })).status).toBe(400);
    expect((await call("/v1/faqs/suggestions/sug_missing/dismiss", { key: clientKey, raw: "{nope" })).status).toBe(400);
  });
});
