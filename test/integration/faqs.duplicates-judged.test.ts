import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services";
import { scanDuplicates } from "../../src/features/faqs/duplicates";
import { judgeDuplicatesAllTenants } from "../../src/features/faqs/duplicates-judged";
import type { Judge, MergeVerdict } from "../../src/platform/judge/port";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";
import { seedFaq } from "../support/tickets";

/** The model judge, stubbed at its port (Workers AI is remote-only): it calls every pair it is asked the same question, and counts. */
function modelJudge() {
  const asked: string[][] = [];
  const judge: Judge = {
    kind: "workers-ai:@cf/test/judge",
    answerAddsInformation: () => Promise.reject(new Error("not asked here")),
    mergeOrNew: async (a, b): Promise<MergeVerdict> => {
      asked.push([a.question, b.question]);
      return { action: "MERGE", rationale: "both ask how to stop paying for the plan", judge: "workers-ai:@cf/test/judge" };
    },
  };
  return { judge, asked };
}

const stats = (adminKey: string) => expectJson(apiClient(adminKey).v1.pipeline.stats.$get({ query: {} }), 200);

describe("likely duplicate FAQs the decision is not sure of go to the judge, off the request path", () => {
  it("asks the model judge on the cron, lists what it called the same question with its reason, and asks each pair once", async () => {
    const tenant = await newTenant();
    const cancel = await seedFaq(tenant, "How do I cancel my subscription?", "Settings → Billing → Cancel.");
    const end = await seedFaq(tenant, "How do I end my membership?", "Settings → Billing → Cancel.");
    await seedFaq(tenant, "Which payment methods do you accept?", "Cards and PayPal.");
    const base = createServices(env);
    // Close, yet not a sure `same`, and no contrast between them: the decision leaves it open.
    const { unsure } = await scanDuplicates(base, tenant.tenantId);
    const open = unsure.filter((p) => [p.faqId, p.otherFaqId].sort().join() === [cancel, end].sort().join());
    expect(open).toHaveLength(1);
    expect((await stats(tenant.adminKey)).duplicates.pairs).toEqual([]);

    const { judge, asked } = modelJudge();
    const services = { ...base, judge };
    const report = await judgeDuplicatesAllTenants(services);
    expect(report.asked).toBeGreaterThanOrEqual(1);
    expect(asked.some((pair) => pair.includes("How do I end my membership?") && pair.includes("How do I cancel my subscription?"))).toBe(
      true,
    );

    const listed = (await stats(tenant.adminKey)).duplicates;
    expect(listed.pairs).toEqual([expect.objectContaining({ reason: "judge: both ask how to stop paying for the plan" })]);
    expect([listed.pairs[0]!.faqId, listed.pairs[0]!.otherFaqId].sort()).toEqual([cancel, end].sort());
    expect(listed.likelyDuplicates).toBeGreaterThanOrEqual(1);

    // The verdict is cached per pair: the next run asks the model nothing new.
    const before = asked.length;
    await judgeDuplicatesAllTenants(services);
    expect(asked.length).toBe(before);

    // A changed question is another pair: the old verdict is not listed for it.
    await expectJson(
      apiClient(tenant.adminKey).v1.faqs[":id"].$patch({ param: { id: end }, json: { question: "How do I end my membership early?" } }),
      200,
    );
    expect((await stats(tenant.adminKey)).duplicates.pairs).toEqual([]);
  });

  it("asks nothing without a model judge: the heuristic adds nothing the decision lacks", async () => {
    await newTenant();
    expect(await judgeDuplicatesAllTenants(createServices(env))).toEqual({ tenants: 0, asked: 0, same: 0 });
  });
});
