/**
 * POST /v1/faqs/import line by line (issue 34): a line whose kept id cannot be used is skipped and
 * reported with its line number, every other line is stored, and the answer says exactly what was
 * stored. An id another tenant uses gets the same answer as one this tenant uses, never "exists".
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { newTenant } from "../support/api";
import { apiClient, expectJson, type TestClient } from "../support/client";

const importNdjson = (api: TestClient, lines: unknown[]) =>
  expectJson(
    api.v1.faqs.import.$post(
      {},
      { headers: { "content-type": "application/x-ndjson" }, init: { body: lines.map((l) => JSON.stringify(l)).join("\n") } },
    ),
    200,
  );

/** Every FAQ the tenant has (at most 100: these tests store fewer). */
async function storedIds(api: TestClient): Promise<string[]> {
  const page = await expectJson(api.v1.faqs.$get({ query: { limit: "100" } }), 200);
  expect(page.nextCursor).toBeNull();
  return page.faqs.map((f) => f.id).sort();
}

const line = (i: number, extra: Record<string, unknown> = {}) => ({
  question: `Import question number ${i}?`,
  answer: `Answer ${i}.`,
  ...extra,
});
const freshId = (label: string) => `faq_${label}_${crypto.randomUUID().replaceAll("-", "")}`;

afterEach(() => vi.restoreAllMocks());

describe("POST /v1/faqs/import: ids that cannot be used", () => {
  it("skips a line repeating an earlier line's id (line 56 reuses line 53's) and stores the other 59, answering what it stored", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const errorLogs = vi.spyOn(console, "error");
    const id = freshId("repeat");
    const lines = Array.from({ length: 60 }, (_, i) => line(i + 1, i + 1 === 53 || i + 1 === 56 ? { id } : {}));
    const res = await importNdjson(api, lines);
    expect(res.errors).toEqual([{ line: 56, code: "ID_REPEATED", message: expect.stringContaining("line 53") }]);
    expect(res.imported.map((i) => i.line)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1).filter((n) => n !== 56));
    expect(res.counts).toMatchObject({ imported: 59, failed: 1 });
    expect(res.imported.find((i) => i.line === 53)?.id).toBe(id);
    expect(await storedIds(api)).toEqual(res.imported.map((i) => i.id).sort());
    expect(errorLogs.mock.calls.map(String).join("\n")).not.toContain("unhandled_error");
  });

  it("imports the third line when the second repeats the first's id, as the docs promise (only bad lines are skipped)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const id = freshId("three");
    const res = await importNdjson(api, [line(1, { id }), line(2, { id }), line(3)]);
    expect(res.imported.map((i) => i.line)).toEqual([1, 3]);
    expect(res.errors).toEqual([{ line: 2, code: "ID_REPEATED", message: expect.stringContaining("line 1") }]);
    expect(await storedIds(api)).toEqual(res.imported.map((i) => i.id).sort());
  });

  it("skips a line whose variant id repeats an id of the file, keeping the others", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const variantId = freshId("variant");
    const res = await importNdjson(api, [
      line(1, { variants: [{ id: variantId, variantText: "first phrasing" }] }),
      line(2, { variants: [{ id: variantId, variantText: "second phrasing" }] }),
      line(3),
    ]);
    expect(res.imported.map((i) => [i.line, i.variants])).toEqual([
      [1, 1],
      [3, 0],
    ]);
    expect(res.errors).toMatchObject([{ line: 2, code: "ID_REPEATED" }]);
  });

  it("skips a line whose id the tenant already uses, with its line number, and stores the rest (no 409)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const existing = await expectJson(api.v1.faqs.$post({ json: line(0) }), 201);
    const res = await importNdjson(api, [line(1), line(2, { id: existing.id }), line(3)]);
    expect(res.imported.map((i) => i.line)).toEqual([1, 3]);
    expect(res.errors).toEqual([{ line: 2, code: "ID_UNAVAILABLE", message: expect.stringContaining(existing.id) }]);
    expect(await storedIds(api)).toEqual([existing.id, ...res.imported.map((i) => i.id)].sort());
  });

  it("answers an id another tenant uses exactly as one this tenant uses, without saying it exists", async () => {
    const owner = apiClient((await newTenant()).clientKey);
    const theirs = await expectJson(owner.v1.faqs.$post({ json: line(1) }), 201);
    const api = apiClient((await newTenant()).clientKey);
    const mine = await expectJson(api.v1.faqs.$post({ json: line(2) }), 201);
    const res = await importNdjson(api, [line(3, { id: theirs.id }), line(4, { id: mine.id })]);
    expect(res.imported).toEqual([]);
    const [foreign, own] = res.errors;
    expect(foreign).toMatchObject({ line: 1, code: "ID_UNAVAILABLE" });
    expect({ ...foreign, line: 2, message: foreign!.message.replace(theirs.id, mine.id) }).toEqual(own);
    expect(foreign!.message).not.toMatch(/taken|exist|tenant/i);
    // The other tenant's FAQ is untouched.
    expect((await expectJson(owner.v1.faqs[":id"].$get({ param: { id: theirs.id } }), 200)).answer).toBe("Answer 1.");
  });
});

describe("POST /v1/faqs/import: questions already asked", () => {
  it("skips a line the knowledge base or an earlier line asks already (DUPLICATE_QUESTION), and links what it imports", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const reset = await expectJson(api.v1.faqs.$post({ json: { question: "How do I reset my password?", answer: "Use the link." } }), 201);
    const res = await importNdjson(api, [
      { question: "How do I reset my password", answer: "Forgot password." },
      { question: "Do you ship to Norway?", answer: "Yes, in 5 days." },
      { question: "do you ship to NORWAY", answer: "Yes." },
      { question: "Do you ship to Norway by express?", answer: "Yes, in 2 days for 20 EUR." },
    ]);
    expect(res.errors).toEqual([
      {
        line: 1,
        code: "DUPLICATE_QUESTION",
        message: expect.stringContaining(reset.id),
        duplicateOf: { id: reset.id, question: "How do I reset my password?", similarity: expect.any(Number) },
      },
      { line: 3, code: "DUPLICATE_QUESTION", message: expect.stringContaining("Line 2") },
    ]);
    expect(res.imported.map((i) => i.line)).toEqual([2, 4]);
    expect(res.counts).toMatchObject({ imported: 2, failed: 2, duplicates: 2, autoLinked: 2 });
    expect(res.degraded).toEqual([]);
    expect(await storedIds(api)).toEqual([reset.id, ...res.imported.map((i) => i.id)].sort());
    // The two imported FAQs are each other's nearest: linked as a create would link them.
    const norway = await expectJson(api.v1.faqs[":id"].$get({ param: { id: res.imported[0]!.id } }), 200);
    expect(norway.related).toEqual([
      expect.objectContaining({ id: res.imported[1]!.id, relationshipType: "related", isAutoGenerated: true }),
    ]);
  });
});
