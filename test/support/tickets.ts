/** Helpers of the ticket-pipeline tests: a webhook secret, signed deliveries, seeded FAQs, waiting for decisions. */
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { signPayload } from "../../src/features/tickets/signature";
import type { TestTenant } from "./api";
import { apiClient, expectJson } from "./client";

/** A new webhook secret of the tenant (POST /v1/admin/webhook-secrets, or /rotate with `rotate`). */
export async function newWebhookSecret(tenant: TestTenant, rotate?: { overlapHours?: number }): Promise<string> {
  const secrets = apiClient(tenant.adminKey).v1.admin["webhook-secrets"];
  const created = await expectJson(rotate ? secrets.rotate.$post({ json: rotate }) : secrets.$post({ json: {} }), 201);
  expect(created.secret).toEqual(expect.any(String));
  return created.secret!;
}

export interface DeliverOptions {
  timestamp?: string;
  tenantId?: string;
  signature?: string;
  /** Sign this instead of the body (tampering). */
  signedBody?: string;
  headers?: Record<string, string>;
}

/**
 * POSTs a signed delivery to /v1/webhooks/tickets through the typed client. The body goes as the
 * request's own bytes (the signature covers exactly them), so a test may sign something else, send
 * malformed JSON or forge any header; the answer is typed by the route (read it with expectJson or expectError).
 */
export async function deliver(tenant: TestTenant, secret: string, body: unknown, options: DeliverOptions = {}) {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const timestamp = options.timestamp ?? String(Math.floor(Date.now() / 1000));
  const signature = options.signature ?? (await signPayload(secret, timestamp, options.signedBody ?? raw));
  const headers = {
    "content-type": "application/json",
    "x-recall-tenant": options.tenantId ?? tenant.tenantId,
    "x-recall-timestamp": timestamp,
    "x-recall-signature": signature,
    ...options.headers,
  };
  return apiClient().v1.webhooks.tickets.$post({}, { headers, init: { body: raw } });
}

let counter = 0;
export function ticket(question: string, answer: string, extra: Record<string, unknown> = {}) {
  counter++;
  return { ticketId: `T-${Date.now()}-${counter}`, subject: "", question, answer, resolvedAt: "2026-11-01T10:00:00Z", ...extra };
}

export async function seedFaq(tenant: TestTenant, question: string, answer: string): Promise<string> {
  return (await expectJson(apiClient(tenant.adminKey).v1.faqs.$post({ json: { question, answer } }), 201)).id;
}

/** GET /v1/tickets/:id, typed. */
export const readTicket = (tenant: TestTenant, id: string) =>
  expectJson(apiClient(tenant.adminKey).v1.tickets[":id"].$get({ param: { id } }), 200);

/** Polls GET /v1/tickets/:id until the queue consumer has decided (or dead-lettered) the ticket. */
export async function waitForDecision(tenant: TestTenant, id: string, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ticket = await readTicket(tenant, id);
    if (ticket.status !== "received") return ticket;
    if (Date.now() > until) throw new Error(`ticket ${id} still ${ticket.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function countTickets(tenantId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM tickets WHERE tenant_id = ?").bind(tenantId).first<{ n: number }>();
  return row?.n ?? 0;
}

/** The answer to a one-ticket delivery (not a batch), typed; asserts the status (202 new, 200 duplicate). */
export async function expectDelivered(pending: ReturnType<typeof deliver>, status: 200 | 202 = 202) {
  const body = await expectJson(pending, status);
  if (!("id" in body)) throw new Error(`a batch answer to one ticket: ${JSON.stringify(body)}`);
  return body;
}
