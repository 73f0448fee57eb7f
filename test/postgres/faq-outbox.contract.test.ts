/**
 * The re-index step's failure path on both adapters: each run the embedder fails counts one more
 * attempt on the rows it tried, and after MAX_INDEX_ATTEMPTS they are 'failed' (left for an
 * operator, still found by their words) and the cron stops trying them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faqStore } from "../../src/features/faqs/select";
import { MAX_INDEX_ATTEMPTS } from "../../src/features/indexing/outbox";
import { BACKENDS, type Backends, newTenant, startBackends } from "./support/backends";

let backends: Backends;
beforeAll(async () => {
  backends = await startBackends();
});
afterAll(() => backends?.close());

describe.each(BACKENDS)("FAQ re-index on %s", (backend) => {
  it(`marks rows 'failed' after ${MAX_INDEX_ATTEMPTS} failed attempts and stops trying them`, async () => {
    const tenant = await newTenant(backends);
    const services = backends.services(backend);
    const down = Object.assign(Object.create(services.embedder) as typeof services.embedder, {
      embed: () => Promise.reject(new Error("embedder down")),
    });
    const offline = faqStore({ ...services, embedder: down });
    const faq = await offline.create(tenant, "key_a", {
      question: "Can I change my plan mid-month?",
      answer: "Yes.",
      tags: [],
      metadata: {},
    });
    const variant = await offline.addVariant(tenant, faq.id, "key_a", { variantText: "switch plans during the month", source: "manual" });
    if (!variant.ok) throw new Error(variant.error);
    const states = async () => [
      (await offline.get(tenant, faq.id))?.index_state,
      (await offline.listVariants(tenant, faq.id))[0]?.index_state,
    ];
    // The write itself tried once (D1's outbox counts it; Postgres embeds before the write and counts nothing).
    const tried = backend === "d1" ? 1 : 0;
    for (let run = tried + 1; run < MAX_INDEX_ATTEMPTS; run++) await offline.reindexPending();
    expect(await states()).toEqual(["pending", "pending"]);
    expect(await offline.reindexPending()).toEqual({ attempted: 2, indexed: 0, faqs: [] });
    expect(await states()).toEqual(["failed", "failed"]);
    expect(await offline.reindexPending()).toEqual({ attempted: 0, indexed: 0, faqs: [] });
    expect((await offline.list(tenant, { limit: 10, q: "change plan" })).rows.map((r) => r.id)).toEqual([faq.id]);
  });
});
