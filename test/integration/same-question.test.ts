/**
 * Same question or not, through the API (issue 30's cases, on the real local embedder): record-time
 * dedupe, "asked before", the show's block and the ticket pipeline all act alone only on a sure
 * `same`, and say why when they do not; POST /v1/similarity/explain shows the decision itself.
 */
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/core/base/clock";
import { RELATED_QUESTION_MARK } from "../../src/features/context/markdown";
import { newTenant, send } from "../support/api";
import { embedderDown, clientWith } from "../support/app";
import { apiClient, expectError, expectJson } from "../support/client";
import { showClient } from "../support/shows";
import { deliver, expectDelivered, newWebhookSecret, seedFaq, ticket, waitForDecision } from "../support/tickets";

const MIN = 60_000;

describe("POST /v1/similarity/explain", () => {
  it("explains a pair that differs by a code: related, with the contrast as evidence", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const res = await expectJson(
      api.v1.similarity.explain.$post({ json: { a: "What does error E500 mean?", b: "What does error E501 mean?" } }),
      200,
    );
    expect(res).toMatchObject({
      model: "use-lite-512",
      decision: "related",
      reason: "differs: e500 ≠ e501",
      evidence: { method: "embedding", contrasts: [{ kind: "code", detail: "e500 ≠ e501" }] },
      degraded: [],
    });
    expect(res.similarity).toBeGreaterThan(0.8);
    expect(res.rawCosine).toBeGreaterThan(0.5);
  });

  it("calls a rewording with the same words the same question, and two unrelated questions different", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const same = await expectJson(
      api.v1.similarity.explain.$post({ json: { a: "How do I reset my password?", b: "how can I reset my password" } }),
      200,
    );
    expect(same).toMatchObject({ decision: "same", evidence: { contrasts: [] } });
    expect(same.confidence).toBeGreaterThan(0.9);
    const unrelated = await expectJson(
      api.v1.similarity.explain.$post({
        json: { a: "How do I run only one test file with vitest?", b: "Where is the config for the CORS allowed origins?" },
      }),
      200,
    );
    expect(unrelated.decision).toBe("different");
  });

  it("decides by shared words when the embedder is down, and says so", async () => {
    const { clientKey } = await newTenant();
    const api = clientWith(embedderDown, clientKey);
    const res = await expectJson(api.v1.similarity.explain.$post({ json: { a: "How do I enable 2FA?", b: "How do I disable 2FA?" } }), 200);
    expect(res).toMatchObject({ similarity: null, rawCosine: null, decision: "related", degraded: ["embeddings"] });
    expect(res.evidence.method).toBe("lexical");
  });

  it("answers 400 for a missing or empty text and 401 without a key", async () => {
    const { clientKey } = await newTenant();
    await expectError(send("/v1/similarity/explain", { key: clientKey, body: { a: "x" } }), 400);
    await expectError(send("/v1/similarity/explain", { key: clientKey, body: { a: " ", b: "y" } }), 400);
    await expectError(send("/v1/similarity/explain", { key: clientKey, body: { a: "x".repeat(2001), b: "y" } }), 400);
    await expectError(send("/v1/similarity/explain", { body: { a: "x", b: "y" } }), 401);
  });
});

/** The question a call to /v1/questions/similar recorded. */
function recordedOf(res: { isQuestion: boolean; recorded?: { id: string; deduplicated: boolean } }) {
  expect(res.recorded).toBeDefined();
  return res.recorded!;
}

describe("record-time dedupe acts only on a sure same question", () => {
  it("stores 'set environment variables for a Vercel deployment' after 'deploy this to Vercel' and counts a verbatim repeat", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:vercel-dedupe";
    const ask = async (text: string) => recordedOf(await expectJson(api.v1.questions.similar.$post({ json: { scope, text } }), 200));
    const deploy = await ask("How do I deploy this to Vercel?");
    const envVars = await ask("How do I set environment variables for a Vercel deployment?");
    expect(envVars.deduplicated).toBe(false);
    expect(envVars.id).not.toBe(deploy.id);
    expect(await ask("How do I deploy this to Vercel?")).toEqual({ id: deploy.id, deduplicated: true });
  });

  it("keeps 'disable two-factor' apart from 'enable two-factor'", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:2fa-dedupe";
    const ask = async (text: string) => recordedOf(await expectJson(api.v1.questions.similar.$post({ json: { scope, text } }), 200));
    const enable = await ask("How do I enable two-factor authentication?");
    const disable = await ask("How do I disable two-factor authentication?");
    expect(disable.deduplicated).toBe(false);
    expect(disable.id).not.toBe(enable.id);
  });
});

describe("asked before never shows an unrelated question, and marks a related one", () => {
  it("leaves out the vitest question for a CORS question, and shows enable for disable as related, with why", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "user:asked-before";
    for (const content of ["How do I run only one test file with vitest?", "How do I enable two-factor authentication?"]) {
      await expectJson(api.v1.memories.$post({ json: { scope, content, memoryType: "question" } }), 201);
    }
    const cors = await expectJson(
      api.v1.questions.similar.$post({ json: { scope, text: "Where is the config for the CORS allowed origins?", record: false } }),
      200,
    );
    expect(cors.questions.map((q) => q.content)).not.toContain("How do I run only one test file with vitest?");

    const disable = await expectJson(
      api.v1.questions.similar.$post({ json: { scope, text: "How do I disable two-factor authentication?", record: false } }),
      200,
    );
    expect(disable.questions[0]).toMatchObject({
      content: "How do I enable two-factor authentication?",
      relation: "related",
      reason: "differs: disable ≠ enable",
    });

    const context = await expectJson(api.v1.context.$post({ json: { scope, prompt: "How do I disable two-factor authentication?" } }), 200);
    expect(context.markdown).toContain(`1. How do I enable two-factor authentication? ${RELATED_QUESTION_MARK}`);
    expect(context.markdown).not.toContain("vitest");
  });
});

describe("the show blocks only a sure repeat, and penalizes a different question with the reason", () => {
  it("lets 'disable 2FA' through after 'enable 2FA' with the contrast in the warning, and blocks the question asked again", async () => {
    const { clientKey } = await newTenant();
    const clock = fixedClock(Date.UTC(2026, 10, 27, 10, 0));
    const show = showClient(clientKey, clock).show("same-question");
    await expectJson(
      show.rank({ candidates: [{ text: "How do I enable two-factor authentication?", model: "gpt", confidence: 0.9 }] }),
      200,
    );
    clock.set(Date.UTC(2026, 10, 27, 10, 0) + 5 * MIN);
    const check = await expectJson(show.check({ text: "How do I disable two-factor authentication?" }), 200);
    expect(check).toMatchObject({ isSimilar: false, evidence: "differs: disable ≠ enable" });

    const next = await expectJson(
      show.rank({
        candidates: [
          { text: "How do I disable two-factor authentication?", model: "gpt", confidence: 0.9 },
          { text: "How do I enable two-factor authentication?", model: "claude", confidence: 0.8 },
        ],
      }),
      200,
    );
    expect(next.filtered).toEqual([
      expect.objectContaining({
        text: "How do I enable two-factor authentication?",
        reason: "similar_to_recent",
        evidence: expect.stringMatching(/^same question/),
      }),
    ]);
    const disable = next.picks.find((p) => p.text === "How do I disable two-factor authentication?");
    expect(disable).toBeDefined();
    expect(disable!.warnings[0]).toMatchObject({ kind: "penalized", evidence: "differs: disable ≠ enable" });
    expect(disable!.warnings[0]!.message).toContain("(differs: disable ≠ enable)");
  });
});

describe("the ticket pipeline stages what it is not sure of, with the evidence", () => {
  async function decide(faq: [string, string], question: string, answer: string) {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, ...faq);
    const secret = await newWebhookSecret(tenant);
    const decided = await waitForDecision(tenant, (await expectDelivered(deliver(tenant, secret, ticket(question, answer)))).id);
    return { tenant, faqId, decided };
  }

  it("stages E501 as NEW against the E500 FAQ, saying what differs", async () => {
    const { decided } = await decide(
      ["What does error E500 mean?", "E500 is an internal server error: retry, and contact support if it persists."],
      "What does error E501 mean?",
      "E501 means the feature is not implemented on your plan.",
    );
    expect(decided.decision).toMatchObject({ action: "NEW" });
    expect(decided.decision!.stagingId).toEqual(expect.any(String));
    expect(decided.decision!.rationale).toContain("differs: e501 ≠ e500");
  });

  it("stages 'disable two-factor' as NEW against 'enable two-factor'", async () => {
    const { decided } = await decide(
      ["How do I enable two-factor authentication?", "Open Settings → Security and turn on two-factor authentication."],
      "How do I disable two-factor authentication?",
      "Open Settings → Security and turn off two-factor authentication.",
    );
    expect(decided.decision).toMatchObject({ action: "NEW" });
    expect(decided.decision!.rationale).toContain("differs: disable ≠ enable");
  });

  it("stages a close rewording it is not sure of as a MERGE for review instead of a live variant", async () => {
    const { decided } = await decide(
      ["How long does a refund take to arrive?", "Refunds reach your card within 5 to 10 business days after we receive the return."],
      "How long until I get my refund?",
      "Within 5 to 10 business days.",
    );
    expect(decided.decision).toMatchObject({ action: "MERGE" });
    expect(decided.decision!.variantId).toBeNull();
    expect(decided.decision!.rationale).toContain("same-question decision: related (");
  });
});
