/**
 * Issue 31: a deployed Recall fits its own similarity scale on the labels a tenant already holds
 * (its FAQs and their variants), stores it versioned in D1, puts it in force for that tenant only,
 * and refuses a fit it cannot trust. On the real local embedder, and on the same model with every
 * cosine raised the way BGE's sit high (src/adapters/embeddings/shifted.ts), where raw cosine decides badly.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { forgetScales } from "../../src/features/calibration/in-force";
import { startFit } from "../../src/features/self-fit/job";
import { checkReference, REFERENCE_MIN_AGREEMENT } from "../../src/features/self-fit/reference";
import { shiftedEmbedder } from "../../src/adapters/embeddings/shifted";
import { createApp } from "../../src/app/app";
import { createServices } from "../../src/app/services";
import { type Services } from "../../src/platform/ports/services";
import { REINDEX_CRON } from "../../src/app/cron";
import { exactD1Index } from "../../src/adapters/vectors/exact-d1";
import worker from "../../workers/api";
import { SELF_FIT_KB } from "../fixtures/self-fit-kb";
import { newTenant, send } from "../support/api";
import { clientWith } from "../support/app";
import { apiClient, expectError, expectJson, type TestClient } from "../support/client";

type Api = TestClient | ReturnType<typeof clientWith>;

/** The KB as one NDJSON import: each FAQ with its two rewordings as variants. */
async function importKb(adminKey: string, kb = SELF_FIT_KB, override?: (s: Services) => Services) {
  const body = kb.map((f) => JSON.stringify({ question: f.question, answer: `About: ${f.question}`, variants: f.variants })).join("\n");
  const request = new Request("https://recall.test/v1/faqs/import", {
    method: "POST",
    body,
    headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/x-ndjson" },
  });
  const app = createApp(override ? { services: (e) => override(createServices(e)) } : {});
  const ctx = createExecutionContext();
  const res = await app.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(200);
}

/** Calls POST /v1/admin/calibration/fit until the fit is no longer running. */
async function fitToEnd(api: Api, json: { sources?: ("faqs" | "reviews" | "uploaded")[]; scope?: "tenant" | "deployment" } = {}) {
  for (let call = 0; call < 30; call++) {
    const res = await api.v1.admin.calibration.fit.$post({ json });
    const body = (await res.json()) as {
      status: string;
      reason: string | null;
      version: number | null;
      report: Record<string, unknown> | null;
    };
    if (res.status === 200) return body;
    expect(res.status).toBe(202);
    expect(body.status).toBe("running");
  }
  throw new Error("the fit did not finish in 30 calls");
}

/** Held-out pairs, none from the KB: rewordings and unrelated questions in the same domains. */
const HELD_OUT = [
  { a: "How do I update my billing email?", b: "change the email address that receives my invoices", same: true },
  { a: "How do I turn off email notifications?", b: "stop sending me notification emails", same: true },
  { a: "How do I upgrade to the Pro plan?", b: "switch my account to the Pro subscription", same: true },
  { a: "How do I list all running containers?", b: "show every docker container that is currently running", same: true },
  { a: "Do plants feel pain?", b: "can a plant experience pain", same: true },
  { a: "How do I update my billing email?", b: "Why is the ocean salty?", same: false },
  { a: "How do I turn off email notifications?", b: "How do I center a div with CSS?", same: false },
  { a: "How do I upgrade to the Pro plan?", b: "Do plants feel pain?", same: false },
  { a: "How do I list all running containers?", b: "What makes a song catchy?", same: false },
  { a: "Do plants feel pain?", b: "How do I export my data as CSV?", same: false },
];

async function explain(api: Api) {
  return Promise.all(
    HELD_OUT.map(async (p) => {
      const res = await api.v1.similarity.explain.$post({ json: { a: p.a, b: p.b } });
      const body = (await res.json()) as { similarity: number; decision: string };
      return { ...p, similarity: body.similarity, decision: body.decision };
    }),
  );
}

/** Band agreement of the held-out pairs: a rewording ≥ 0.80, an unrelated pair < 0.60. */
const agreement = (rows: { same: boolean; similarity: number }[]) =>
  rows.filter((r) => (r.same ? r.similarity >= 0.8 : r.similarity < 0.6)).length / rows.length;

describe("POST /v1/admin/calibration/fit on the local model", () => {
  it("fits the tenant's scale from its FAQs alone, stores version 1 and puts it in force for that tenant only", async () => {
    forgetScales();
    const { adminKey } = await newTenant("self-fit");
    const other = await newTenant("other");
    await importKb(adminKey);
    const admin = apiClient(adminKey);

    const before = await expectJson(admin.v1.admin.calibration.$get(), 200);
    expect(before.inForce.source).toEqual({ kind: "shipped" });

    const fit = await fitToEnd(admin, { sources: ["faqs"] });
    expect(fit.reason).toBeNull();
    expect(fit.status).toBe("stored");
    expect(fit.version).toBe(1);
    const report = fit.report as { pairs: number; bySource: { faqs: Record<string, number> }; auc: { value: number; interval: number[] } };
    expect(report.bySource.faqs.paraphrase).toBe(72);
    expect(report.bySource.faqs.unrelated).toBeGreaterThanOrEqual(30);
    // Raw cosine tells a rewording from a near-topic question only so well on this model.
    expect(report.auc.value).toBeGreaterThan(0.6);
    expect(report.auc.interval[0]).toBeLessThanOrEqual(report.auc.value);

    const after = await expectJson(admin.v1.admin.calibration.$get(), 200);
    expect(after.inForce).toMatchObject({ calibrated: true, source: { kind: "tenant", version: 1 } });
    expect(after.precedence.map((p) => [p.level, p.available])).toEqual([
      ["tenant", true],
      ["deployment", false],
      ["shipped", true],
      ["raw", true],
    ]);
    // Another tenant, and /healthz (the deployment's scale), still read the shipped table.
    const theirs = await expectJson(apiClient(other.adminKey).v1.admin.calibration.$get(), 200);
    expect(theirs.inForce.source).toEqual({ kind: "shipped" });
    const health = (await (await send("/healthz")).json()) as { adapters: { embedder: { calibration: { source: unknown } } } };
    expect(health.adapters.embedder.calibration.source).toEqual({ kind: "shipped" });

    const versions = await expectJson(admin.v1.admin.calibration.versions.$get({ query: {} }), 200);
    expect(versions.versions).toHaveLength(1);
    expect(versions.versions[0]).toMatchObject({ version: 1, active: true, pairs: report.pairs });
  });

  it("puts no fit in force that would call a rewording different or unrelated questions the same (hardening round 3)", async () => {
    forgetScales();
    const { adminKey } = await newTenant("poisoned");
    const admin = apiClient(adminKey);
    const services = createServices(env);
    // A scale whose thresholds went to 1, as a fit on labels with their answers swapped once made: it fails the reference pairs.
    const shipped = services.embedder.scale;
    const broken = {
      ...shipped,
      decision: { ...shipped.decision!, embedding: { ...shipped.decision!.embedding, relatedMin: 1, sameMin: 1 } },
    };
    expect((await checkReference(services.embedder, shipped)).agreement).toBeGreaterThanOrEqual(REFERENCE_MIN_AGREEMENT);
    const failed = await checkReference(services.embedder, broken);
    expect(failed.agreement).toBeLessThan(REFERENCE_MIN_AGREEMENT);
    expect(failed.wrong[0]).toMatchObject({ label: "paraphrase", relation: "different" });
    // Labels swapped (each FAQ's rewordings called unrelated, different FAQs' questions the same): whatever the fit
    // makes of them, the tenant never calls "reset my password" and its rewording different, and an honest fit goes in force.
    const swapped = [
      ...SELF_FIT_KB.flatMap((f) => f.variants.map((v) => ({ a: f.question, b: v, label: "unrelated" as const }))),
      ...SELF_FIT_KB.map((f, i) => ({
        a: f.question,
        b: SELF_FIT_KB[(i + 7) % SELF_FIT_KB.length]!.question,
        label: "paraphrase" as const,
      })),
    ];
    await expectJson(admin.v1.admin.calibration.pairs.$post({ json: { pairs: swapped } }), 200);
    const poisoned = await fitToEnd(admin, { sources: ["uploaded"] });
    const reference = (poisoned.report as { reference?: { inForce: boolean } } | null)?.reference;
    if (poisoned.status === "stored" && reference?.inForce === false) {
      const versions = await expectJson(admin.v1.admin.calibration.versions.$get({ query: {} }), 200);
      expect(versions.versions[0]).toMatchObject({ version: poisoned.version, active: false });
    }
    const decided = await expectJson(
      admin.v1.similarity.explain.$post({ json: { a: "How do I reset my password?", b: "How can I reset my password?" } }),
      200,
    );
    expect(decided.decision).not.toBe("different");
    await importKb(adminKey);
    const honest = await fitToEnd(admin, { sources: ["faqs"] });
    expect(honest).toMatchObject({ status: "stored", report: { reference: { inForce: true } } });
    expect((await expectJson(admin.v1.admin.calibration.$get(), 200)).inForce.source).toMatchObject({
      kind: "tenant",
      version: honest.version,
    });
  });

  it("keeps versions: a second fit is version 2, the two compare, and a rollback puts version 1 back in force", async () => {
    forgetScales();
    const { adminKey } = await newTenant("self-fit versions");
    await importKb(adminKey);
    const admin = apiClient(adminKey);
    expect(await fitToEnd(admin, { sources: ["faqs"] })).toMatchObject({ status: "stored", version: 1 });
    expect(await fitToEnd(admin, { sources: ["faqs"] })).toMatchObject({ status: "stored", version: 2 });

    const compared = await expectJson(admin.v1.admin.calibration.compare.$get({ query: { from: "1", to: "2" } }), 200);
    expect(compared.from.version).toBe(1);
    expect(compared.maxSimilarityDifference).toBe(0); // the same labels fit the same map

    await expectJson(admin.v1.admin.calibration.rollback[":version"].$post({ param: { version: "1" }, query: {} }), 200);
    const now = await expectJson(admin.v1.admin.calibration.$get(), 200);
    expect(now.inForce.source).toMatchObject({ kind: "tenant", version: 1 });
    await expectError(admin.v1.admin.calibration.rollback[":version"].$post({ param: { version: "9" }, query: {} }), 404, "NOT_FOUND");
  });

  it("refuses a fit with too few labelled pairs, and says why", async () => {
    const { adminKey } = await newTenant("self-fit small");
    await importKb(adminKey, SELF_FIT_KB.slice(0, 6));
    const fit = await fitToEnd(apiClient(adminKey), { sources: ["faqs"] });
    expect(fit.status).toBe("refused");
    expect(fit.reason).toMatch(/too few pairs labelled paraphrase \(12 < 30\)/);
    const overview = await expectJson(apiClient(adminKey).v1.admin.calibration.$get(), 200);
    expect(overview.inForce.source).toEqual({ kind: "shipped" });
  });

  it("lets only admins in, and only the operator's tenant fit the deployment's scale", async () => {
    const { adminKey, clientKey } = await newTenant("self-fit auth");
    await expectError(apiClient(clientKey).v1.admin.calibration.$get(), 403, "FORBIDDEN");
    await expectError(apiClient(adminKey).v1.admin.calibration.fit.$post({ json: { scope: "deployment" } }), 403, "FORBIDDEN");
    await expectError(apiClient(adminKey).v1.admin.calibration.fit.$post({ json: { sources: [] } }), 400, "VALIDATION_FAILED");
  });
});

describe("uploaded pairs", () => {
  it("stores pairs, replaces a pair's label when it comes again, and refuses an unknown label", async () => {
    const admin = apiClient((await newTenant("pairs")).adminKey);
    const a = "How do I reset my password?";
    const first = await expectJson(
      admin.v1.admin.calibration.pairs.$post({
        json: {
          pairs: [
            { a, b: "I forgot my password", label: "same" },
            { a, b: "Why is the ocean salty?", label: "unrelated" },
          ],
        },
      }),
      200,
    );
    expect(first).toEqual({ stored: 2, total: 2 });
    const again = await expectJson(
      admin.v1.admin.calibration.pairs.$post({ json: { pairs: [{ a, b: "I forgot my password", label: "different" }] } }),
      200,
    );
    expect(again).toEqual({ stored: 1, total: 2 });
    const bad = await send("/v1/admin/calibration/pairs", {
      key: (await newTenant()).adminKey,
      body: { pairs: [{ a, b: "x", label: "maybe" }] },
    });
    expect(bad.status).toBe(400);
    expect(await expectJson(admin.v1.admin.calibration.pairs.$delete(), 200)).toEqual({ deleted: 2 });
  });
});

describe("a model whose raw cosine sits high (the local model, shifted like BGE)", () => {
  const shifted = (real: Services): Services => {
    const embedder = shiftedEmbedder(real.embedder);
    return { ...real, embedder, vectors: exactD1Index(env.DB, embedder.model, embedder.dimensions, env.CACHE) };
  };

  it("decides badly on raw cosine, and the self-fit from the FAQs recovers the decisions", async () => {
    forgetScales();
    const { adminKey } = await newTenant("self-fit shifted");
    await importKb(adminKey, SELF_FIT_KB, shifted);
    const admin = clientWith(shifted, adminKey);

    const before = await expectJson(admin.v1.admin.calibration.$get(), 200);
    expect(before.inForce).toMatchObject({ calibrated: false, model: "use-lite-512+shifted", source: { kind: "raw" } });
    const raw = await explain(admin);

    const fit = await fitToEnd(admin, { sources: ["faqs"] });
    expect(fit.reason).toBeNull();
    expect(fit.status).toBe("stored");
    const fitted = await explain(admin);

    // Raw: unrelated questions read as related (≥ 0.60); the self-fit sends them back below.
    const rows = JSON.stringify({ raw, fitted });
    const unrelatedShown = (of: typeof raw) => of.filter((r) => !r.same && r.decision !== "different").length;
    expect(
      raw.filter((r) => !r.same).every((r) => r.similarity >= 0.6),
      rows,
    ).toBe(true);
    expect(agreement(raw), rows).toBeLessThanOrEqual(0.6);
    expect(agreement(fitted), rows).toBeGreaterThanOrEqual(0.8);
    expect(unrelatedShown(fitted), rows).toBeLessThanOrEqual(unrelatedShown(raw) - 3);
  });
});

describe("the five-minute cron", () => {
  it("goes on with a running fit until it is done", async () => {
    forgetScales();
    const { tenantId, adminKey } = await newTenant("self-fit cron");
    await importKb(adminKey);
    const services = createServices(env);
    const { fit } = await startFit(services, { scope: tenantId, tenantId, model: services.embedder.model, sources: ["faqs"], by: "test" });
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: REINDEX_CRON, scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    const read = await expectJson(apiClient(adminKey).v1.admin.calibration.fits[":id"].$get({ param: { id: fit.id } }), 200);
    expect(read).toMatchObject({ status: "stored", reason: null });
  });
});
