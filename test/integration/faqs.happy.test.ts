import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";
import { callWith } from "../support/app";

const keyIdOf = async (tenantId: string) =>
  (await env.DB.prepare("SELECT id FROM api_keys WHERE tenant_id = ? AND role = 'client'").bind(tenantId).first<{ id: string }>())!.id;

describe("POST /v1/faqs · GET /v1/faqs/:id", () => {
  it("creates an FAQ and answers the detail model (variants, related, stats, audit fields)", async () => {
    const { clientKey, tenantId } = await newTenant();
    const created = await call("/v1/faqs", {
      key: clientKey,
      body: { question: "  How do I reset my password? ", answer: "Settings → Security → Reset.", tags: ["Account", "security", "account"], metadata: { owner: "it", priority: 2 } },
    });
    expect(created.status).toBe(201);
    const keyId = await keyIdOf(tenantId);
    expect(created.json).toMatchObject({
      question: "How do I reset my password?",
      tags: ["account", "security"],
      metadata: { owner: "it", priority: 2 },
      version: 1,
      createdBy: keyId,
      updatedBy: keyId,
      indexState: "indexed",
      variants: [],
      related: [],
      stats: { totalHits: 0, uniqueSessions: 0, daysWithHits: 0, lastHitAt: null, avgScore: null },
    });
    const read = await call(`/v1/faqs/${created.json!.id}`, { key: clientKey });
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);
  });
});

describe("GET /v1/faqs", () => {
  it("pages newest first with a cursor, and filters by tag and by words", async () => {
    const { clientKey } = await newTenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call("/v1/faqs", { key: clientKey, body: { question: `Question number ${i} about ${i % 2 ? "billing" : "shipping"}?`, answer: "An answer.", tags: [i % 2 ? "billing" : "shipping"] } });
      ids.push(res.json!.id);
    }
    const first = await call("/v1/faqs?limit=2", { key: clientKey });
    expect(first.json!.faqs.map((f: { id: string }) => f.id)).toEqual([ids[4], ids[3]]);
    const second = await call(`/v1/faqs?limit=2&cursor=${first.json!.nextCursor}`, { key: clientKey });
    expect(second.json!.faqs.map((f: { id: string }) => f.id)).toEqual([ids[2], ids[1]]);
    const third = await call(`/v1/faqs?limit=2&cursor=${second.json!.nextCursor}`, { key: clientKey });
    expect(third.json).toMatchObject({ faqs: [{ id: ids[0] }], nextCursor: null });

    const billing = await call("/v1/faqs?tag=billing", { key: clientKey });
    expect(billing.json!.faqs.map((f: { id: string }) => f.id)).toEqual([ids[3], ids[1]]);
    const words = await call(`/v1/faqs?q=${encodeURIComponent("shipping")}`, { key: clientKey });
    expect(words.json!.faqs.map((f: { id: string }) => f.id)).toEqual([ids[4], ids[2], ids[0]]);
    const none = await call(`/v1/faqs?q=${encodeURIComponent("the of")}`, { key: clientKey });
    expect(none.json).toEqual({ faqs: [], nextCursor: null });
  });
});

describe("PATCH /v1/faqs/:id · versions · rollback", () => {
  it("versions every content change atomically and rolls back (itself versioned, re-embedded)", async () => {
    const { clientKey } = await newTenant();
    const faq = (await call("/v1/faqs", { key: clientKey, body: { question: "How long does shipping take?", answer: "3 days.", tags: ["shipping"] } })).json!;

    const meta = await call(`/v1/faqs/${faq.id}`, { key: clientKey, method: "PATCH", body: { metadata: { owner: "ops" } } });
    expect(meta.json).toMatchObject({ version: 1, metadata: { owner: "ops" } });
    expect((await call(`/v1/faqs/${faq.id}/versions`, { key: clientKey })).json).toEqual({ currentVersion: 1, versions: [], nextCursor: null });

    const v2 = await call(`/v1/faqs/${faq.id}`, { key: clientKey, method: "PATCH", body: { answer: "5 days.", changeReason: "new carrier" } });
    expect(v2.json).toMatchObject({ version: 2, answer: "5 days.", question: "How long does shipping take?" });
    const v3 = await call(`/v1/faqs/${faq.id}`, { key: clientKey, method: "PATCH", body: { question: "What is the delivery time for kittens?", tags: ["delivery"] } });
    expect(v3.json).toMatchObject({ version: 3, indexState: "indexed" });

    const history = await call(`/v1/faqs/${faq.id}/versions`, { key: clientKey });
    expect(history.json!.currentVersion).toBe(3);
    expect(history.json!.versions).toMatchObject([
      { versionNumber: 2, question: "How long does shipping take?", answer: "5 days.", tags: ["shipping"], changeType: "update", changeReason: null, changedBy: faq.createdBy },
      { versionNumber: 1, question: "How long does shipping take?", answer: "3 days.", tags: ["shipping"], changeType: "update", changeReason: "new carrier" },
    ]);

    const rolled = await call(`/v1/faqs/${faq.id}/rollback/1`, { key: clientKey, body: {} });
    expect(rolled.status).toBe(200);
    expect(rolled.json).toMatchObject({ version: 4, question: "How long does shipping take?", answer: "3 days.", tags: ["shipping"], metadata: { owner: "ops" }, indexState: "indexed" });
    const after = (await call(`/v1/faqs/${faq.id}/versions`, { key: clientKey })).json!;
    expect(after.versions[0]).toMatchObject({
      versionNumber: 3,
      question: "What is the delivery time for kittens?",
      tags: ["delivery"],
      changeType: "rollback",
      changeReason: "rollback to version 1",
    });
    // Re-embedded: the restored question is found by meaning again, the rolled-back one is not.
    const found = await call("/v1/faqs/search", { key: clientKey, body: { query: "how many days until my parcel arrives", weights: { bm25: 0, vector: 1 } } });
    expect(found.json!.results[0].id).toBe(faq.id);
    const vectors = await env.DB.prepare("SELECT COUNT(*) AS n FROM vectors WHERE collection = 'faqs' AND id = ?").bind(faq.id).first<{ n: number }>();
    expect(vectors!.n).toBe(1);
  });

  it("writes the version and the change in one batch: a failing update leaves no version behind", async () => {
    const { clientKey } = await newTenant();
    const faq = (await call("/v1/faqs", { key: clientKey, body: { question: "Atomic?", answer: "Yes." } })).json!;
    // A batch whose second statement fails rolls back its first (the version insert).
    const failing = await callWith(
      (real) => ({
        ...real,
        db: new Proxy(real.db, {
          get(target, prop) {
            if (prop === "batch")
              return (statements: D1PreparedStatement[]) =>
                target.batch(statements.length === 3 ? [statements[0]!, target.prepare("INSERT INTO no_such_table VALUES (1)"), statements[2]!] : statements);
            const value = Reflect.get(target, prop);
            return typeof value === "function" ? value.bind(target) : value;
          },
        }),
      }),
      `/v1/faqs/${faq.id}`,
      clientKey,
      { answer: "No." },
      "PATCH",
    );
    expect(failing.status).toBe(500);
    expect((await call(`/v1/faqs/${faq.id}/versions`, { key: clientKey })).json!.versions).toEqual([]);
    expect((await call(`/v1/faqs/${faq.id}`, { key: clientKey })).json).toMatchObject({ answer: "Yes.", version: 1 });
  });
});

describe("DELETE /v1/faqs/:id", () => {
  it("soft-deletes: gone from reads, lists and search; the row, versions and hits stay", async () => {
    const { clientKey } = await newTenant();
    const faq = (await call("/v1/faqs", { key: clientKey, body: { question: "Is this temporary?", answer: "Yes." } })).json!;
    await call(`/v1/faqs/${faq.id}`, { key: clientKey, method: "PATCH", body: { answer: "Very." } });
    expect((await call(`/v1/faqs/${faq.id}`, { key: clientKey, method: "DELETE" })).status).toBe(204);
    expect((await call(`/v1/faqs/${faq.id}`, { key: clientKey })).status).toBe(404);
    expect((await call(`/v1/faqs/${faq.id}`, { key: clientKey, method: "DELETE" })).status).toBe(404);
    expect((await call("/v1/faqs", { key: clientKey })).json!.faqs).toEqual([]);
    expect((await call("/v1/faqs/search", { key: clientKey, body: { query: "temporary" } })).json!.results).toEqual([]);
    const row = await env.DB.prepare("SELECT deleted_at, deleted_by FROM faqs WHERE id = ?").bind(faq.id).first<{ deleted_at: number; deleted_by: string }>();
    expect(row!.deleted_by).toBe(faq.createdBy);
    const versions = await env.DB.prepare("SELECT COUNT(*) AS n FROM faq_versions WHERE faq_id = ?").bind(faq.id).first<{ n: number }>();
    expect(versions!.n).toBe(1);
  });
});

describe("/v1/faqs/:id/variants", () => {
  it("adds, lists and deletes variants; an exact duplicate (folded) is a 409", async () => {
    const { clientKey } = await newTenant();
    const faq = (await call("/v1/faqs", { key: clientKey, body: { question: "How do I reset my password?", answer: "Settings." } })).json!;
    const a = await call(`/v1/faqs/${faq.id}/variants`, { key: clientKey, body: { variantText: "forgot login" } });
    expect(a.status).toBe(201);
    expect(a.json).toMatchObject({ faqId: faq.id, variantText: "forgot login", source: "manual", sourceTicketId: null, indexState: "indexed" });
    const b = await call(`/v1/faqs/${faq.id}/variants`, { key: clientKey, body: { variantText: "can't access account", source: "pipeline", sourceTicketId: "T-981" } });
    expect(b.json).toMatchObject({ source: "pipeline", sourceTicketId: "T-981" });

    for (const duplicate of ["Forgot  LOGIN", "forgot login!", "how do I reset my password"]) {
      const res = await call(`/v1/faqs/${faq.id}/variants`, { key: clientKey, body: { variantText: duplicate } });
      expect(res.status).toBe(409);
      expect(res.json!.error.code).toBe("CONFLICT");
    }
    const list = await call(`/v1/faqs/${faq.id}/variants`, { key: clientKey });
    expect(list.json!.variants.map((v: { id: string }) => v.id)).toEqual([a.json!.id, b.json!.id]);
    expect((await call(`/v1/faqs/${faq.id}`, { key: clientKey })).json!.variants).toHaveLength(2);

    expect((await call(`/v1/faqs/variants/${a.json!.id}`, { key: clientKey, method: "DELETE" })).status).toBe(204);
    expect((await call(`/v1/faqs/variants/${a.json!.id}`, { key: clientKey, method: "DELETE" })).status).toBe(404);
    expect((await call(`/v1/faqs/${faq.id}/variants`, { key: clientKey })).json!.variants).toHaveLength(1);
    // After deleting, the same text may be added again.
    expect((await call(`/v1/faqs/${faq.id}/variants`, { key: clientKey, body: { variantText: "forgot login" } })).status).toBe(201);
  });
});

describe("/v1/faqs/:id/related", () => {
  it("links the top similar FAQs automatically, keeps manual links, and lists both sides", async () => {
    const { clientKey } = await newTenant();
    const post = async (question: string) => (await call("/v1/faqs", { key: clientKey, body: { question, answer: "See the help centre." } })).json!;
    const reset = await post("How do I reset my password?");
    const unrelated = await post("What are the opening hours of the Berlin office?");
    const change = await post("How can I change my password?");
    // Created after the first: it links to its nearest FAQ above the similarity floor.
    expect(change.related).toMatchObject([{ id: reset.id, relationshipType: "related", isAutoGenerated: true }]);
    expect(change.related.map((r: { id: string }) => r.id)).not.toContain(unrelated.id);
    expect(change.related[0].similarity).toBeGreaterThanOrEqual(0.6);
    // The other side sees the link too.
    expect((await call(`/v1/faqs/${reset.id}/related`, { key: clientKey })).json!.related).toMatchObject([{ id: change.id, isAutoGenerated: true }]);

    // A manual link replaces the auto link on that pair; a second link on the pair is a 409.
    const manual = await call(`/v1/faqs/${reset.id}/related`, { key: clientKey, body: { targetFaqId: change.id, relationshipType: "parent" } });
    expect(manual.status).toBe(201);
    expect(manual.json).toMatchObject({ id: change.id, relationshipType: "parent", isAutoGenerated: false });
    expect((await call(`/v1/faqs/${change.id}/related`, { key: clientKey, body: { targetFaqId: reset.id } })).status).toBe(409);
    // From the other side the parent is a child.
    expect((await call(`/v1/faqs/${change.id}/related`, { key: clientKey })).json!.related).toMatchObject([{ id: reset.id, relationshipType: "child", isAutoGenerated: false }]);

    // A change of the question recomputes auto links and never overwrites the manual one.
    await call(`/v1/faqs/${change.id}`, { key: clientKey, method: "PATCH", body: { question: "How do I change my account password?" } });
    const links = (await call(`/v1/faqs/${change.id}/related`, { key: clientKey })).json!.related;
    expect(links).toMatchObject([{ id: reset.id, relationshipType: "child", isAutoGenerated: false }]);

    const seeAlso = await call(`/v1/faqs/${unrelated.id}/related`, { key: clientKey, body: { targetFaqId: reset.id, relationshipType: "see_also" } });
    expect(seeAlso.status).toBe(201);
    expect((await call(`/v1/faqs/relationships/${seeAlso.json!.relationshipId}`, { key: clientKey, method: "DELETE" })).status).toBe(204);
    expect((await call(`/v1/faqs/relationships/${seeAlso.json!.relationshipId}`, { key: clientKey, method: "DELETE" })).status).toBe(404);
    expect((await call(`/v1/faqs/${unrelated.id}/related`, { key: clientKey })).json!.related).toEqual([]);
  });
});

describe("hit tracking: POST /v1/faqs/search with a sessionId · GET /v1/faqs/stats · GET /v1/faqs/:id/stats", () => {
  it("records one hit per returned FAQ after the response, and aggregates them", async () => {
    const { clientKey } = await newTenant();
    const faq = (await call("/v1/faqs", { key: clientKey, body: { question: "Where is my invoice?", answer: "Billing → Invoices." } })).json!;
    const other = (await call("/v1/faqs", { key: clientKey, body: { question: "How do I add a colleague?", answer: "Team → Invite." } })).json!;
    const day = 24 * 3600 * 1000;
    const t0 = Date.UTC(2026, 0, 10, 12);
    const at = (t: number) => (real: Parameters<Parameters<typeof callWith>[0]>[0]) => ({ ...real, clock: { now: () => t } });
    const s1 = await callWith(at(t0), "/v1/faqs/search", clientKey, { query: "invoice", sessionId: "s-1", limit: 1 });
    expect(s1.json.results.map((r: { id: string }) => r.id)).toEqual([faq.id]);
    await callWith(at(t0 + 1000), "/v1/faqs/search", clientKey, { query: "invoice pdf", sessionId: "s-1", limit: 1 });
    await callWith(at(t0 + day), "/v1/faqs/search", clientKey, { query: "where's the invoice", sessionId: "s-2", limit: 1 });
    await callWith(at(t0 + day), "/v1/faqs/search", clientKey, { query: "invoice", limit: 1 }); // no session: no hit

    const stats = await call(`/v1/faqs/${faq.id}/stats`, { key: clientKey });
    expect(stats.json).toMatchObject({ id: faq.id, totalHits: 3, uniqueSessions: 2, daysWithHits: 2, lastHitAt: new Date(t0 + day).toISOString() });
    expect(stats.json!.avgScore).toBeGreaterThan(0);
    const hit = await env.DB.prepare("SELECT query_text, session_id, variant_id FROM faq_hits WHERE faq_id = ? ORDER BY hit_at LIMIT 1").bind(faq.id).first();
    expect(hit).toEqual({ query_text: "invoice", session_id: "s-1", variant_id: null });

    const all = await call("/v1/faqs/stats", { key: clientKey });
    expect(all.json!.faqs).toMatchObject([
      { id: faq.id, totalHits: 3 },
      { id: other.id, totalHits: 0, lastHitAt: null, avgScore: null },
    ]);
    expect((await call(`/v1/faqs/${faq.id}`, { key: clientKey })).json!.stats).toMatchObject({ totalHits: 3, uniqueSessions: 2 });
  });
});

describe("POST /v1/faqs/import", () => {
  const ndjson = (lines: unknown[]) => lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n");

  it("imports the good lines, embeds them, and reports each bad line without dropping the rest", async () => {
    const { clientKey } = await newTenant();
    const res = await call("/v1/faqs/import", {
      key: clientKey,
      headers: { "content-type": "application/x-ndjson" },
      raw: ndjson([
        { question: "How do I export my data?", answer: "Settings → Export.", tags: ["data"], variants: ["download all my data", "Download all my data!", "data takeout"] },
        "{not json",
        { question: "", answer: "missing question" },
        "",
        { question: "Can I pay by invoice?", answer: "Yes, for annual plans." },
        { question: "Odd tags", answer: "x", tags: ["bad tag!"] },
      ]),
    });
    expect(res.status).toBe(200);
    expect(res.json!.counts).toEqual({ imported: 2, failed: 3, duplicateVariants: 1, indexed: 4, pendingIndex: 0 });
    expect(res.json!.imported).toMatchObject([
      { line: 1, variants: 2 },
      { line: 5, variants: 0 },
    ]);
    expect(res.json!.errors).toMatchObject([
      { line: 2, code: "INVALID_JSON" },
      { line: 3, code: "VALIDATION_FAILED", details: [{ path: "question" }] },
      { line: 6, code: "VALIDATION_FAILED", details: [{ path: "tags.0" }] },
    ]);
    const found = await call("/v1/faqs/search", { key: clientKey, body: { query: "data takeout" } });
    expect(found.json!.results[0]).toMatchObject({ id: res.json!.imported[0].id, matchedVariant: { variantText: "data takeout" } });
  });

  it("refuses a JSON body (415), an empty import (400) and more lines than the batch size (413)", async () => {
    const { clientKey } = await newTenant();
    expect((await call("/v1/faqs/import", { key: clientKey, body: { question: "q", answer: "a" } })).status).toBe(415);
    const empty = await call("/v1/faqs/import", { key: clientKey, headers: { "content-type": "application/x-ndjson" }, raw: "\n\n" });
    expect(empty.status).toBe(400);
    const tooMany = await call("/v1/faqs/import", {
      key: clientKey,
      headers: { "content-type": "application/x-ndjson" },
      raw: ndjson(Array.from({ length: 1001 }, (_, i) => ({ question: `q${i}`, answer: "a" }))),
    });
    expect(tooMany.status).toBe(413);
    expect((await call("/v1/faqs", { key: clientKey })).json!.faqs).toEqual([]);
  });

  it("accepts NDJSON only on the import route, and up to its own larger size limit", async () => {
    const { clientKey } = await newTenant();
    const elsewhere = await call("/v1/faqs", { key: clientKey, headers: { "content-type": "application/x-ndjson" }, raw: JSON.stringify({ question: "q", answer: "a" }) });
    expect(elsewhere.status).toBe(415);
    // 300 KiB: over the JSON limit (256 KiB), under the NDJSON one (5 MiB).
    const line = (i: number) => JSON.stringify({ question: `Large import question ${i}?`, answer: "x".repeat(15_000) });
    const big = Array.from({ length: 20 }, (_, i) => line(i)).join("\n");
    expect(big.length).toBeGreaterThan(256 * 1024);
    const ok = await call("/v1/faqs/import", { key: clientKey, headers: { "content-type": "application/x-ndjson" }, raw: big });
    expect(ok.status).toBe(200);
    expect(ok.json!.counts.imported).toBe(20);
    const huge = await call("/v1/faqs/import", { key: clientKey, headers: { "content-type": "application/x-ndjson" }, raw: "x".repeat(5 * 1024 * 1024 + 1) });
    expect(huge.status).toBe(413);
  });
});
