/**
 * Every list that had no bound: `?limit=&cursor=` in, `nextCursor` out (null on the last page),
 * one opaque cursor convention (src/http/pagination.ts). Each test walks a list page by page and
 * checks it sees every row once, in the list's order.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { encodeCursor } from "../../src/http/pagination";
import { loadSealingKey } from "../../src/http/sealed";
import { newTenant, send as sendRaw } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";
import { connect } from "../support/helpdesk";
import { freshId, scenarios, send } from "../support/helpdesk-scenarios";
import { deliver, newWebhookSecret, seedFaq, ticket } from "../support/tickets";

// This file makes cursors itself (encodeCursor), as the Worker does after reading its key.
beforeAll(() => loadSealingKey(env.DB));

/** The paging parameters every list takes. */
interface PageQuery {
  limit?: string;
  cursor?: string;
}

/**
 * Follows nextCursor from the first page to the last; returns every row (of the page's `field`)
 * and the page sizes. `page` fetches one page through the typed client and asserts its 200.
 */
async function walk<F extends string, P extends Record<F, unknown[]> & { nextCursor: string | null }>(
  field: F,
  limit: number,
  page: (query: PageQuery) => Promise<P>,
) {
  const rows: P[F][number][] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const res: P = await page({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    rows.push(...res[field]);
    sizes.push(res[field].length);
    cursor = res.nextCursor;
    if (cursor === null) return { rows, sizes };
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  }
  throw new Error("more than 50 pages");
}

type AnyResponse = Parameters<typeof expectError>[0];
const expectBadCursor = (res: AnyResponse) => expectError(res, 400, "VALIDATION_FAILED");

describe("GET /v1/faqs/:id/versions", () => {
  it("honours limit and pages through every version, newest first", async () => {
    const tenant = await newTenant();
    const id = await seedFaq(tenant, "How do I reset my password?", "Use the reset link.");
    const admin = apiClient(tenant.adminKey);
    for (let i = 1; i <= 6; i++) {
      await expectJson(admin.v1.faqs[":id"].$patch({ param: { id }, json: { answer: `Use the reset link, take ${i}.` } }), 200);
    }
    const versions = (query: PageQuery) => apiClient(tenant.clientKey).v1.faqs[":id"].versions.$get({ param: { id }, query });
    const first = await expectJson(versions({ limit: "2" }), 200);
    expect(first.versions).toHaveLength(2);
    const { rows, sizes } = await walk("versions", 2, (query) => expectJson(versions(query), 200));
    const numbers = rows.map((v) => v.versionNumber);
    expect(numbers.length).toBeGreaterThanOrEqual(6);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(Math.max(...sizes)).toBe(2);
  });

  it("refuses a limit over 100 and a cursor it did not give", async () => {
    const tenant = await newTenant();
    const id = await seedFaq(tenant, "Where is my invoice?", "Under Billing.");
    const versions = (query: PageQuery) => apiClient(tenant.clientKey).v1.faqs[":id"].versions.$get({ param: { id }, query });
    await expectBadCursor(versions({ limit: "101" }));
    await expectBadCursor(versions({ cursor: "not*base64" }));
    await expectBadCursor(versions({ cursor: encodeCursor("faq-versions", ["x", "y"]) }));
    await expectBadCursor(versions({ cursor: btoa("{not json").replace(/=+$/, "") }));
    // A position written by hand, as cursors were before they were sealed, is no cursor.
    await expectBadCursor(versions({ cursor: btoa(JSON.stringify(["faq-versions", Date.now(), "v_1"])).replace(/=+$/, "") }));
  });

  it("hands out cursors that show no position: sealed, and new at every page", async () => {
    const tenant = await newTenant();
    for (const q of ["Where is my invoice?", "How do I export?", "Can I pay by card?"]) await seedFaq(tenant, q, "Yes.");
    const page = () => expectJson(apiClient(tenant.clientKey).v1.faqs.$get({ query: { limit: "1" } }), 200);
    const [a, b] = [(await page()).nextCursor!, (await page()).nextCursor!];
    expect(a).not.toBe(b);
    expect(atob(a.replace(/-/g, "+").replace(/_/g, "/"))).not.toContain("faqs");
    // Both lead to the same next page.
    const next = async (cursor: string) =>
      (await expectJson(apiClient(tenant.clientKey).v1.faqs.$get({ query: { limit: "1", cursor } }), 200)).faqs.map((f) => f.id);
    expect(await next(a)).toEqual(await next(b));
  });
});

describe("admin lists: keys, webhook secrets, helpdesk connections", () => {
  it("pages through API keys, oldest first, each once", async () => {
    const admin = apiClient((await newTenant()).adminKey).v1.admin;
    for (let i = 0; i < 5; i++) await expectJson(admin.keys.$post({ json: { role: "client", name: `k${i}` } }), 201);
    const { rows, sizes } = await walk("keys", 2, (query) => expectJson(admin.keys.$get({ query }), 200));
    expect(rows).toHaveLength(7);
    expect(new Set(rows.map((k) => k.id)).size).toBe(7);
    expect(sizes).toEqual([2, 2, 2, 1]);
    expect(rows.map((k) => k.createdAt)).toEqual(rows.map((k) => k.createdAt).sort());
  });

  it("pages through webhook secrets, newest first, each once", async () => {
    const secrets = apiClient((await newTenant()).adminKey).v1.admin["webhook-secrets"];
    for (let i = 0; i < 5; i++) await expectJson(secrets.rotate.$post({ json: { overlapHours: 1 } }), 201);
    const { rows } = await walk("secrets", 2, (query) => expectJson(secrets.$get({ query }), 200));
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((s) => s.id)).size).toBe(5);
    expect(rows.map((s) => s.createdAt)).toEqual(
      rows
        .map((s) => s.createdAt)
        .sort()
        .reverse(),
    );
  });

  it("pages through helpdesk connections, each once", async () => {
    const connections = apiClient((await newTenant()).adminKey).v1.admin["helpdesk-connections"];
    for (let i = 0; i < 3; i++) await expectJson(connections.$post({ json: { provider: "standard", name: `c${i}` } }), 201);
    const { rows, sizes } = await walk("connections", 2, (query) => expectJson(connections.$get({ query }), 200));
    expect(new Set(rows.map((c) => c.id)).size).toBe(3);
    expect(sizes).toEqual([2, 1]);
  });

  it("refuses a limit over 200 and a forged cursor", async () => {
    const admin = apiClient((await newTenant()).adminKey).v1.admin;
    await expectBadCursor(admin.keys.$get({ query: { limit: "201" } }));
    await expectBadCursor(admin["webhook-secrets"].$get({ query: { cursor: encodeCursor("webhook-secrets", [1]) } }));
    await expectBadCursor(admin["helpdesk-connections"].$get({ query: { cursor: "//" } }));
  });
});

describe("shows", () => {
  it("GET /v1/shows/:id/history pages past what one page holds, and says when it is cut", async () => {
    const shows = apiClient((await newTenant()).clientKey).v1.shows[":showId"];
    const param = { showId: "paged" };
    const questions = Array.from({ length: 7 }, (_, i) => ({ text: `Question number ${i} about topic ${i * 7}?` }));
    await expectJson(shows.questions.$post({ param, json: { questions } }), 201);
    const history = (query: PageQuery) => shows.history.$get({ param, query: { minutes: "60", ...query } });
    const cut = await expectJson(history({ limit: "3" }), 200);
    expect(cut.questions).toHaveLength(3);
    expect(cut.nextCursor).toEqual(expect.any(String));
    const { rows, sizes } = await walk("questions", 3, (query) => expectJson(history(query), 200));
    expect(sizes).toEqual([3, 3, 1]);
    expect(new Set(rows.map((q) => q.id)).size).toBe(7);
    expect(rows.map((q) => q.text).sort()).toEqual(questions.map((q) => q.text).sort());
    await expectError(history({ limit: "501" }), 400);
  });

  it("GET /v1/shows pages through the tenant's shows", async () => {
    const api = apiClient((await newTenant()).clientKey);
    for (const show of ["s-a", "s-b", "s-c"]) {
      await expectJson(
        api.v1.shows[":showId"].questions.$post({ param: { showId: show }, json: { questions: [{ text: `What is ${show}?` }] } }),
        201,
      );
    }
    const { rows, sizes } = await walk("shows", 2, (query) => expectJson(api.v1.shows.$get({ query }), 200));
    expect(rows.map((s) => s.showId).sort()).toEqual(["s-a", "s-b", "s-c"]);
    expect(sizes).toEqual([2, 1]);
  });
});

describe("more lists: variants, cards, helpdesk deliveries, top lists", () => {
  it("GET /v1/faqs/:id/variants pages through every variant, oldest first", async () => {
    const tenant = await newTenant();
    const id = await seedFaq(tenant, "How do I cancel my plan?", "Settings → Plan → Cancel.");
    const texts = ["How can I cancel my plan?", "Cancel subscription", "Stop my plan please", "End my membership", "Quit my plan"];
    const admin = apiClient(tenant.adminKey);
    for (const variantText of texts) await expectJson(admin.v1.faqs[":id"].variants.$post({ param: { id }, json: { variantText } }), 201);
    const variants = apiClient(tenant.clientKey).v1.faqs[":id"].variants;
    const { rows, sizes } = await walk("variants", 2, (query) => expectJson(variants.$get({ param: { id }, query }), 200));
    expect(rows.map((v) => v.variantText)).toEqual(texts);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it("GET /v1/cards pages through a scope's cards", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const statements = ["I live in Austin", "My name is Dana", "I work at Globex", "I like jazz", "I use an iPhone"];
    for (const content of statements) {
      await expectJson(api.v1.memories.$post({ json: { scope: "user:paged", content, memoryType: "fact" } }), 201);
    }
    const cards = (query: PageQuery) => api.v1.cards.$get({ query: { scope: "user:paged", ...query } });
    const all = await expectJson(cards({ limit: "200" }), 200);
    expect(all.nextCursor).toBeNull();
    const { rows } = await walk("cards", 2, (query) => expectJson(cards(query), 200));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.map((c) => c.id)).toEqual(all.cards.map((c) => c.id));
  });

  it("GET /v1/admin/helpdesk-connections/:id/deliveries pages through every delivery", async () => {
    const tenant = await newTenant();
    const scenario = scenarios.find((s) => s.provider === "standard")!;
    const conn = await connect(tenant, "standard");
    for (let i = 0; i < 5; i++) expect((await send(scenario, conn, conn.secret, scenario.unsolved(freshId()))).status).toBeLessThan(300);
    const deliveries = apiClient(tenant.adminKey).v1.admin["helpdesk-connections"][":id"].deliveries;
    const { rows, sizes } = await walk("deliveries", 2, (query) => expectJson(deliveries.$get({ param: { id: conn.id }, query }), 200));
    expect(new Set(rows.map((d) => d.deliveryKey)).size).toBe(5);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it("GET /v1/faqs/stats says when its top list is cut", async () => {
    const tenant = await newTenant();
    for (const q of ["Where is my order?", "How do I return an item?", "Do you ship abroad?"])
      await seedFaq(tenant, q, "See the help centre.");
    const faqs = apiClient(tenant.clientKey).v1.faqs;
    const cut = await expectJson(faqs.stats.$get({ query: { limit: "2" } }), 200);
    expect(cut).toMatchObject({ truncated: true });
    expect(cut.faqs).toHaveLength(2);
    expect(await expectJson(faqs.stats.$get({ query: { limit: "3" } }), 200)).toMatchObject({ truncated: false });
    expect(await expectJson(faqs.suggestions.$get({ query: {} }), 200)).toEqual({ suggestions: [], truncated: false });
  });

  it("GET /v1/faqs/:id embeds the first 50 variants and 20 links, with the cursor and flag that lead to the rest", async () => {
    const tenant = await newTenant();
    const admin = apiClient(tenant.adminKey);
    const lines = [
      {
        question: "How do I delete my account?",
        answer: "Settings → Account.",
        variants: Array.from({ length: 55 }, (_, i) => `delete account way ${i}`),
      },
      ...Array.from({ length: 21 }, (_, i) => ({ question: `Account question number ${i}?`, answer: "See the help centre." })),
    ];
    const imported = await expectJson(
      admin.v1.faqs.import.$post(
        {},
        { headers: { "content-type": "application/x-ndjson" }, init: { body: lines.map((l) => JSON.stringify(l)).join("\n") } },
      ),
      200,
    );
    const [hub, ...others] = imported.imported.map((i) => i.id);
    for (const target of others)
      await expectJson(
        admin.v1.faqs[":id"].related.$post({ param: { id: hub! }, json: { targetFaqId: target, relationshipType: "see_also" } }),
        201,
      );
    const detail = await expectJson(admin.v1.faqs[":id"].$get({ param: { id: hub! } }), 200);
    expect(detail.variants.map((v) => v.variantText)).toEqual(Array.from({ length: 50 }, (_, i) => `delete account way ${i}`));
    expect(detail.related).toHaveLength(20);
    expect(detail.relatedTruncated).toBe(true);
    const rest = await expectJson(
      admin.v1.faqs[":id"].variants.$get({ param: { id: hub! }, query: { cursor: detail.variantsNextCursor! } }),
      200,
    );
    expect(rest.variants.map((v) => v.variantText)).toEqual(Array.from({ length: 5 }, (_, i) => `delete account way ${50 + i}`));
    expect((await expectJson(admin.v1.faqs[":id"].related.$get({ param: { id: hub! }, query: {} }), 200)).related).toHaveLength(21);
    const small = await expectJson(admin.v1.faqs[":id"].$get({ param: { id: others[0]! } }), 200);
    expect(small).toMatchObject({ variantsNextCursor: null, relatedTruncated: false });
  });

  it("GET /v1/faqs/:id/related says when its list is cut", async () => {
    const tenant = await newTenant();
    const hub = await seedFaq(tenant, "How do I delete my account?", "Settings → Account → Delete.");
    const admin = apiClient(tenant.adminKey);
    for (const q of ["Can I export my data first?", "Is deletion reversible?", "What happens to my invoices?"]) {
      const target = await seedFaq(tenant, q, "See the help centre.");
      await expectJson(
        admin.v1.faqs[":id"].related.$post({ param: { id: hub }, json: { targetFaqId: target, relationshipType: "see_also" } }),
        201,
      );
    }
    const related = (limit: string) => apiClient(tenant.clientKey).v1.faqs[":id"].related.$get({ param: { id: hub }, query: { limit } });
    const cut = await expectJson(related("2"), 200);
    expect(cut.related).toHaveLength(2);
    expect(cut.truncated).toBe(true);
    expect((await expectJson(related("200"), 200)).truncated).toBe(false);
  });
});

describe("lists that had cursors of their own now share the convention", () => {
  it("GET /v1/faqs and GET /v1/tickets page with the same opaque cursor", async () => {
    const tenant = await newTenant();
    for (const q of ["How do I pay by card?", "Can I pay by invoice?", "Is PayPal accepted?"]) await seedFaq(tenant, q, "See Billing.");
    const client = apiClient(tenant.clientKey);
    const faqs = await walk("faqs", 2, (query) => expectJson(client.v1.faqs.$get({ query }), 200));
    expect(faqs.sizes).toEqual([2, 1]);
    expect(new Set(faqs.rows.map((f) => f.id)).size).toBe(3);

    const secret = await newWebhookSecret(tenant);
    for (let i = 0; i < 3; i++)
      expect((await deliver(tenant, secret, ticket(`How do I change plan ${i}?`, "Settings → Plan."))).status).toBe(202);
    const admin = apiClient(tenant.adminKey);
    const tickets = await walk("tickets", 2, (query) => expectJson(admin.v1.tickets.$get({ query }), 200));
    expect(tickets.sizes).toEqual([2, 1]);
    expect(new Set(tickets.rows.map((t) => t.id)).size).toBe(3);
    // The old cursor parameter is no parameter of the list any more: sent raw, the typed client would not send it.
    await expectBadCursor(sendRaw("/v1/tickets?before=5", { key: tenant.adminKey }));
    await expectBadCursor(admin.v1.staging.$get({ query: { cursor: "12" } }));
  });
});

describe("a cursor belongs to the list that gave it", () => {
  it("refuses (400) a cursor another list gave, even one of the same shape", async () => {
    const tenant = await newTenant();
    const faqId = await seedFaq(tenant, "How do I pay by card?", "See Billing.");
    await seedFaq(tenant, "Can I pay by invoice?", "See Billing.");
    const secret = await newWebhookSecret(tenant);
    for (let i = 0; i < 2; i++)
      expect((await deliver(tenant, secret, ticket(`How do I change plan ${i}?`, "Settings → Plan."))).status).toBe(202);
    const client = apiClient(tenant.clientKey);
    const admin = apiClient(tenant.adminKey);
    // Real cursors: the FAQ list's, the tickets list's (a row's seq, as staging, variants and versions use)
    // and the API keys list's (created time and id, as secrets, connections, cards and shows use).
    const faqsCursor = (await expectJson(client.v1.faqs.$get({ query: { limit: "1" } }), 200)).nextCursor!;
    const ticketsCursor = (await expectJson(admin.v1.tickets.$get({ query: { limit: "1" } }), 200)).nextCursor!;
    const keysCursor = (await expectJson(admin.v1.admin.keys.$get({ query: { limit: "1" } }), 200)).nextCursor!;
    for (const cursor of [faqsCursor, ticketsCursor, keysCursor]) expect(cursor).toEqual(expect.any(String));
    const refusals: [string, string, string][] = [
      ["/v1/staging", ticketsCursor, tenant.adminKey],
      ["/v1/tickets", faqsCursor, tenant.adminKey],
      ["/v1/faqs", ticketsCursor, tenant.clientKey],
      [`/v1/faqs/${faqId}/variants`, faqsCursor, tenant.clientKey],
      [`/v1/faqs/${faqId}/versions`, faqsCursor, tenant.clientKey],
      ["/v1/admin/webhook-secrets", keysCursor, tenant.adminKey],
      ["/v1/admin/helpdesk-connections", keysCursor, tenant.adminKey],
      ["/v1/cards?scope=user:x", keysCursor, tenant.clientKey],
      ["/v1/shows", keysCursor, tenant.clientKey],
    ];
    for (const [path, cursor, key] of refusals) {
      const { error } = await expectBadCursor(sendRaw(`${path}${path.includes("?") ? "&" : "?"}cursor=${cursor}`, { key }));
      expect(error.details, path).toEqual([{ path: "cursor", message: "not a cursor this list gave" }]);
    }
    // Each list still takes its own.
    await expectJson(client.v1.faqs.$get({ query: { limit: "1", cursor: faqsCursor } }), 200);
    await expectJson(admin.v1.tickets.$get({ query: { limit: "1", cursor: ticketsCursor } }), 200);
    await expectJson(admin.v1.admin.keys.$get({ query: { limit: "1", cursor: keysCursor } }), 200);
  });
});
