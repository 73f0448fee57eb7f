/** Helpers of the ticket-pipeline tests: a webhook secret, signed deliveries, seeded FAQs, waiting for decisions. */
import { env, SELF } from "cloudflare:test";
import { expect } from "vitest";
import { signPayload } from "../../src/tickets/signature";
import { call, type TestTenant } from "./api";

export async function newWebhookSecret(tenant: TestTenant, path = "/v1/admin/webhook-secrets", body: unknown = {}): Promise<string> {
  const res = await call(path, { key: tenant.adminKey, body });
  expect(res.status).toBe(201);
  return res.json!.secret as string;
}

export interface DeliverOptions {
  timestamp?: string;
  tenantId?: string;
  signature?: string;
  /** Sign this instead of the body (tampering). */
  signedBody?: string;
  headers?: Record<string, string>;
}

/** POSTs a signed delivery to /v1/webhooks/tickets. */
export async function deliver(tenant: TestTenant, secret: string, body: unknown, options: DeliverOptions = {}) {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const timestamp = options.timestamp ?? String(Math.floor(Date.now() / 1000));
  const signature = options.signature ?? (await signPayload(secret, timestamp, options.signedBody ?? raw));
  const response = await SELF.fetch("https://recall.test/v1/webhooks/tickets", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-recall-tenant": options.tenantId ?? tenant.tenantId,
      "x-recall-timestamp": timestamp,
      "x-recall-signature": signature,
      ...options.headers,
    },
    body: raw,
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, any>) : null };
}

let counter = 0;
export function ticket(question: string, answer: string, extra: Record<string, unknown> = {}) {
  counter++;
  return { ticketId: `T-${Date.now()}-${counter}`, subject: "", question, answer, resolvedAt: "2026-11-01T10:00:00Z", ...extra };
}

export async function seedFaq(tenant: TestTenant, question: string, answer: string): Promise<string> {
  const res = await call("/v1/faqs", { key: tenant.adminKey, body: { question, answer } });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json!.id as string;
}

/** Polls GET /v1/tickets/:id until the queue consumer has decided (or dead-lettered) the ticket. */
export async function waitForDecision(tenant: TestTenant, id: string, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(`/v1/tickets/${id}`, { key: tenant.adminKey });
    if (res.json?.status && res.json.status !== "received") return res.json;
    if (Date.now() > until) throw new Error(`ticket ${id} still ${res.json?.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function countTickets(tenantId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM tickets WHERE tenant_id = ?").bind(tenantId).first<{ n: number }>();
  return row?.n ?? 0;
}
