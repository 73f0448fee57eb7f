import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signPayload } from "../../src/features/tickets/signature";
import { newTenant } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";
import { countTickets, deliver, expectDelivered, newWebhookSecret, ticket } from "../support/tickets";

// Deliveries go through the typed client with the request's own bytes and headers (support/tickets.ts),
// so forged signatures, stale timestamps and malformed bodies are sent as a broken or hostile sender would.

const Q = "How do I export my invoices as PDF?";
const A = "Open Billing, pick the invoices and choose Export → PDF.";

describe("POST /v1/webhooks/tickets: signatures", () => {
  it("accepts a valid signature with 202 and stores the ticket as received", async () => {
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const res = await expectDelivered(deliver(tenant, secret, ticket(Q, A)), 202);
    expect(res).toMatchObject({ status: "received", duplicate: false });
    expect(await countTickets(tenant.tenantId)).toBe(1);
  });

  it("answers the same 401 for a tampered body, a wrong secret, a stale or future timestamp, a wrong tenant and missing headers", async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const otherSecret = await newWebhookSecret(other);
    const body = ticket(Q, A);
    const stale = String(Math.floor(Date.now() / 1000) - 6 * 60);
    const future = String(Math.floor(Date.now() / 1000) + 6 * 60);
    const attempts = [
      deliver(tenant, secret, body, { signedBody: JSON.stringify({ ...body, answer: "something else" }) }),
      await deliver(tenant, "whsec_not_the_secret", body),
      await deliver(tenant, otherSecret, body),
      await deliver(tenant, secret, body, { timestamp: stale }),
      await deliver(tenant, secret, body, { timestamp: future }),
      await deliver(tenant, secret, body, { tenantId: other.tenantId }),
      await deliver(tenant, secret, body, { tenantId: "t_does_not_exist" }),
      await deliver(tenant, secret, body, { signature: "v1=00" }),
      await deliver(tenant, secret, body, { signature: "" }),
    ];
    for (const attempt of attempts) {
      const res = await expectError(attempt, 401, "UNAUTHORIZED");
      expect(res.error.message).toBe("The webhook signature is not valid");
    }
    expect(await countTickets(tenant.tenantId)).toBe(0);
    expect(await countTickets(other.tenantId)).toBe(0);
  });

  it("accepts a timestamp 4 minutes old (inside the 5-minute tolerance)", async () => {
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const res = await deliver(tenant, secret, ticket(Q, A), { timestamp: String(Math.floor(Date.now() / 1000) - 4 * 60) });
    expect(res.status).toBe(202);
  });

  it("keeps the previous secret valid during a rotation's overlap, and not after an overlap of 0", async () => {
    const tenant = await newTenant();
    const first = await newWebhookSecret(tenant);
    const secrets = apiClient(tenant.adminKey).v1.admin["webhook-secrets"];
    const rotated = await expectJson(secrets.rotate.$post({ json: {} }), 201);
    expect(rotated.previousValidUntil).toBeTruthy();
    expect(rotated.secret).toEqual(expect.any(String));
    const second = rotated.secret!;
    expect((await deliver(tenant, first, ticket(Q, A))).status).toBe(202);
    expect((await deliver(tenant, second, ticket(Q, A))).status).toBe(202);

    const listed = await expectJson(secrets.$get({ query: {} }), 200);
    expect(listed.secrets).toHaveLength(2);
    expect(JSON.stringify(listed)).not.toContain(first);
    expect(JSON.stringify(listed)).not.toContain(second);

    const third = await newWebhookSecret(tenant, { overlapHours: 0 });
    expect((await deliver(tenant, first, ticket(Q, A))).status).toBe(401);
    expect((await deliver(tenant, second, ticket(Q, A))).status).toBe(401);
    expect((await deliver(tenant, third, ticket(Q, A))).status).toBe(202);
  });

  it("a tenant without a secret accepts nothing", async () => {
    const tenant = await newTenant();
    expect((await deliver(tenant, "whsec_guess", ticket(Q, A))).status).toBe(401);
  });

  it("webhook secrets are admin-only", async () => {
    const tenant = await newTenant();
    await expectError(apiClient(tenant.clientKey).v1.admin["webhook-secrets"].$post({ json: {} }), 403);
    await expectError(apiClient().v1.admin["webhook-secrets"].$post({ json: {} }), 401);
  });
});

describe("POST /v1/webhooks/tickets: bad input", () => {
  it("refuses a body over 256 KiB with 413", async () => {
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const res = await deliver(tenant, secret, ticket(Q, "x".repeat(300 * 1024)));
    expect(res.status).toBe(413);
  });

  it("refuses non-UTF-8 bytes with 400", async () => {
    const tenant = await newTenant();
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"ticketId":"T1","question":"caf'),
      0xe9,
      ...new TextEncoder().encode('?"}'),
    ]);
    // Raw bytes that are not UTF-8: sent as is.
    const response = await SELF.fetch("https://recall.test/v1/webhooks/tickets", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-recall-tenant": tenant.tenantId,
        "x-recall-timestamp": String(Math.floor(Date.now() / 1000)),
        "x-recall-signature": "v1=00",
      },
      body: bytes,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain("UTF-8");
  });

  it("refuses a ticket with no question text (only a greeting and a signature) with 400", async () => {
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    await expectError(deliver(tenant, secret, ticket("Hi team,\n\nThanks,\nAnna", A)), 400, "VALIDATION_FAILED");
    expect(await countTickets(tenant.tenantId)).toBe(0);
  });

  it("answers 400 for signed bad JSON and for missing fields, 415 for another content type", async () => {
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    await expectError(deliver(tenant, secret, "{not json"), 400, "INVALID_JSON");
    const missing = await expectError(deliver(tenant, secret, { ticketId: "T-1", question: Q, tags: ["x".repeat(65)] }), 400);
    expect(missing.error.details!.map((d) => d.path)).toEqual(["answer", "tags.0"]);
    // The message says what is wrong, in words, for a body that is valid JSON.
    expect(missing.error.message).toMatch(/^Invalid request body: answer: .+; tags\.0: Too big/);
    expect((await deliver(tenant, secret, ticket(Q, A), { headers: { "content-type": "text/plain" } })).status).toBe(415);
  });
});

describe("POST /v1/webhooks/tickets: idempotency", () => {
  it("a redelivery answers 200 with the first outcome and stores nothing new", async () => {
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const body = ticket(Q, A);
    const first = await expectDelivered(deliver(tenant, secret, body), 202);
    const again = await expectDelivered(deliver(tenant, secret, { ...body, answer: "a different answer the second time" }), 200);
    expect(again).toMatchObject({ id: first.id, ticketId: body.ticketId, answer: A, duplicate: true });
    expect(await countTickets(tenant.tenantId)).toBe(1);
  });

  it("a replayed request (same timestamp and signature) inside the tolerance is a 200 duplicate; stale, it is a 401", async () => {
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const body = ticket(Q, A);
    const ts = String(Math.floor(Date.now() / 1000));
    const signature = await signPayload(secret, ts, JSON.stringify(body));
    expect((await deliver(tenant, secret, body, { timestamp: ts, signature })).status).toBe(202);
    const replayed = await expectDelivered(deliver(tenant, secret, body, { timestamp: ts, signature }), 200);
    expect(replayed.duplicate).toBe(true);
    const old = String(Math.floor(Date.now() / 1000) - 301);
    expect(
      (await deliver(tenant, secret, body, { timestamp: old, signature: await signPayload(secret, old, JSON.stringify(body)) })).status,
    ).toBe(401);
    expect(await countTickets(tenant.tenantId)).toBe(1);
  });

  it("takes a batch ({ tickets: [...] }) and reports each ticket, duplicates included", async () => {
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const a = ticket(Q, A);
    await deliver(tenant, secret, a);
    const b = ticket("Can I pay by bank transfer?", "Yes, for annual plans.");
    const res = await expectJson(deliver(tenant, secret, { tickets: [a, b] }), 202);
    expect("tickets" in res && res.tickets.map((t) => [t.ticketId, t.duplicate])).toEqual([
      [a.ticketId, true],
      [b.ticketId, false],
    ]);
    expect(await countTickets(tenant.tenantId)).toBe(2);
  });

  it("answers a batch per ticket: the good ones are taken, each bad one is named with its reasons", async () => {
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const good = ticket(Q, A);
    const { resolvedAt: _, ...undated } = ticket("Can I pay by bank transfer?", "Yes, for annual plans.");
    const thanks = ticket("Thanks!", "You're welcome.");
    const noAnswer = { ticketId: "T-no-answer", question: "Where do I change my VAT number?" };
    const res = await expectJson(deliver(tenant, secret, { tickets: [good, undated, thanks, noAnswer, { ...good }, 42] }), 202);
    if (!("rejected" in res)) throw new Error("a batch answers with rejected");
    expect(res.tickets.map((t) => t.ticketId)).toEqual([good.ticketId, undated.ticketId]);
    // Without resolvedAt, the ticket was resolved when delivered.
    expect(Date.now() - Date.parse(res.tickets[1]!.resolvedAt)).toBeLessThan(60_000);
    expect(res.rejected.map((r) => [r.index, r.ticketId, r.details.map((d) => d.path)])).toEqual([
      [2, thanks.ticketId, ["tickets.2.question"]],
      [3, "T-no-answer", ["tickets.3.answer"]],
      [4, good.ticketId, ["tickets.4.ticketId"]],
      [5, null, ["tickets.5"]],
    ]);
    expect(res.rejected[0]!.message).toContain("no question text");
    expect(res.rejected[2]!.message).toContain("the same ticketId as tickets.0");
    expect(await countTickets(tenant.tenantId)).toBe(2);

    // A batch with nothing to take is a 400 naming every reason; nothing is stored.
    const none = await expectError(deliver(tenant, secret, { tickets: [thanks, noAnswer] }), 400, "VALIDATION_FAILED");
    expect(none.error.details!.map((d) => d.path)).toEqual(["tickets.0.question", "tickets.1.answer"]);
    expect(await countTickets(tenant.tenantId)).toBe(2);
  });

  it("the same ticket id of two tenants is two tickets", async () => {
    const one = await newTenant();
    const two = await newTenant();
    const body = ticket(Q, A);
    expect((await deliver(one, await newWebhookSecret(one), body)).status).toBe(202);
    expect((await deliver(two, await newWebhookSecret(two), body)).status).toBe(202);
  });
});
