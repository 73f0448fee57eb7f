import { describe, expect, it } from "vitest";
import { call, newTenant } from "../support/api";

describe("GET /v1/admin/metrics: question detection rate (seed 000: % of messages that are questions)", () => {
  it("counts trivial prompts in the denominator", async () => {
    const { clientKey, adminKey } = await newTenant();
    const scope = "user:detection";
    for (const prompt of ["ok", "/commit", "thanks a lot!", "How do I deploy to Vercel?", "Summarize the release notes for me"]) {
      expect((await call("/v1/context", { key: clientKey, body: { scope, prompt } })).status).toBe(200);
    }
    const res = await call("/v1/admin/metrics", { key: adminKey });
    expect(res.json?.recall).toMatchObject({ prompts: 5, trivialPrompts: 3, questionDetectionRate: 0.2 });
    // Latency percentiles describe searched prompts only: a trivial one costs nothing.
    expect(res.json?.recall.contextLatencyMs.samples).toBe(2);
  });
});
