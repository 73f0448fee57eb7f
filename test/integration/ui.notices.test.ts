/**
 * Every change on an FAQ page answers with a redirect and a notice shown once (the flash cookie);
 * every destructive action (remove a phrasing, unlink, roll back) takes two steps; counts read
 * as words ("1 session", not "1 sessions").
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newTenant } from "../support/api";
import { apiClient, expectJson } from "../support/client";
import { uiBrowser } from "../support/ui";

describe("POST /ui/faqs/:id/…: notices after the redirect", () => {
  it("says what each change did, once, and puts each destructive button behind a confirm step", async () => {
    const tenant = await newTenant();
    const api = apiClient(tenant.adminKey);
    const faq = await expectJson(api.v1.faqs.$post({ json: { question: "How do I export my data?", answer: "Settings → Export." } }), 201);
    const other = await expectJson(
      api.v1.faqs.$post({ json: { question: "How do I delete my account?", answer: "Settings → Account." } }),
      201,
    );
    const browser = await uiBrowser(tenant.adminKey);
    const base = `/ui/faqs/${faq.id}`;
    let page = await browser.get(base);

    const added = await browser.post(`${base}/variants`, { variantText: "Can I download everything?" }, page.html);
    expect(added).toMatchObject({ status: 303, location: base });
    page = await browser.get(base);
    expect(page.html).toContain("Added the phrasing “Can I download everything?”.");
    expect((await browser.get(base)).html).not.toContain("Added the phrasing");
    // Remove is a two-step: the summary opens a form whose own button removes.
    expect(page.html).toMatch(
      /<details class="two-step"><summary class="button danger" aria-label="Remove variant: Can I download everything\?">Remove<\/summary>/,
    );
    expect(page.html).toContain("Yes, remove it");

    const variantId = /\/variants\/([^/]+)\/delete/.exec(page.html)![1]!;
    await browser.post(`${base}/variants/${variantId}/delete`, { label: "Can I download everything?" }, page.html);
    expect((await browser.get(base)).html).toContain("Removed the phrasing “Can I download everything?”.");

    page = await browser.get(base);
    await browser.post(`${base}/related`, { targetFaqId: other.id, relationshipType: "see_also" }, page.html);
    page = await browser.get(base);
    expect(page.html).toContain("Linked “How do I delete my account?” as see also.");
    expect(page.html).toContain("Yes, unlink");

    await browser.post(`${base}/edit`, { question: faq.question, answer: "Settings → Data → Export.", tags: "" }, page.html);
    page = await browser.get(base);
    expect(page.html).toContain("Saved: this is version 2.");
    // Roll back is a link to a confirm page that shows what the FAQ will say.
    expect(page.html).toContain(`href="${base}/rollback/1" aria-label="Roll back to version 1"`);
    const confirm = await browser.get(`${base}/rollback/1`);
    expect(confirm.html).toContain("Roll back to version 1?");
    expect(confirm.html).toMatch(/<del>Data → <\/del>/);
    expect(confirm.html).toContain("Yes, roll back to v1");
    expect((await browser.get(`${base}/rollback/2`)).status).toBe(404);
    await browser.post(`${base}/rollback/1`, {}, confirm.html);
    page = await browser.get(base);
    expect(page.html).toContain("Rolled back to the text of version 1, saved as version 3.");
  });

  it("writes one hit, one session and one day in the singular", async () => {
    const tenant = await newTenant();
    const faq = await expectJson(
      apiClient(tenant.adminKey).v1.faqs.$post({ json: { question: "How do I export my data?", answer: "Settings → Export." } }),
      201,
    );
    await env.DB.prepare(
      "INSERT INTO faq_hits (tenant_id, faq_id, variant_id, query_text, score, session_id, hit_at) VALUES (?, ?, NULL, 'export', 0.8, 's-1', ?)",
    )
      .bind(tenant.tenantId, faq.id, Date.now())
      .run();
    const page = await (await uiBrowser(tenant.clientKey)).get(`/ui/faqs/${faq.id}`);
    expect(page.html).toContain("1 hit in all · 1 session · 1 day with hits");
    expect(page.html).not.toMatch(/1 (hits|sessions|days)\b/);
  });
});
