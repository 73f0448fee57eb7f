import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/core/base/clock";
import { FAQ_VERSION_RETENTION_DAYS } from "../../src/features/faqs/versions";
import { createServices } from "../../src/app/services";
import { type Services } from "../../src/platform/ports/services";
import { REINDEX_CRON, RETENTION_CRON, runCron } from "../../src/app/cron";
import worker from "../../workers/api";
import { newTenant } from "../support/api";
import { clientWith, embedderDown, vectorIndexDown } from "../support/app";
import { apiClient, expectJson } from "../support/client";

const DAY = 24 * 3600 * 1000;

describe(`daily retention (${RETENTION_CRON}): FAQ versions older than 90 days`, () => {
  it("keeps a version exactly 90 days old and deletes one 90 days + 1 ms old", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const t0 = Date.UTC(2026, 0, 1);
    const clock = fixedClock(t0);
    const at = clientWith((real: Services): Services => ({ ...real, clock }), clientKey);
    const faq = await expectJson(at.v1.faqs.$post({ json: { question: "How long are versions kept?", answer: "v1" } }), 201);
    const param = { id: faq.id };
    await expectJson(at.v1.faqs[":id"].$patch({ param, json: { answer: "v2" } }), 200); // version 1, changed at t0
    clock.set(t0 + 1);
    await expectJson(at.v1.faqs[":id"].$patch({ param, json: { answer: "v3" } }), 200); // version 2, changed at t0 + 1 ms
    const numbers = async () =>
      (await expectJson(api.v1.faqs[":id"].versions.$get({ param, query: {} }), 200)).versions.map((v) => v.versionNumber);
    expect(await numbers()).toEqual([2, 1]);

    const retention = (now: number) => runCron(RETENTION_CRON, createServices(env, fixedClock(now)));
    // Exactly 90 days after version 1: both stay.
    expect((await retention(t0 + FAQ_VERSION_RETENTION_DAYS * DAY)).faqVersions).toEqual({ deleted: 0 });
    expect(await numbers()).toEqual([2, 1]);
    // One millisecond later: version 1 is older than 90 days, version 2 is exactly 90 days old.
    expect((await retention(t0 + FAQ_VERSION_RETENTION_DAYS * DAY + 1)).faqVersions).toEqual({ deleted: 1 });
    expect(await numbers()).toEqual([2]);
    // The FAQ itself is untouched, and numbering goes on (never reuses a deleted number).
    const v4 = await expectJson(api.v1.faqs[":id"].$patch({ param, json: { answer: "v4" } }), 200);
    expect(v4).toMatchObject({ version: 4, answer: "v4" });
    expect(await numbers()).toEqual([3, 2]);
  });
});

describe(`re-index cron (${REINDEX_CRON}) and faults`, () => {
  it("stores FAQs and variants while the embedder is down (pending), finds them lexically, and indexes them on the cron", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const down = clientWith(embedderDown, clientKey);
    const faq = await expectJson(
      down.v1.faqs.$post({ json: { question: "Where do I find the VPN settings?", answer: "Under Network." } }),
      201,
    );
    expect(faq.indexState).toBe("pending");
    const variant = await expectJson(
      down.v1.faqs[":id"].variants.$post({ param: { id: faq.id }, json: { variantText: "remote access configuration" } }),
      201,
    );
    expect(variant.indexState).toBe("pending");

    const lexical = await expectJson(down.v1.faqs.search.$post({ json: { query: "VPN settings" } }), 200);
    expect(lexical).toMatchObject({ degraded: ["embeddings"], results: [{ id: faq.id, matchType: ["canonical_bm25"] }] });
    // Not in the vector index yet: a paraphrase with no shared word finds nothing.
    const byMeaning = () =>
      expectJson(api.v1.faqs.search.$post({ json: { query: "how can I configure remote access", weights: { bm25: 0, vector: 1 } } }), 200);
    expect((await byMeaning()).results).toEqual([]);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: REINDEX_CRON, scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);

    const detail = await expectJson(api.v1.faqs[":id"].$get({ param: { id: faq.id } }), 200);
    expect(detail.indexState).toBe("indexed");
    expect(detail.variants[0]!.indexState).toBe("indexed");
    const found = await byMeaning();
    expect(found.results[0]).toMatchObject({ id: faq.id });
    expect(found.results[0]!.matchType).toEqual(expect.arrayContaining(["canonical_vector", "variant_vector"]));
  });

  it("gives an FAQ indexed late the automatic related links its create could not compute", async () => {
    const { clientKey } = await newTenant();
    const api = apiClient(clientKey);
    const e500 = await expectJson(api.v1.faqs.$post({ json: { question: "What does error E500 mean?", answer: "A server fault." } }), 201);
    const down = clientWith(embedderDown, clientKey);
    const e501 = await expectJson(
      down.v1.faqs.$post({ json: { question: "What does error E501 mean?", answer: "Not implemented." } }),
      201,
    );
    const related = async () =>
      (await expectJson(api.v1.faqs[":id"].related.$get({ param: { id: e501.id }, query: {} }), 200)).related.map((r) => r.id);
    expect(await related()).toEqual([]);

    const report = await runCron(REINDEX_CRON, createServices(env));
    expect((report.reindexFaqs as { linked: number }).linked).toBeGreaterThanOrEqual(1);
    expect(await related()).toEqual([e500.id]);
  });

  it("answers lexically with degraded: vector_index when the index cannot be queried", async () => {
    const { clientKey } = await newTenant();
    const faq = await expectJson(
      apiClient(clientKey).v1.faqs.$post({ json: { question: "How do I book a meeting room?", answer: "Use the calendar." } }),
      201,
    );
    const res = await expectJson(
      clientWith(vectorIndexDown, clientKey).v1.faqs.search.$post({ json: { query: "book meeting room" } }),
      200,
    );
    expect(res).toMatchObject({ degraded: ["vector_index"], results: [{ id: faq.id, matchType: ["canonical_bm25"] }] });
  });
});
