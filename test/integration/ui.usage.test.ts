import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";
import { uiBrowser } from "../support/ui";

describe("GET /ui/faqs/usage", () => {
  it("shows the hit chart of all FAQs, the most used, the trend and the never-used, for the key's tenant", async () => {
    const tenant = await newTenant();
    const api = apiClient(tenant.adminKey);
    const used = await expectJson(api.v1.faqs.$post({ json: { question: "How long does a refund take?", answer: "5–10 days." } }), 201);
    await expectJson(api.v1.faqs.$post({ json: { question: "Do you have a mobile app?", answer: "Not yet." } }), 201);
    for (const [session, daysAgo] of [
      ["a", 0],
      ["b", 1],
      ["c", 9],
    ] as const)
      await env.DB.prepare(
        "INSERT INTO faq_hits (tenant_id, faq_id, variant_id, query_text, score, session_id, hit_at) VALUES (?, ?, NULL, 'refund', 0.8, ?, ?)",
      )
        .bind(tenant.tenantId, used.id, session, Date.now() - daysAgo * 86_400_000)
        .run();
    const page = await (await uiBrowser(tenant.clientKey)).get("/ui/faqs/usage");
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-testid="usage-chart"');
    expect(page.html).toContain("3 hits on all FAQs in the last 30 days");
    expect(page.html).toMatch(/data-testid="most-used"[\s\S]*How long does a refund take\?[\s\S]*3 hits · 3 sessions/);
    expect(page.html).toMatch(/data-testid="trending"[\s\S]*▲ 1 more/);
    expect(page.html).toMatch(/data-testid="never-used"[\s\S]*Do you have a mobile app\?/);
    expect(page.html).toContain('aria-current="page">FAQ usage');
    const empty = await (await uiBrowser((await newTenant()).clientKey)).get("/ui/faqs/usage");
    expect(empty.html).toContain("No FAQ has a hit yet.");
  });
});
