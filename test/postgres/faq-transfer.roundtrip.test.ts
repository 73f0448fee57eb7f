/**
 * Moving a knowledge base between backends: D1 → NDJSON → Postgres → NDJSON → D1 (another
 * deployment), through the functions behind GET /v1/faqs/export and POST /v1/faqs/import, with
 * every line validated by the import's schema as the route does. No field may change.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportNdjson, importLines, type TransferItem } from "../../src/features/faqs/ndjson";
import { importLineSchema } from "../../src/http/schemas/faqs";
import { type Backends, newTenant, startBackends } from "./support/backends";

let source: Backends;
let target: Backends;
beforeAll(async () => {
  [source, target] = await Promise.all([startBackends(), startBackends()]);
});
afterAll(async () => {
  await source?.close();
  await target?.close();
});

const parse = (ndjson: string): TransferItem[] =>
  ndjson
    .split("\n")
    .filter((l) => l !== "")
    .map((l, i) => ({ ...importLineSchema.parse(JSON.parse(l)), line: i + 1 }));

const objects = (ndjson: string): unknown[] =>
  ndjson
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as unknown);

describe("export → import between D1 and Postgres", () => {
  it("moves a tenant D1 → Postgres → D1 without losing a field", async () => {
    const tenant = await newTenant(source);
    const d1 = source.services("d1");
    const store = source.store("d1");
    const pay = await store.create(tenant, "key_author", {
      question: "How do I pay an invoice?",
      answer: "By card.\nOr by transfer.",
      tags: ["billing"],
      metadata: { owner: "finance", priority: 2, public: true, note: null },
    });
    const refund = await store.create(tenant, "key_author", {
      question: "How do I get a refund?",
      answer: "Ask support.",
      tags: ["billing", "refunds"],
      metadata: {},
    });
    await store.create(tenant, "key_author", { question: "如何修改用户密码？", answer: "在设置里选择安全。", tags: [], metadata: {} });
    const gone = await store.create(tenant, "key_author", {
      question: "Is the old portal still up?",
      answer: "No.",
      tags: [],
      metadata: {},
    });
    await store.update(tenant, pay.id, "key_editor", { answer: "By card or transfer." }, { changeType: "update", reason: "transfers" });
    await store.rollback(tenant, pay.id, 1, "key_editor");
    await store.addVariant(tenant, pay.id, "key_author", { variantText: "pay my bill", source: "pipeline", sourceTicketId: "tk_42" });
    await store.addVariant(tenant, refund.id, "key_author", { variantText: "money back", source: "manual" });
    expect(await store.createRelationship(tenant, pay.id, refund.id, "see_also", "key_author")).toMatchObject({ ok: true });
    await store.softDelete(tenant, gone.id, "key_author");

    const fromD1 = await exportNdjson(d1, tenant);
    const lines = fromD1
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.id)).toEqual([pay.id, refund.id, expect.any(String)]);
    expect(lines[0]).toMatchObject({
      version: 3,
      createdBy: "key_author",
      updatedBy: "key_editor",
      related: [{ targetFaqId: refund.id, relationshipType: "see_also" }],
    });
    expect((lines[0]!.versions as unknown[]).length).toBe(2);

    // Into Postgres: same tenant, same deployment; the link moves with its FAQs. Indexed: 2 English questions + 2 variants.
    const intoPostgres = await importLines(source.services("postgres"), tenant, "key_mover", parse(fromD1));
    expect(intoPostgres).toMatchObject({ skipped: [], duplicateVariants: 0, indexed: 4, pendingIndex: 0, relationships: 1 });
    const fromPostgres = await exportNdjson(source.services("postgres"), tenant);
    // Field for field (jsonb keeps metadata keys in its own order, which JSON objects do not fix).
    expect(objects(fromPostgres)).toEqual(objects(fromD1));

    // Back to D1 of another deployment: every row, link and version recreated.
    await target
      .services("d1")
      .db.prepare("INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)")
      .bind(tenant, tenant, Date.now())
      .run();
    const back = await importLines(target.services("d1"), tenant, "key_mover", parse(fromPostgres));
    expect(back).toMatchObject({ skipped: [], relationships: 1 });
    expect(objects(await exportNdjson(target.services("d1"), tenant))).toEqual(objects(fromD1));
    // And it searches the same on arrival.
    const found = await target.store("d1").search(tenant, { query: "pay my bill", limit: 5 });
    expect(found.results[0]).toMatchObject({ faq: { id: pay.id }, matchedVariant: { variantText: "pay my bill" } });
  });

  it("refuses lines whose ids another tenant already uses, on both backends", async () => {
    for (const backend of ["d1", "postgres"] as const) {
      const [owner, other] = [await newTenant(source), await newTenant(source)];
      const faq = await source
        .store(backend)
        .create(owner, "key_a", { question: "Where is my parcel?", answer: "Tracking page.", tags: [], metadata: {} });
      const stolen = await exportNdjson(source.services(backend), owner);
      const report = await importLines(source.services(backend), other, "key_b", parse(stolen.replace("Tracking page.", "Hijacked.")));
      expect(report.imported).toEqual([]);
      expect(report.skipped).toEqual([{ line: 1, code: "ID_UNAVAILABLE", message: expect.stringContaining(faq.id) }]);
      expect((await source.store(backend).get(owner, faq.id))?.answer).toBe("Tracking page.");
      expect(await source.store(backend).get(other, faq.id)).toBeNull();
    }
  });

  it("skips a line repeating an earlier line's id and writes every other line, on both backends", async () => {
    for (const backend of ["d1", "postgres"] as const) {
      const tenant = await newTenant(source);
      const id = `faq_repeat_${backend}_${crypto.randomUUID().replaceAll("-", "")}`;
      const lines = [1, 2, 3].map((i) =>
        JSON.stringify({ question: `Repeated id question ${i}?`, answer: `Answer ${i}.`, ...(i < 3 ? { id } : {}) }),
      );
      const report = await importLines(source.services(backend), tenant, "key_a", parse(lines.join("\n")));
      expect(report.imported.map((i) => i.line)).toEqual([1, 3]);
      expect(report.skipped).toEqual([{ line: 2, code: "ID_REPEATED", message: expect.stringContaining("line 1") }]);
      expect(objects(await exportNdjson(source.services(backend), tenant)).map((l) => (l as { id: string }).id)).toEqual(
        report.imported.map((i) => i.id),
      );
    }
  });
});
