import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newTenant, send } from "../support/api";
import { clientWith } from "../support/app";
import { apiClient, expectError, expectJson, type TestClient } from "../support/client";

const keyIdOf = async (tenantId: string) =>
  (await env.DB.prepare("SELECT id FROM api_keys WHERE tenant_id = ? AND role = 'client'").bind(tenantId).first<{ id: string }>())!.id;

describe("POST /v1/faqs · GET /v1/faqs/:id", () => {
  it("creates an FAQ and answers the detail model (variants, related, stats, audit fields)", async () => {
    const { clientKey, tenantId } = await newTenant();
    const api = apiClient(clientKey);
    const created = await expectJson(
      api.v1.faqs.$post({
        json: {
          question: "  How do I reset my password? ",
          answer: "Settings → Security → Reset.",
          tags: ["Account", "security", "account"],
          metadata: { owner: "it", priority: 2 },
        },
      }),
      201,
    );
    const keyId = await keyIdOf(tenantId);
    expect(created).toMatchObject({
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
    const read = await expectJson(api.v1.faqs[":id"].$get({ param: { id: created.id } }), 200);
    expect(read).toEqual(created);
  });
});

describe("GET /v1/faqs", () => {
  it("pages newest first with a cursor, and filters by tag and by words", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const faq = await expectJson(
        api.v1.faqs.$post({
          json: {
            question: `Question number ${i} about ${i % 2 ? "billing" : "shipping"}?`,
            answer: "An answer.",
            tags: [i % 2 ? "billing" : "shipping"],
          },
        }),
        201,
      );
      ids.push(faq.id);
    }
    const list = (query: { limit?: string; cursor?: string; tag?: string; q?: string }) => expectJson(api.v1.faqs.$get({ query }), 200);
    const first = await list({ limit: "2" });
    expect(first.faqs.map((f) => f.id)).toEqual([ids[4], ids[3]]);
    const second = await list({ limit: "2", cursor: String(first.nextCursor) });
    expect(second.faqs.map((f) => f.id)).toEqual([ids[2], ids[1]]);
    const third = await list({ limit: "2", cursor: String(second.nextCursor) });
    expect(third).toMatchObject({ faqs: [{ id: ids[0] }], nextCursor: null });

    expect((await list({ tag: "billing" })).faqs.map((f) => f.id)).toEqual([ids[3], ids[1]]);
    expect((await list({ q: "shipping" })).faqs.map((f) => f.id)).toEqual([ids[4], ids[2], ids[0]]);
    expect(await list({ q: "the of" })).toEqual({ faqs: [], nextCursor: null });
  });
});

describe("PATCH /v1/faqs/:id · versions · rollback", () => {
  it("versions every content change atomically and rolls back (itself versioned, re-embedded)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const faq = await expectJson(
      api.v1.faqs.$post({ json: { question: "How long does shipping take?", answer: "3 days.", tags: ["shipping"] } }),
      201,
    );
    const byId = api.v1.faqs[":id"];
    const param = { id: faq.id };
    const versions = () => expectJson(byId.versions.$get({ param, query: {} }), 200);

    const meta = await expectJson(byId.$patch({ param, json: { metadata: { owner: "ops" } } }), 200);
    expect(meta).toMatchObject({ version: 1, metadata: { owner: "ops" } });
    expect(await versions()).toEqual({ currentVersion: 1, versions: [], nextCursor: null });

    const v2 = await expectJson(byId.$patch({ param, json: { answer: "5 days.", changeReason: "new carrier" } }), 200);
    expect(v2).toMatchObject({ version: 2, answer: "5 days.", question: "How long does shipping take?" });
    const v3 = await expectJson(
      byId.$patch({ param, json: { question: "What is the delivery time for kittens?", tags: ["delivery"] } }),
      200,
    );
    expect(v3).toMatchObject({ version: 3, indexState: "indexed" });

    const history = await versions();
    expect(history.currentVersion).toBe(3);
    expect(history.versions).toMatchObject([
      {
        versionNumber: 2,
        question: "How long does shipping take?",
        answer: "5 days.",
        tags: ["shipping"],
        changeType: "update",
        changeReason: null,
        changedBy: faq.createdBy,
      },
      {
        versionNumber: 1,
        question: "How long does shipping take?",
        answer: "3 days.",
        tags: ["shipping"],
        changeType: "update",
        changeReason: "new carrier",
      },
    ]);

    const rolled = await expectJson(byId.rollback[":version"].$post({ param: { id: faq.id, version: "1" } }), 200);
    expect(rolled).toMatchObject({
      version: 4,
      question: "How long does shipping take?",
      answer: "3 days.",
      tags: ["shipping"],
      metadata: { owner: "ops" },
      indexState: "indexed",
    });
    const after = await versions();
    expect(after.versions[0]).toMatchObject({
      versionNumber: 3,
      question: "What is the delivery time for kittens?",
      tags: ["delivery"],
      changeType: "rollback",
      changeReason: "rollback to version 1",
    });
    // Re-embedded: the restored question is found by meaning again, the rolled-back one is not.
    const found = await expectJson(
      api.v1.faqs.search.$post({ json: { query: "how many days until my parcel arrives", weights: { bm25: 0, vector: 1 } } }),
      200,
    );
    expect(found.results[0]!.id).toBe(faq.id);
    const vectors = await env.DB.prepare("SELECT COUNT(*) AS n FROM vectors WHERE collection = 'faqs' AND id = ?")
      .bind(faq.id)
      .first<{ n: number }>();
    expect(vectors!.n).toBe(1);
  });

  it("writes the version and the change in one batch: a failing update leaves no version behind", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const faq = await expectJson(api.v1.faqs.$post({ json: { question: "Atomic?", answer: "Yes." } }), 201);
    // A batch whose second statement fails rolls back its first (the version insert).
    const failing = clientWith(
      (real) => ({
        ...real,
        db: new Proxy(real.db, {
          get(target, prop) {
            if (prop === "batch")
              return (statements: D1PreparedStatement[]) =>
                target.batch(
                  statements.length === 3
                    ? [statements[0]!, target.prepare("INSERT INTO no_such_table VALUES (1)"), statements[2]!]
                    : statements,
                );
            const value = Reflect.get(target, prop);
            return typeof value === "function" ? value.bind(target) : value;
          },
        }),
      }),
      clientKey,
    );
    await expectError(failing.v1.faqs[":id"].$patch({ param: { id: faq.id }, json: { answer: "No." } }), 500, "INTERNAL");
    expect((await expectJson(api.v1.faqs[":id"].versions.$get({ param: { id: faq.id }, query: {} }), 200)).versions).toEqual([]);
    expect(await expectJson(api.v1.faqs[":id"].$get({ param: { id: faq.id } }), 200)).toMatchObject({ answer: "Yes.", version: 1 });
  });
});

describe("DELETE /v1/faqs/:id", () => {
  it("soft-deletes: gone from reads, lists and search; the row, versions and hits stay", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const faq = await expectJson(api.v1.faqs.$post({ json: { question: "Is this temporary?", answer: "Yes." } }), 201);
    const param = { id: faq.id };
    await expectJson(api.v1.faqs[":id"].$patch({ param, json: { answer: "Very." } }), 200);
    expect((await api.v1.faqs[":id"].$delete({ param })).status).toBe(204);
    await expectError(api.v1.faqs[":id"].$get({ param }), 404);
    await expectError(api.v1.faqs[":id"].$delete({ param }), 404);
    expect((await expectJson(api.v1.faqs.$get({ query: {} }), 200)).faqs).toEqual([]);
    expect((await expectJson(api.v1.faqs.search.$post({ json: { query: "temporary" } }), 200)).results).toEqual([]);
    const row = await env.DB.prepare("SELECT deleted_at, deleted_by FROM faqs WHERE id = ?")
      .bind(faq.id)
      .first<{ deleted_at: number; deleted_by: string }>();
    expect(row!.deleted_by).toBe(faq.createdBy);
    const versions = await env.DB.prepare("SELECT COUNT(*) AS n FROM faq_versions WHERE faq_id = ?").bind(faq.id).first<{ n: number }>();
    expect(versions!.n).toBe(1);
  });
});

describe("/v1/faqs/:id/variants", () => {
  it("adds, lists and deletes variants; an exact duplicate (folded) is a 409", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const faq = await expectJson(api.v1.faqs.$post({ json: { question: "How do I reset my password?", answer: "Settings." } }), 201);
    const variants = api.v1.faqs[":id"].variants;
    const param = { id: faq.id };
    const a = await expectJson(variants.$post({ param, json: { variantText: "forgot login" } }), 201);
    expect(a).toMatchObject({ faqId: faq.id, variantText: "forgot login", source: "manual", sourceTicketId: null, indexState: "indexed" });
    const b = await expectJson(
      variants.$post({ param, json: { variantText: "can't access account", source: "pipeline", sourceTicketId: "T-981" } }),
      201,
    );
    expect(b).toMatchObject({ source: "pipeline", sourceTicketId: "T-981" });

    for (const duplicate of ["Forgot  LOGIN", "forgot login!", "how do I reset my password"]) {
      await expectError(variants.$post({ param, json: { variantText: duplicate } }), 409, "CONFLICT");
    }
    const list = await expectJson(variants.$get({ param, query: {} }), 200);
    expect(list.variants.map((v) => v.id)).toEqual([a.id, b.id]);
    expect((await expectJson(api.v1.faqs[":id"].$get({ param }), 200)).variants).toHaveLength(2);

    const deleteVariant = () => api.v1.faqs.variants[":variantId"].$delete({ param: { variantId: a.id } });
    expect((await deleteVariant()).status).toBe(204);
    await expectError(deleteVariant(), 404);
    expect((await expectJson(variants.$get({ param, query: {} }), 200)).variants).toHaveLength(1);
    // After deleting, the same text may be added again.
    await expectJson(variants.$post({ param, json: { variantText: "forgot login" } }), 201);
  });
});

describe("DELETE /v1/faqs/variants/:variantId", () => {
  it("keeps the deleted variant's hits counting for its FAQ, no longer naming the variant", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const faq = await expectJson(api.v1.faqs.$post({ json: { question: "How do I reset my password?", answer: "Settings." } }), 201);
    const variant = await expectJson(
      api.v1.faqs[":id"].variants.$post({ param: { id: faq.id }, json: { variantText: "forgot login" } }),
      201,
    );
    await expectJson(api.v1.faqs.search.$post({ json: { query: "forgot login", sessionId: "s-1", limit: 1 } }), 200);
    const hitVariant = () => env.DB.prepare("SELECT variant_id FROM faq_hits WHERE faq_id = ?").bind(faq.id).first("variant_id");
    expect(await hitVariant()).toBe(variant.id);

    expect((await api.v1.faqs.variants[":variantId"].$delete({ param: { variantId: variant.id } })).status).toBe(204);
    expect(await hitVariant()).toBeNull();
    expect(await expectJson(api.v1.faqs[":id"].stats.$get({ param: { id: faq.id } }), 200)).toMatchObject({ totalHits: 1 });
  });

  it("GET /v1/faqs/:id/hits counts its hits per UTC day, zeros included, and knows only the tenant's own FAQs", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const faq = await expectJson(
      api.v1.faqs.$post({ json: { question: "How do I export my invoices?", answer: "Billing, Export." } }),
      201,
    );
    await expectJson(api.v1.faqs.search.$post({ json: { query: "export invoices", sessionId: "s-1", limit: 1 } }), 200);
    const hits = await expectJson(api.v1.faqs[":id"].hits.$get({ param: { id: faq.id }, query: { days: "7" } }), 200);
    expect(hits).toMatchObject({ id: faq.id, days: 7 });
    expect(hits.daily).toHaveLength(7);
    expect(hits.daily.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), hits: 1 });
    expect(hits.daily.slice(0, 6).every((d) => d.hits === 0)).toBe(true);
    expect((await api.v1.faqs[":id"].hits.$get({ param: { id: faq.id }, query: { days: "91" } })).status).toBe(400);
    const stranger = apiClient((await newTenant()).clientKey);
    expect((await stranger.v1.faqs[":id"].hits.$get({ param: { id: faq.id }, query: {} })).status).toBe(404);
  });
});

describe("/v1/faqs/:id/related", () => {
  it("links the top similar FAQs automatically, keeps manual links, and lists both sides", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const post = (question: string) => expectJson(api.v1.faqs.$post({ json: { question, answer: "See the help centre." } }), 201);
    const related = api.v1.faqs[":id"].related;
    const listRelated = async (id: string) => (await expectJson(related.$get({ param: { id }, query: {} }), 200)).related;
    const reset = await post("How do I reset my password?");
    const unrelated = await post("What are the opening hours of the Berlin office?");
    const change = await post("How can I change my password?");
    // Created after the first: it links to its nearest FAQ above the similarity floor.
    expect(change.related).toMatchObject([{ id: reset.id, relationshipType: "related", isAutoGenerated: true }]);
    expect(change.related.map((r) => r.id)).not.toContain(unrelated.id);
    expect(change.related[0]!.similarity).toBeGreaterThanOrEqual(0.6);
    // The other side sees the link too.
    expect(await listRelated(reset.id)).toMatchObject([{ id: change.id, isAutoGenerated: true }]);

    // A manual link replaces the auto link on that pair; a second link on the pair is a 409.
    const manual = await expectJson(
      related.$post({ param: { id: reset.id }, json: { targetFaqId: change.id, relationshipType: "parent" } }),
      201,
    );
    expect(manual).toMatchObject({ id: change.id, relationshipType: "parent", isAutoGenerated: false });
    await expectError(related.$post({ param: { id: change.id }, json: { targetFaqId: reset.id } }), 409);
    // From the other side the parent is a child.
    expect(await listRelated(change.id)).toMatchObject([{ id: reset.id, relationshipType: "child", isAutoGenerated: false }]);

    // A change of the question recomputes auto links and never overwrites the manual one.
    await expectJson(
      api.v1.faqs[":id"].$patch({ param: { id: change.id }, json: { question: "How do I change my account password?" } }),
      200,
    );
    expect(await listRelated(change.id)).toMatchObject([{ id: reset.id, relationshipType: "child", isAutoGenerated: false }]);

    const seeAlso = await expectJson(
      related.$post({ param: { id: unrelated.id }, json: { targetFaqId: reset.id, relationshipType: "see_also" } }),
      201,
    );
    const unlink = () => api.v1.faqs.relationships[":id"].$delete({ param: { id: seeAlso.relationshipId } });
    expect((await unlink()).status).toBe(204);
    await expectError(unlink(), 404);
    expect(await listRelated(unrelated.id)).toEqual([]);
  });
});

describe("hit tracking: POST /v1/faqs/search with a sessionId · GET /v1/faqs/stats · GET /v1/faqs/:id/stats", () => {
  it("records one hit per returned FAQ after the response, and aggregates them", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const faq = await expectJson(api.v1.faqs.$post({ json: { question: "Where is my invoice?", answer: "Billing → Invoices." } }), 201);
    const other = await expectJson(api.v1.faqs.$post({ json: { question: "How do I add a colleague?", answer: "Team → Invite." } }), 201);
    const day = 24 * 3600 * 1000;
    const t0 = Date.UTC(2026, 0, 10, 12);
    const at = (t: number) => clientWith((real) => ({ ...real, clock: { now: () => t } }), clientKey).v1.faqs.search;
    const s1 = await expectJson(at(t0).$post({ json: { query: "invoice", sessionId: "s-1", limit: 1 } }), 200);
    expect(s1.results.map((r) => r.id)).toEqual([faq.id]);
    await expectJson(at(t0 + 1000).$post({ json: { query: "invoice pdf", sessionId: "s-1", limit: 1 } }), 200);
    await expectJson(at(t0 + day).$post({ json: { query: "where's the invoice", sessionId: "s-2", limit: 1 } }), 200);
    await expectJson(at(t0 + day).$post({ json: { query: "invoice", limit: 1 } }), 200); // no session: no hit

    const stats = await expectJson(api.v1.faqs[":id"].stats.$get({ param: { id: faq.id } }), 200);
    expect(stats).toMatchObject({
      id: faq.id,
      totalHits: 3,
      uniqueSessions: 2,
      daysWithHits: 2,
      lastHitAt: new Date(t0 + day).toISOString(),
    });
    expect(stats.avgScore).toBeGreaterThan(0);
    const hit = await env.DB.prepare("SELECT query_text, session_id, variant_id FROM faq_hits WHERE faq_id = ? ORDER BY hit_at LIMIT 1")
      .bind(faq.id)
      .first();
    expect(hit).toEqual({ query_text: "invoice", session_id: "s-1", variant_id: null });

    const all = await expectJson(api.v1.faqs.stats.$get({ query: {} }), 200);
    expect(all.faqs).toMatchObject([
      { id: faq.id, totalHits: 3 },
      { id: other.id, totalHits: 0, lastHitAt: null, avgScore: null },
    ]);
    expect((await expectJson(api.v1.faqs[":id"].$get({ param: { id: faq.id } }), 200)).stats).toMatchObject({
      totalHits: 3,
      uniqueSessions: 2,
    });
  });
});

describe("POST /v1/faqs/import", () => {
  const ndjson = (lines: unknown[]) => lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n");
  /** An NDJSON body through the typed client: the answer is typed, the body is not JSON so it goes as init. */
  const importNdjson = (api: TestClient, body: string) =>
    api.v1.faqs.import.$post({}, { headers: { "content-type": "application/x-ndjson" }, init: { body } });

  it("imports the good lines, embeds them, and reports each bad line without dropping the rest", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const res = await expectJson(
      importNdjson(
        api,
        ndjson([
          {
            question: "How do I export my data?",
            answer: "Settings → Export.",
            tags: ["data"],
            variants: ["download all my data", "Download all my data!", "data takeout"],
          },
          "{not json",
          { question: "", answer: "missing question" },
          "",
          { question: "Can I pay by invoice?", answer: "Yes, for annual plans." },
          { question: "Odd tags", answer: "x", tags: ["bad tag!"] },
        ]),
      ),
      200,
    );
    expect(res.counts).toEqual({ imported: 2, failed: 3, duplicates: 0, duplicateVariants: 1, indexed: 4, pendingIndex: 0, autoLinked: 0 });
    expect(res.imported).toMatchObject([
      { line: 1, variants: 2 },
      { line: 5, variants: 0 },
    ]);
    expect(res.errors).toMatchObject([
      { line: 2, code: "INVALID_JSON" },
      { line: 3, code: "VALIDATION_FAILED", details: [{ path: "question" }] },
      { line: 6, code: "VALIDATION_FAILED", details: [{ path: "tags.0" }] },
    ]);
    const found = await expectJson(api.v1.faqs.search.$post({ json: { query: "data takeout" } }), 200);
    expect(found.results[0]).toMatchObject({ id: res.imported[0]!.id, matchedVariant: { variantText: "data takeout" } });
  });

  it("refuses a JSON body (415), an empty import (400) and more lines than the batch size (413)", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    // A JSON body on the NDJSON route: sent raw, the typed client would not send it.
    await expectError(send("/v1/faqs/import", { key: clientKey, body: { question: "q", answer: "a" } }), 415);
    // NDJSON sent as JSON: the refusal says which type the route takes.
    const lines = ndjson([
      { question: "q1", answer: "a" },
      { question: "q2", answer: "a" },
    ]);
    const asJson = await expectError(
      send("/v1/faqs/import", { key: clientKey, headers: { "content-type": "application/json" }, raw: lines }),
      400,
      "INVALID_JSON",
    );
    expect(asJson.error.message).toContain("application/x-ndjson");
    await expectError(importNdjson(api, "\n\n"), 400);
    await expectError(importNdjson(api, ndjson(Array.from({ length: 1001 }, (_, i) => ({ question: `q${i}`, answer: "a" })))), 413);
    expect((await expectJson(api.v1.faqs.$get({ query: {} }), 200)).faqs).toEqual([]);
  });

  it("accepts NDJSON only on the import route, and up to its own larger size limit", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    // NDJSON on a JSON route: a deliberately wrong content type, sent raw.
    const elsewhere = await send("/v1/faqs", {
      key: clientKey,
      headers: { "content-type": "application/x-ndjson" },
      raw: JSON.stringify({ question: "q", answer: "a" }),
    });
    expect(elsewhere.status).toBe(415);
    // 300 KiB: over the JSON limit (256 KiB), under the NDJSON one (5 MiB).
    const line = (i: number) => JSON.stringify({ question: `Large import question ${i}?`, answer: "x".repeat(15_000) });
    const big = Array.from({ length: 20 }, (_, i) => line(i)).join("\n");
    expect(big.length).toBeGreaterThan(256 * 1024);
    const ok = await expectJson(importNdjson(api, big), 200);
    expect(ok.counts.imported).toBe(20);
    await expectError(importNdjson(api, "x".repeat(5 * 1024 * 1024 + 1)), 413);
  });
});
