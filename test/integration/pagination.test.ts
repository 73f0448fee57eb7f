/**
 * Every list that had no bound: `?limit=&cursor=` in, `nextCursor` out (null on the last page),
 * one opaque cursor convention (src/http/pagination.ts). Each test walks a list page by page and
 * checks it sees every row once, in the list's order.
 */
import { describe, expect, it } from "vitest";
import { encodeCursor } from "../../src/http/pagination";
import { call, newTenant } from "../support/api";
import { connect } from "../support/helpdesk";
import { freshId, scenarios, send } from "../support/helpdesk-scenarios";
import { deliver, newWebhookSecret, seedFaq, ticket } from "../support/tickets";

/** Follows nextCursor from the first page to the last; returns every row and the page sizes. */
async function walk(path: string, key: string, field: string, limit: number) {
  const rows: Record<string, any>[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await call(`${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, { key });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const page = res.json![field] as Record<string, any>[];
    rows.push(...page);
    sizes.push(page.length);
    cursor = res.json!.nextCursor as string | null;
    if (cursor === null) return { rows, sizes };
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  }
  throw new Error("more than 50 pages");
}

function expectBadCursor(res: { status: number; json: Record<string, any> | null }) {
  expect(res.status, JSON.stringify(res.json)).toBe(400);
  expect(res.json!.error.code).toBe("VALIDATION_FAILED");
}

describe("GET /v1/faqs/:id/versions", () => {
  it("honours limit and pages through every version, newest first", async () => {
    const tenant = await newTenant();
    const id = await seedFaq(tenant, "How do I reset my password?", "Use the reset link.");
    for (let i = 1; i <= 6; i++) {
      const res = await call(`/v1/faqs/${id}`, { key: tenant.adminKey, method: "PATCH", body: { answer: `Use the reset link, take ${i}.` } });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    }
    const first = await call(`/v1/faqs/${id}/versions?limit=2`, { key: tenant.clientKey });
    expect(first.json!.versions).toHaveLength(2);
    const { rows, sizes } = await walk(`/v1/faqs/${id}/versions`, tenant.clientKey, "versions", 2);
    const numbers = rows.map((v) => v.versionNumber as number);
    expect(numbers.length).toBeGreaterThanOrEqual(6);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(Math.max(...sizes)).toBe(2);
  });

  it("refuses a limit over 100 and a cursor it did not give", async () => {
    const tenant = await newTenant();
    const id = await seedFaq(tenant, "Where is my invoice?", "Under Billing.");
    expectBadCursor(await call(`/v1/faqs/${id}/versions?limit=101`, { key: tenant.clientKey }));
    expectBadCursor(await call(`/v1/faqs/${id}/versions?cursor=not*base64`, { key: tenant.clientKey }));
    expectBadCursor(await call(`/v1/faqs/${id}/versions?cursor=${encodeCursor(["x", "y"])}`, { key: tenant.clientKey }));
    expectBadCursor(await call(`/v1/faqs/${id}/versions?cursor=${btoa("{not json").replace(/=+$/, "")}`, { key: tenant.clientKey }));
  });
});

describe("admin lists: keys, webhook secrets, helpdesk connections", () => {
  it("pages through API keys, oldest first, each once", async () => {
    const tenant = await newTenant();
    for (let i = 0; i < 5; i++) expect((await call("/v1/admin/keys", { key: tenant.adminKey, body: { role: "client", name: `k${i}` } })).status).toBe(201);
    const { rows, sizes } = await walk("/v1/admin/keys", tenant.adminKey, "keys", 2);
    expect(rows).toHaveLength(7);
    expect(new Set(rows.map((k) => k.id)).size).toBe(7);
    expect(sizes).toEqual([2, 2, 2, 1]);
    expect(rows.map((k) => k.createdAt)).toEqual(rows.map((k) => k.createdAt as string).sort());
  });

  it("pages through webhook secrets, newest first, each once", async () => {
    const tenant = await newTenant();
    for (let i = 0; i < 5; i++) expect((await call("/v1/admin/webhook-secrets/rotate", { key: tenant.adminKey, body: { overlapHours: 1 } })).status).toBe(201);
    const { rows } = await walk("/v1/admin/webhook-secrets", tenant.adminKey, "secrets", 2);
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((s) => s.id)).size).toBe(5);
    expect(rows.map((s) => s.createdAt)).toEqual(rows.map((s) => s.createdAt as string).sort().reverse());
  });

  it("pages through helpdesk connections, each once", async () => {
    const tenant = await newTenant();
    for (let i = 0; i < 3; i++) expect((await call("/v1/admin/helpdesk-connections", { key: tenant.adminKey, body: { provider: "standard", name: `c${i}` } })).status).toBe(201);
    const { rows, sizes } = await walk("/v1/admin/helpdesk-connections", tenant.adminKey, "connections", 2);
    expect(new Set(rows.map((c) => c.id)).size).toBe(3);
    expect(sizes).toEqual([2, 1]);
  });

  it("refuses a limit over 200 and a forged cursor", async () => {
    const tenant = await newTenant();
    expectBadCursor(await call("/v1/admin/keys?limit=201", { key: tenant.adminKey }));
    expectBadCursor(await call(`/v1/admin/webhook-secrets?cursor=${encodeCursor([1])}`, { key: tenant.adminKey }));
    expectBadCursor(await call("/v1/admin/helpdesk-connections?cursor=%2F%2F", { key: tenant.adminKey }));
  });
});

describe("shows", () => {
  it("GET /v1/shows/:id/history pages past what one page holds, and says when it is cut", async () => {
    const tenant = await newTenant();
    const questions = Array.from({ length: 7 }, (_, i) => ({ text: `Question number ${i} about topic ${i * 7}?` }));
    expect((await call("/v1/shows/paged/questions", { key: tenant.clientKey, body: { questions } })).status).toBe(201);
    const cut = await call("/v1/shows/paged/history?minutes=60&limit=3", { key: tenant.clientKey });
    expect(cut.json!.questions).toHaveLength(3);
    expect(cut.json!.nextCursor).toEqual(expect.any(String));
    const { rows, sizes } = await walk("/v1/shows/paged/history?minutes=60", tenant.clientKey, "questions", 3);
    expect(sizes).toEqual([3, 3, 1]);
    expect(new Set(rows.map((q) => q.id)).size).toBe(7);
    expect(rows.map((q) => q.text).sort()).toEqual(questions.map((q) => q.text).sort());
    expect((await call("/v1/shows/paged/history?minutes=60&limit=501", { key: tenant.clientKey })).status).toBe(400);
  });

  it("GET /v1/shows pages through the tenant's shows", async () => {
    const tenant = await newTenant();
    for (const show of ["s-a", "s-b", "s-c"]) {
      expect((await call(`/v1/shows/${show}/questions`, { key: tenant.clientKey, body: { questions: [{ text: `What is ${show}?` }] } })).status).toBe(201);
    }
    const { rows, sizes } = await walk("/v1/shows", tenant.clientKey, "shows", 2);
    expect(rows.map((s) => s.showId).sort()).toEqual(["s-a", "s-b", "s-c"]);
    expect(sizes).toEqual([2, 1]);
  });
});

describe("more lists: variants, cards, helpdesk deliveries, top lists", () => {
  it("GET /v1/faqs/:id/variants pages through every variant, oldest first", async () => {
    const tenant = await newTenant();
    const id = await seedFaq(tenant, "How do I cancel my plan?", "Settings → Plan → Cancel.");
    const texts = ["How can I cancel my plan?", "Cancel subscription", "Stop my plan please", "End my membership", "Quit my plan"];
    for (const variantText of texts) expect((await call(`/v1/faqs/${id}/variants`, { key: tenant.adminKey, body: { variantText } })).status).toBe(201);
    const { rows, sizes } = await walk(`/v1/faqs/${id}/variants`, tenant.clientKey, "variants", 2);
    expect(rows.map((v) => v.variantText)).toEqual(texts);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it("GET /v1/cards pages through a scope's cards", async () => {
    const tenant = await newTenant();
    const statements = ["I live in Austin", "My name is Dana", "I work at Globex", "I like jazz", "I use an iPhone"];
    for (const content of statements) {
      expect((await call("/v1/memories", { key: tenant.clientKey, body: { scope: "user:paged", content, memoryType: "fact" } })).status).toBe(201);
    }
    const all = await call("/v1/cards?scope=user:paged&limit=200", { key: tenant.clientKey });
    expect(all.json!.nextCursor).toBeNull();
    const { rows } = await walk("/v1/cards?scope=user:paged", tenant.clientKey, "cards", 2);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.map((c) => c.id)).toEqual((all.json!.cards as { id: string }[]).map((c) => c.id));
  });

  it("GET /v1/admin/helpdesk-connections/:id/deliveries pages through every delivery", async () => {
    const tenant = await newTenant();
    const scenario = scenarios.find((s) => s.provider === "standard")!;
    const conn = await connect(tenant, "standard");
    for (let i = 0; i < 5; i++) expect((await send(scenario, conn, conn.secret, scenario.unsolved(freshId()))).status).toBeLessThan(300);
    const { rows, sizes } = await walk(`/v1/admin/helpdesk-connections/${conn.id}/deliveries`, tenant.adminKey, "deliveries", 2);
    expect(new Set(rows.map((d) => d.deliveryKey)).size).toBe(5);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it("GET /v1/faqs/stats says when its top list is cut", async () => {
    const tenant = await newTenant();
    for (const q of ["Where is my order?", "How do I return an item?", "Do you ship abroad?"]) await seedFaq(tenant, q, "See the help centre.");
    const cut = await call("/v1/faqs/stats?limit=2", { key: tenant.clientKey });
    expect(cut.json).toMatchObject({ truncated: true });
    expect(cut.json!.faqs).toHaveLength(2);
    expect((await call("/v1/faqs/stats?limit=3", { key: tenant.clientKey })).json).toMatchObject({ truncated: false });
    expect((await call("/v1/faqs/suggestions", { key: tenant.clientKey })).json).toEqual({ suggestions: [], truncated: false });
  });

  it("GET /v1/faqs/:id/related says when its list is cut", async () => {
    const tenant = await newTenant();
    const hub = await seedFaq(tenant, "How do I delete my account?", "Settings → Account → Delete.");
    for (const q of ["Can I export my data first?", "Is deletion reversible?", "What happens to my invoices?"]) {
      const target = await seedFaq(tenant, q, "See the help centre.");
      const linked = await call(`/v1/faqs/${hub}/related`, { key: tenant.adminKey, body: { targetFaqId: target, relationshipType: "see_also" } });
      expect(linked.status, JSON.stringify(linked.json)).toBe(201);
    }
    const cut = await call(`/v1/faqs/${hub}/related?limit=2`, { key: tenant.clientKey });
    expect(cut.json!.related).toHaveLength(2);
    expect(cut.json!.truncated).toBe(true);
    expect((await call(`/v1/faqs/${hub}/related?limit=200`, { key: tenant.clientKey })).json!.truncated).toBe(false);
  });
});

describe("lists that had cursors of their own now share the convention", () => {
  it("GET /v1/faqs and GET /v1/tickets page with the same opaque cursor", async () => {
    const tenant = await newTenant();
    for (const q of ["How do I pay by card?", "Can I pay by invoice?", "Is PayPal accepted?"]) await seedFaq(tenant, q, "See Billing.");
    const faqs = await walk("/v1/faqs", tenant.clientKey, "faqs", 2);
    expect(faqs.sizes).toEqual([2, 1]);
    expect(new Set(faqs.rows.map((f) => f.id)).size).toBe(3);

    const secret = await newWebhookSecret(tenant);
    for (let i = 0; i < 3; i++) expect((await deliver(tenant, secret, ticket(`How do I change plan ${i}?`, "Settings → Plan."))).status).toBe(202);
    const tickets = await walk("/v1/tickets", tenant.adminKey, "tickets", 2);
    expect(tickets.sizes).toEqual([2, 1]);
    expect(new Set(tickets.rows.map((t) => t.id)).size).toBe(3);
    expectBadCursor(await call("/v1/tickets?before=5", { key: tenant.adminKey }));
    expectBadCursor(await call("/v1/staging?cursor=12", { key: tenant.adminKey }));
  });
});
