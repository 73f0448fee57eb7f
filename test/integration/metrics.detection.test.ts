import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";

describe("GET /v1/admin/metrics: question detection rate (seed 000: % of messages that are questions)", () => {
  it("counts trivial prompts in the denominator", async () => {
    const { clientKey, adminKey } = await newTenant();
    const scope = "user:detection";
    for (const prompt of ["ok", "/commit", "thanks a lot!", "How do I deploy to Vercel?", "Summarize the release notes for me"]) {
      await expectJson(apiClient(clientKey).v1.context.$post({ json: { scope, prompt } }), 200);
    }
    const { recall } = await expectJson(apiClient(adminKey).v1.admin.metrics.$get(), 200);
    // "Summarize the release notes for me" asks for information: a need, as much as the question is.
    expect(recall).toMatchObject({ prompts: 5, trivialPrompts: 3, questionDetectionRate: 0.4 });
    // Latency percentiles describe searched prompts only: a trivial one costs nothing.
    expect(recall.contextLatencyMs.samples).toBe(2);
  });
});
