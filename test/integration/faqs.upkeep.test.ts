import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/clock";
import { FAQ_VERSION_RETENTION_DAYS } from "../../src/faqs/versions";
import { createServices, type Services } from "../../src/services";
import { REINDEX_CRON, RETENTION_CRON, runCron } from "../../src/upkeep/cron";
import worker from "../../workers/api";
import { call, newTenant } from "../support/api";
import { callWith, embedderDown, vectorIndexDown } from "../support/app";

const DAY = 24 * 3600 * 1000;

describe(`daily retention (${RETENTION_CRON}): FAQ versions older than 90 days`, () => {
  it("keeps a version exactly 90 days old and deletes one 90 days + 1 ms old", async () => {
    const { clientKey } = await newTenant();
    const t0 = Date.UTC(2026, 0, 1);
    const clock = fixedClock(t0);
    const at = (real: Services): Services => ({ ...real, clock });
    const faq = (await callWith(at, "/v1/faqs", clientKey, { question: "How long are versions kept?", answer: "v1" })).json;
    await callWith(at, `/v1/faqs/${faq.id}`, clientKey, { answer: "v2" }, "PATCH"); // version 1, changed at t0
    clock.set(t0 + 1);
    await callWith(at, `/v1/faqs/${faq.id}`, clientKey, { answer: "v3" }, "PATCH"); // version 2, changed at t0 + 1 ms
    const numbers = async () => (await call(`/v1/faqs/${faq.id}/versions`, { key: clientKey })).json!.versions.map((v: { versionNumber: number }) => v.versionNumber);
    expect(await numbers()).toEqual([2, 1]);

    const retention = (now: number) => runCron(RETENTION_CRON, createServices(env, fixedClock(now)));
    // Exactly 90 days after version 1: both stay.
    expect((await retention(t0 + FAQ_VERSION_RETENTION_DAYS * DAY)).faqVersions).toEqual({ deleted: 0 });
    expect(await numbers()).toEqual([2, 1]);
    // One millisecond later: version 1 is older than 90 days, version 2 is exactly 90 days old.
    expect((await retention(t0 + FAQ_VERSION_RETENTION_DAYS * DAY + 1)).faqVersions).toEqual({ deleted: 1 });
    expect(await numbers()).toEqual([2]);
    // The FAQ itself is untouched, and numbering goes on (never reuses a deleted number).
    const v4 = await call(`/v1/faqs/${faq.id}`, { key: clientKey, method: "PATCH", body: { answer: "v4" } });
    expect(v4.json).toMatchObject({ version: 4, answer: "v4" });
    expect(await numbers()).toEqual([3, 2]);
  });
});

describe(`re-index cron (${REINDEX_CRON}) and faults`, () => {
  it("stores FAQs and variants while the embedder is down (pending), finds them lexically, and indexes them on the cron", async () => {
    const { clientKey } = await newTenant();
    const faq = await callWith(embedderDown, "/v1/faqs", clientKey, { question: "Where do I find the VPN settings?", answer: "Under Network." });
    expect(faq.status).toBe(201);
    expect(faq.json.indexState).toBe("pending");
    const variant = await callWith(embedderDown, `/v1/faqs/${faq.json.id}/variants`, clientKey, { variantText: "remote access configuration" });
    expect(variant.json.indexState).toBe("pending");

    const lexical = await callWith(embedderDown, "/v1/faqs/search", clientKey, { query: "VPN settings" });
    expect(lexical.json).toMatchObject({ degraded: ["embeddings"], results: [{ id: faq.json.id, matchType: ["canonical_bm25"] }] });
    // Not in the vector index yet: a paraphrase with no shared word finds nothing.
    expect((await call("/v1/faqs/search", { key: clientKey, body: { query: "how can I configure remote access", weights: { bm25: 0, vector: 1 } } })).json!.results).toEqual([]);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: REINDEX_CRON, scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);

    const detail = (await call(`/v1/faqs/${faq.json.id}`, { key: clientKey })).json!;
    expect(detail.indexState).toBe("indexed");
    expect(detail.variants[0].indexState).toBe("indexed");
    const found = await call("/v1/faqs/search", { key: clientKey, body: { query: "how can I configure remote access", weights: { bm25: 0, vector: 1 } } });
    expect(found.json!.results[0]).toMatchObject({ id: faq.json.id });
    expect(found.json!.results[0].matchType).toEqual(expect.arrayContaining(["canonical_vector", "variant_vector"]));
  });

  it("answers lexically with degraded: vector_index when the index cannot be queried", async () => {
    const { clientKey } = await newTenant();
    const faq = (await call("/v1/faqs", { key: clientKey, body: { question: "How do I book a meeting room?", answer: "Use the calendar." } })).json!;
    const res = await callWith(vectorIndexDown, "/v1/faqs/search", clientKey, { query: "book meeting room" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ degraded: ["vector_index"], results: [{ id: faq.id, matchType: ["canonical_bm25"] }] });
  });
});
