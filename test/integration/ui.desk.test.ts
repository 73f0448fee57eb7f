import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { faqHitsPerDay } from "../../src/features/faqs/hits-daily";
import { newTenant } from "../support/api";
import { uiSession } from "../support/ui";
import { apiClient, expectJson } from "../support/client";

const BASE = "https://recall.test";
const DAY = 86_400_000;

const get = async (path: string, cookie: string) => {
  const response = await SELF.fetch(`${BASE}${path}`, { headers: { cookie }, redirect: "manual" });
  return { status: response.status, html: await response.text() };
};

describe("faqHitsPerDay", () => {
  it("counts hits per UTC day over the range, zeros included, for that tenant and FAQ only", async () => {
    const now = Date.UTC(2026, 10, 23, 12);
    const insert = (tenant: string, faq: string, at: number) =>
      env.DB.prepare(
        "INSERT INTO faq_hits (tenant_id, faq_id, variant_id, query_text, score, session_id, hit_at) VALUES (?, ?, NULL, 'q', 0.1, 's', ?)",
      )
        .bind(tenant, faq, at)
        .run();
    await insert("t_hits", "faq_a", now);
    await insert("t_hits", "faq_a", now - 3600_000);
    await insert("t_hits", "faq_a", now - 2 * DAY);
    await insert("t_hits", "faq_a", now - 40 * DAY);
    await insert("t_hits", "faq_b", now);
    await insert("t_other", "faq_a", now);
    const days = await faqHitsPerDay(env.DB, "t_hits", "faq_a", 7, now);
    expect(days).toHaveLength(7);
    expect(days.at(-1)).toEqual({ day: "2026-11-23", hits: 2 });
    expect(days.at(-3)).toEqual({ day: "2026-11-21", hits: 1 });
    expect(days[0]).toEqual({ day: "2026-11-17", hits: 0 });
    expect(days.reduce((s, d) => s + d.hits, 0)).toBe(3);
  });
});

describe("GET /ui/faqs/:id", () => {
  it("renders the FAQ with its variants and versions for its tenant, and a 404 page for another", async () => {
    const owner = await newTenant();
    const stranger = await newTenant();
    const api = apiClient(owner.adminKey);
    const created = await expectJson(
      api.v1.faqs.$post({ json: { question: "How do I export my data?", answer: "Settings → Export.", tags: ["data"] } }),
      201,
    );
    await expectJson(
      api.v1.faqs[":id"].variants.$post({ param: { id: created.id }, json: { variantText: "Can I download everything?" } }),
      201,
    );
    const mine = await get(`/ui/faqs/${created.id}`, await uiSession(owner.clientKey));
    expect(mine.status).toBe(200);
    expect(mine.html).toContain("How do I export my data?");
    expect(mine.html).toContain("Can I download everything?");
    expect(mine.html).toContain('data-testid="hit-chart"');
    const theirs = await get(`/ui/faqs/${created.id}`, await uiSession(stranger.adminKey));
    expect(theirs.status).toBe(404);
    expect(theirs.html).not.toContain("How do I export my data?");
  });
});

describe("GET /ui/staging", () => {
  it("shows approve and reject only to an admin key", async () => {
    const tenant = await newTenant();
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO tickets (id, tenant_id, ticket_id, subject, question, answer, resolved_at, received_at, status)
         VALUES ('tkt_ui1', ?, 'UI-1', '', 'How do I add a teammate?', 'Invite them.', 0, 0, 'decided')`,
      ).bind(tenant.tenantId),
      env.DB.prepare(
        `INSERT INTO staging_items (id, tenant_id, ticket_row_id, action, question, answer, status, created_at)
         VALUES ('stg_ui1', ?, 'tkt_ui1', 'NEW', 'How do I add a teammate?', 'Invite them.', 'pending', 0)`,
      ).bind(tenant.tenantId),
    ]);
    const admin = await get("/ui/staging", await uiSession(tenant.adminKey));
    const client = await get("/ui/staging", await uiSession(tenant.clientKey));
    expect(admin.status).toBe(200);
    expect(client.status).toBe(200);
    for (const page of [admin, client]) expect(page.html).toContain("How do I add a teammate?");
    expect(admin.html).toContain('action="/ui/staging/stg_ui1/approve"');
    expect(admin.html).toContain('action="/ui/staging/stg_ui1/reject"');
    expect(client.html).not.toContain("/ui/staging/stg_ui1/approve");
    expect(client.html).not.toContain("/ui/staging/stg_ui1/reject");
    expect(client.html).toContain("needs an admin key");
    // The review page of the item says why there are no buttons.
    const review = await get("/ui/staging/stg_ui1", await uiSession(tenant.clientKey));
    expect(review.html).not.toContain("/ui/staging/stg_ui1/approve");
    expect(review.html).toContain("Approving and rejecting need an admin key: this session signed in with a client key.");
  });
});

describe("POST /ui/faqs/:id/suggestions/:sid/accept|dismiss", () => {
  it("accepts a suggested phrasing as a variant and dismisses another, through the API", async () => {
    const tenant = await newTenant();
    const cookie = await uiSession(tenant.adminKey);
    const api = apiClient(tenant.adminKey);
    const faq = await expectJson(
      api.v1.faqs.$post({ json: { question: "How do I close my account?", answer: "Settings → Account → Close." } }),
      201,
    );
    const other = await expectJson(
      api.v1.faqs.$post({ json: { question: "How do I pause my subscription?", answer: "Settings → Billing → Pause." } }),
      201,
    );
    const insert = (id: string, query: string) =>
      env.DB.prepare(
        `INSERT INTO faq_suggestions (id, tenant_id, cluster_key, faq_id, alternate_faq_id, query_text, samples, count, status, first_seen_at, last_seen_at)
         VALUES (?, ?, ?, ?, ?, ?, '[]', 3, 'open', 0, 0)`,
      )
        .bind(id, tenant.tenantId, `k-${id}`, faq.id, other.id, query)
        .run();
    await insert("sug_ui_a", "delete my account please");
    await insert("sug_ui_b", "stop everything");
    const before = await get(`/ui/faqs/${faq.id}`, cookie);
    expect(before.html).toContain("delete my account please");
    const csrf = /name="_csrf" value="([^"]+)"/.exec(before.html)![1]!;
    const post = (path: string) =>
      SELF.fetch(`${BASE}${path}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: BASE },
        body: new URLSearchParams({ _csrf: csrf }),
        redirect: "manual",
      });
    expect((await post(`/ui/faqs/${faq.id}/suggestions/sug_ui_a/accept`)).status).toBe(303);
    expect((await post(`/ui/faqs/${faq.id}/suggestions/sug_ui_b/dismiss`)).status).toBe(303);
    const detail = await expectJson(api.v1.faqs[":id"].$get({ param: { id: faq.id } }), 200);
    expect(detail.variants.map((v) => [v.variantText, v.source])).toEqual([["delete my account please", "suggestion"]]);
    const after = await get(`/ui/faqs/${faq.id}`, cookie);
    expect(after.html).not.toContain("Accept as variant");
  });
});

describe("GET /ui/", () => {
  it("answers the sign-in page at /ui, and sends /ui/ there", async () => {
    const page = await SELF.fetch(`${BASE}/ui`, { redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Sign in to Recall");
    const slash = await SELF.fetch(`${BASE}/ui/`, { redirect: "manual" });
    expect(slash.status).toBe(303);
    expect(slash.headers.get("location")).toBe("/ui");
  });
});
