/**
 * Rate limits with the real (Miniflare-emulated) Workers Rate Limiting binding. The suite's own
 * bindings ([env.test]) are raised far above its traffic, so each test here swaps in
 * TIGHT_RATE_LIMIT (3 per 60 s, test/support/workers-pool.ts) for one binding and calls the real
 * app. The emulator counts per key in fixed windows, so every test uses keys of its own.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/app";
import { retryAfterSeconds } from "../../src/http/rate-limit";
import { signPayload } from "../../src/features/tickets/signature";
import wranglerToml from "../../wrangler.toml?raw";
import { newTenant } from "../support/api";
import { connect } from "../support/helpdesk";
import { newWebhookSecret } from "../support/tickets";
import { sign, zendeskTrigger } from "../fixtures/helpdesk";

const TIGHT = 3;

/** The tight window is fixed: start a test's burst only when it cannot straddle the window's end. */
async function roomInWindow(): Promise<void> {
  const left = retryAfterSeconds(Date.now());
  if (left < 5) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
}

/** What these tests read: the error envelope, or an MCP JSON-RPC result (raw: bindings are swapped per call). */
interface Answer {
  error?: { code: string; requestId: string };
  result?: { isError?: boolean; content: { text: string }[] };
}

async function send(bindings: Partial<Env>, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const response = await createApp().fetch(new Request(`https://recall.test${path}`, init), { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? (JSON.parse(text) as Answer) : null };
}

function expectRateLimited(res: Awaited<ReturnType<typeof send>>) {
  expect(res.status, JSON.stringify(res.json)).toBe(429);
  expect(res.json!.error).toMatchObject({ code: "RATE_LIMITED", requestId: expect.any(String) });
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

/** A D1 binding that fails on any use: a request answered while it is in place did no D1 work. */
const untouchableDb = new Proxy({} as D1Database, {
  get() {
    throw new Error("D1 was touched");
  },
});

async function signedTicket(secret: string, tenantId: string, ip: string) {
  const body = JSON.stringify({
    ticketId: `T-${crypto.randomUUID()}`,
    question: "How do I reset it?",
    answer: "Hold the button.",
    resolvedAt: "2026-11-01T10:00:00Z",
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "cf-connecting-ip": ip,
      "x-recall-tenant": tenantId,
      "x-recall-timestamp": timestamp,
      "x-recall-signature": await signPayload(secret, timestamp, body),
    },
    body,
  } satisfies RequestInit;
}

describe("rate limits: /ui sign-in attempts, per address", () => {
  it("answers the fourth attempt from one address with a 429 page and Retry-After, right key or not; another address goes on", async () => {
    const tenant = await newTenant();
    const tight = { LOGIN_RATE_LIMIT: env.TIGHT_RATE_LIMIT };
    await roomInWindow();
    const attempt = async (key: string, ip: string) => {
      const ctx = createExecutionContext();
      const res = await createApp().fetch(
        new Request("https://recall.test/ui/login", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": ip },
          body: new URLSearchParams({ key }),
        }),
        { ...env, ...tight },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return { status: res.status, retryAfter: res.headers.get("retry-after"), html: await res.text() };
    };
    const ip = `198.51.100.${Math.floor(Math.random() * 200)}`;
    for (let i = 0; i < TIGHT; i++) expect((await attempt(`rk_wrong_${i}`, ip)).status).toBe(401);
    const refused = await attempt(tenant.adminKey, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.html).toContain("Too many sign-in attempts from this address");
    expect((await attempt(tenant.adminKey, `${ip}1`)).status).toBe(303);
  });
});

describe("rate limits: the API, per key", () => {
  it("answers 429 RATE_LIMITED with Retry-After once a key used up its window, while another key of the tenant goes on", async () => {
    const tenant = await newTenant();
    const tight = { API_RATE_LIMIT: env.TIGHT_RATE_LIMIT };
    const asClient = { headers: { authorization: `Bearer ${tenant.clientKey}` } };
    await roomInWindow();
    for (let i = 0; i < TIGHT; i++) expect((await send(tight, "/v1/faqs?limit=1", asClient)).status).toBe(200);
    expectRateLimited(await send(tight, "/v1/faqs?limit=1", asClient));
    expectRateLimited(await send(tight, "/v1/memories/search", { ...asClient, method: "POST" }));
    expect((await send(tight, "/v1/faqs?limit=1", { headers: { authorization: `Bearer ${tenant.adminKey}` } })).status).toBe(200);
  });

  it("counts a tenant's keys together above each key's own window: minting keys gains nothing (hardening round 3)", async () => {
    const tenant = await newTenant();
    const tight = { TENANT_RATE_LIMIT: env.TIGHT_RATE_LIMIT };
    await roomInWindow();
    const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
    for (const key of [tenant.clientKey, tenant.adminKey, tenant.clientKey])
      expect((await send(tight, "/v1/faqs?limit=1", as(key))).status).toBe(200);
    const refused = await send(tight, "/v1/faqs?limit=1", as(tenant.adminKey));
    expectRateLimited(refused);
    expect(refused.json!.error).toMatchObject({ message: expect.stringContaining("for this tenant") });
    const other = await newTenant();
    expect((await send(tight, "/v1/faqs?limit=1", as(other.clientKey))).status).toBe(200);
  });

  it("does not count requests without a valid key (401 first)", async () => {
    await roomInWindow();
    const tight = { API_RATE_LIMIT: env.TIGHT_RATE_LIMIT };
    for (let i = 0; i < TIGHT + 2; i++)
      expect((await send(tight, "/v1/faqs", { headers: { authorization: "Bearer rk_nope" } })).status).toBe(401);
  });

  it("counts MCP tool calls as the API calls they make", async () => {
    const tenant = await newTenant();
    const tight = { API_RATE_LIMIT: env.TIGHT_RATE_LIMIT };
    await roomInWindow();
    const toolCall = (id: number) => ({
      method: "POST",
      headers: {
        authorization: `Bearer ${tenant.clientKey}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "analyze_query", arguments: { text: "how do I reset my password?" } },
      }),
    });
    for (let i = 0; i < TIGHT; i++) expect((await send(tight, "/mcp", toolCall(i))).json!.result!.isError).toBeFalsy();
    const refused = await send(tight, "/mcp", toolCall(9));
    expect(refused.json!.result!.isError).toBe(true);
    expect(refused.json!.result!.content[0]!.text).toContain("RATE_LIMITED");
  });
});

describe("rate limits: webhooks, per source address before any D1 work, per tenant once verified", () => {
  it("refuses a fourth delivery from one address with 429, without touching D1, and lets another address through", async () => {
    const tenant = await newTenant();
    const tight = { WEBHOOK_SOURCE_RATE_LIMIT: env.TIGHT_RATE_LIMIT };
    const ip = `198.51.100.${Math.floor(Math.random() * 250)}`;
    await roomInWindow();
    for (let i = 0; i < TIGHT; i++)
      expect((await send(tight, "/v1/webhooks/tickets", await signedTicket("whsec_x", `t_other_${i}`, ip))).status).toBe(401);
    expectRateLimited(
      await send({ ...tight, DB: untouchableDb }, "/v1/webhooks/tickets", await signedTicket("whsec_x", tenant.tenantId, ip)),
    );
    expect((await send(tight, "/v1/webhooks/tickets", await signedTicket("whsec_x", tenant.tenantId, "203.0.113.7"))).status).toBe(401);
  });

  it("counts unverified deliveries naming a tenant apart: a flood gets 429 but never spends the tenant's quota (issue 34)", async () => {
    // Before: the flood was counted under the tenant's own key before any signature was checked,
    // so the tenant's genuine delivery that followed got 429 for the rest of the window.
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const tight = { WEBHOOK_TENANT_RATE_LIMIT: env.TIGHT_RATE_LIMIT };
    await roomInWindow();
    const forged = (i: number) => signedTicket("whsec_forged", tenant.tenantId, `192.0.2.${i}`);
    for (let i = 0; i < TIGHT; i++) expect((await send(tight, "/v1/webhooks/tickets", await forged(i))).status).toBe(401);
    expectRateLimited(await send(tight, "/v1/webhooks/tickets", await forged(99)));
    const genuine = await send(tight, "/v1/webhooks/tickets", await signedTicket(secret, tenant.tenantId, "198.51.100.200"));
    expect(genuine.status, JSON.stringify(genuine.json)).toBe(202);
  });

  it("counts a tenant's verified deliveries under its own quota: the fourth signed one in a window gets 429", async () => {
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const tight = { WEBHOOK_TENANT_RATE_LIMIT: env.TIGHT_RATE_LIMIT };
    await roomInWindow();
    const genuine = (i: number) => signedTicket(secret, tenant.tenantId, `192.0.2.${10 + i}`);
    for (let i = 0; i < TIGHT; i++) expect((await send(tight, "/v1/webhooks/tickets", await genuine(i))).status).toBe(202);
    expectRateLimited(await send(tight, "/v1/webhooks/tickets", await genuine(TIGHT)));
  });

  it("counts a helpdesk connection's unsigned deliveries apart from its verified ones", async () => {
    const tenant = await newTenant();
    const conn = await connect(tenant, "zendesk");
    const tight = { WEBHOOK_TENANT_RATE_LIMIT: env.TIGHT_RATE_LIMIT };
    const unsigned = (i: number) => ({
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": `192.0.2.${100 + i}` },
      body: "{}",
    });
    const signed = async (i: number) => {
      const body = JSON.stringify(zendeskTrigger(`rl-${crypto.randomUUID()}`));
      return {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": `198.51.100.${i}`, ...(await sign.zendesk(conn.secret, body)) },
        body,
      };
    };
    await roomInWindow();
    for (let i = 0; i < TIGHT; i++) expect((await send(tight, conn.path, unsigned(i))).status).toBe(401);
    expectRateLimited(await send(tight, conn.path, unsigned(9)));
    for (let i = 0; i < TIGHT; i++) expect((await send(tight, conn.path, await signed(i))).status).toBe(202);
    expectRateLimited(await send(tight, conn.path, await signed(9)));
  });
});

describe("rate limits: configuration", () => {
  const limitsOf = (section: string) =>
    [
      ...section.matchAll(
        /\[\[(?:env\.\w+\.)?ratelimits\]\]\s*name = "(\w+)"\s*namespace_id = "(\d+)"\s*simple = \{ limit = (\d+), period = (\d+) \}/g,
      ),
    ].map((m) => m.slice(1).join(" "));
  const [production = "", rest = ""] = wranglerToml.split(/^\[env\.local\]$/m);
  const local = rest.split(/^\[env\.test\]$/m)[0] ?? "";

  it("declares the five limits in production with a 60 s period, and npm start (env.local) runs the same ones", () => {
    const limits = limitsOf(production);
    expect(limits.map((l) => l.split(" ")[0])).toEqual([
      "API_RATE_LIMIT",
      "WEBHOOK_TENANT_RATE_LIMIT",
      "WEBHOOK_SOURCE_RATE_LIMIT",
      "TENANT_RATE_LIMIT",
      "LOGIN_RATE_LIMIT",
    ]);
    for (const limit of limits) expect(limit.endsWith(" 60")).toBe(true);
    expect(limitsOf(local)).toEqual(limits);
  });

  it("computes Retry-After as the seconds left in the window, 1..60", () => {
    expect(retryAfterSeconds(0)).toBe(60);
    expect(retryAfterSeconds(59_500)).toBe(1);
    expect(retryAfterSeconds(60_000 * 7 + 30_200)).toBe(30);
  });
});
